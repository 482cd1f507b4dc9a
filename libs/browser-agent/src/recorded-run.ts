import type { Page } from 'puppeteer-core';
import type { AgentLog } from './agent-log.js';
import { captureFailureScreenshot } from './failure-screenshot.js';
import type { RunOutcome } from './run-outcome.js';
import { type RecordedVideo, VideoRecorder, type VideoRecorderOptions } from './video-recorder.js';

/** Where to record a run; the recorder draws the cursor when the run highlights the mouse. */
export type RunVideoOptions = Omit<VideoRecorderOptions, 'highlightMouse'>;

/** What every engine's test runner takes besides its own options: the video and the failure picture. */
export interface RecordingOptions {
  /** Where to record the run; omit for no video. */
  video?: RunVideoOptions;
  /**
   * Take a screenshot (PNG) of the page when the run did not pass, secrets unreadable in it
   * (`failure-screenshot.ts`); the result's `screenshot`. The caller stores it like the video.
   */
  failureScreenshot?: boolean;
}

/** What the recording adds to an engine's result. */
export interface RecordedRun {
  /** The capture ended with the final state; `video.finished` says when the file is complete. */
  video?: RecordedVideo;
  /** With `failureScreenshot`: the page as the failed run left it. */
  screenshot?: Buffer;
}

/**
 * The one frame around a run of either engine: records `work` on the page when a video was asked
 * for; when the outcome is not a pass, takes the one failure screenshot (every engine's, here and
 * nowhere else) while the page is as the run left it; always ends the capture with the page's final
 * state, whatever happened in between. The result comes back as soon as the capture has ended (the
 * page may then be closed); `video.finished` says when the file is complete.
 */
export async function runRecorded<T extends { outcome: RunOutcome }>(
  options: { page: Page; log: AgentLog; highlightMouse?: boolean } & RecordingOptions,
  work: () => Promise<T>,
): Promise<T & RecordedRun> {
  const { log, page } = options;
  const recorder = options.video
    ? new VideoRecorder({ ...options.video, highlightMouse: options.highlightMouse ?? false })
    : undefined;
  await recorder?.start(page);
  let result: T | undefined;
  let screenshot: Buffer | undefined;
  let video: RecordedVideo | undefined;
  try {
    result = await work();
    // Nothing ran for a query that was not understood: there is no page to show.
    if (options.failureScreenshot && failedInBrowser(result.outcome))
      screenshot = await captureFailureScreenshot(page, log.secretValues);
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
  return { ...result, ...(video ? { video } : {}), ...(screenshot ? { screenshot } : {}) };
}

function failedInBrowser(outcome: RunOutcome): boolean {
  return outcome.kind !== 'passed' && outcome.kind !== 'needs_input';
}
