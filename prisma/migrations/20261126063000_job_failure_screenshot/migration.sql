-- A job keeps a screenshot of the page where its test failed (an artifact like the video).
ALTER TABLE "jobs" ADD COLUMN "screenshot_path" TEXT;
