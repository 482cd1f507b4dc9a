import type { CDPSession, Page } from 'puppeteer-core';

export interface ScreenRecordingOptions {
  /** Largest frame size; Chromium scales the page down to fit it (keeping its aspect ratio). */
  maxWidth: number;
  maxHeight: number;
  /** Most frames per second; frames are only made when something on screen changed. */
  fps: number;
}

/** What `stop()` hands back: the whole file, how long the recording ran, and the page at its end. */
export interface ScreenRecordingFile {
  data: Buffer;
  durationMs: number;
  /** A JPEG of the page as it was when the recording stopped (see `stop`), at the recording's size. */
  still?: Buffer;
}

/** Bytes asked for per IO.read (the stream is Chromium's, in memory; a job's video is a few MB at most). */
const READ_CHUNK = 4 * 1024 * 1024;

/**
 * Chromium's own recorder (`Page.startScreenRecording`): the browser captures the page when it
 * changed, at most `fps` frames a second, and encodes the video itself (AV1 in fragmented MP4).
 * No JPEG per frame crosses the DevTools connection and no encoder runs beside the test; what is
 * left to pay during the run is the capture of each changed frame (its cost follows how often the
 * page repaints more than `fps`: measured the same at 6 and 12 frames a second). The browser's file
 * is not what a job serves: Firefox reads its length as that of its first fragment, and its
 * keyframes are tens of frames apart, so the recorder converts it (see VideoRecorder).
 *
 * A change made within one frame period of the previous frame is not captured until something
 * else changes (and frames still being encoded when the recording stops can be lost on a busy
 * machine), so `stop()` also takes a screenshot of the page as it is: the video ends on it.
 * Throws from `start()` where the browser has no such recorder (older or hosted browsers): the
 * caller records with the screencast instead.
 */
export class ScreenRecording {
  private readonly startedAt = Date.now();
  private stopping: Promise<ScreenRecordingFile> | undefined;

  private constructor(
    private readonly session: CDPSession,
    private readonly options: ScreenRecordingOptions,
  ) {}

  static async start(page: Page, options: ScreenRecordingOptions): Promise<ScreenRecording> {
    const session = await page.createCDPSession();
    try {
      await session.send('Page.startScreenRecording', {
        maxWidth: options.maxWidth,
        maxHeight: options.maxHeight,
        frameRate: options.fps,
      });
    } catch (error) {
      await session.detach().catch(() => undefined);
      throw error;
    }
    return new ScreenRecording(session, options);
  }

  /** Milliseconds since the recording started. */
  get elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /** Ends the recording with the page's final state and returns the file. Safe to call more than once. */
  stop(): Promise<ScreenRecordingFile> {
    this.stopping ??= this.end();
    return this.stopping;
  }

  /**
   * The still and the browser's file are asked for at once: each is a few DevTools round trips
   * through the browser's busy main thread (and the still waits for a fresh frame), so one after
   * the other they took twice as long on a worker running several jobs. The order does not
   * matter to the video: the recording's last frames are followed by the still, taken as the
   * recording ends.
   */
  private async end(): Promise<ScreenRecordingFile> {
    const { session } = this;
    try {
      // A still that fails (or is cut short by the detach after a failed file) only means the
      // video ends on the recording's last frame: captureStill never rejects.
      const [still, file] = await Promise.all([
        captureStill(session, { width: this.options.maxWidth, height: this.options.maxHeight, quality: 80 }),
        this.collect(),
      ]);
      return { ...file, ...(still ? { still } : {}) };
    } finally {
      void session.detach().catch(() => undefined);
    }
  }

  /** Stops the browser's recorder and reads its file whole. */
  private async collect(): Promise<{ data: Buffer; durationMs: number }> {
    const { session } = this;
    const { stream } = await session.send('Page.stopScreenRecording');
    const durationMs = Date.now() - this.startedAt;
    const chunks: Buffer[] = [];
    try {
      for (;;) {
        const chunk = await session.send('IO.read', { handle: stream, size: READ_CHUNK });
        chunks.push(Buffer.from(chunk.data, chunk.base64Encoded ? 'base64' : 'utf8'));
        if (chunk.eof) break;
      }
    } finally {
      // Nothing waits for the close: the stream's memory is the browser's to free.
      void session.send('IO.close', { handle: stream }).catch(() => undefined);
    }
    return { data: Buffer.concat(chunks), durationMs };
  }
}

/**
 * The page as it is now (a fresh frame) as a JPEG scaled down to fit `size`: fewer pixels to draw
 * and encode than the viewport's. The clip is in page coordinates, so a scrolled page is offset by
 * where its visible part starts. Undefined when the page cannot be captured.
 */
export async function captureStill(
  session: CDPSession,
  size: { width: number; height: number; quality: number },
): Promise<Buffer | undefined> {
  const metrics = await session.send('Page.getLayoutMetrics').catch(() => undefined);
  const view = metrics?.cssVisualViewport;
  const scale = view ? Math.min(1, size.width / view.clientWidth, size.height / view.clientHeight) : 1;
  const shot = await session
    .send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: size.quality,
      optimizeForSpeed: true,
      ...(view
        ? {
            clip: { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight, scale },
          }
        : {}),
    })
    .catch(() => undefined);
  return shot ? Buffer.from(shot.data, 'base64') : undefined;
}
