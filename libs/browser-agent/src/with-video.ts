import type { Page } from 'puppeteer-core';
import type { AgentLog } from './agent-log.js';
import { type RecordedVideo, VideoRecorder, type VideoRecorderOptions } from './video-recorder.js';

/** Where to record a run; the recorder draws the cursor when the run highlights the mouse. */
export type RunVideoOptions = Omit<VideoRecorderOptions, 'highlightMouse'>;

/**
 * Records `work` on `options.page` when a video was asked for, and always ends the capture with
 * the page's final state, whatever happened in between. The result comes back as soon as the
 * capture has ended (the page may then be closed); `video.finished` says when the file is
 * complete. Both engines' test runners go through it.
 */
export async function withVideo<T extends object>(
  options: { page: Page; log: AgentLog; highlightMouse?: boolean },
  videoOptions: RunVideoOptions | undefined,
  work: () => Promise<T>,
): Promise<T & { video?: RecordedVideo }> {
  const { log } = options;
  const recorder = videoOptions
    ? new VideoRecorder({ ...videoOptions, highlightMouse: options.highlightMouse ?? false })
    : undefined;
  await recorder?.start(options.page);
  let result: T | undefined;
  let video: RecordedVideo | undefined;
  try {
    result = await work();
  } finally {
    video = await recorder?.stopCapture();
    if (video) {
      // The file's location is the server's business, not the log reader's.
      if (video.captured) log.info(`recorded ${Math.round(video.durationMs / 100) / 10} s of video`);
      else
        log.write({
          outcome: 'info',
          level: 'warn',
          message: 'the video could not be recorded',
          error: video.error,
        });
    }
    await log.flush();
  }
  return { ...result, ...(video ? { video } : {}) };
}
