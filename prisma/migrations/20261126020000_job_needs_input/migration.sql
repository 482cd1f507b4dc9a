-- "Needs input" becomes a state of its own: a job whose instructions were not understood waits for
-- new ones (A2A TASK_STATE_INPUT_REQUIRED). The type is rebuilt instead of ALTER TYPE ... ADD VALUE
-- so the existing rows can move to the new value in this migration's one transaction.
ALTER TYPE "job_status" RENAME TO "job_status_old";
CREATE TYPE "job_status" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'needs_input');
ALTER TABLE "jobs" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "jobs" ALTER COLUMN "status" TYPE "job_status" USING (
  CASE WHEN "status" = 'failed' AND "error" = 'instructions not understood' THEN 'needs_input'
       ELSE "status"::text END
)::"job_status";
ALTER TABLE "jobs" ALTER COLUMN "status" SET DEFAULT 'queued';
DROP TYPE "job_status_old";
