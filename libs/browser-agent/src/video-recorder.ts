import { randomUUID } from 'node:crypto';
import { copyFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CDPSession, Frame, Page } from 'puppeteer-core';
import { displayOf, screenFilled } from './browser-launcher.js';
import type { DomWindow } from './page-dom.js';
import { CursorOverlay } from './cursor-overlay.js';
import {
  type EncoderPool,
  FfmpegEncoder,
  FINAL_HOLD_S,
  type SpawnEncoder,
  stillPathOf,
} from './ffmpeg-encoder.js';
import { captureStill, ScreenRecording } from './screen-recording.js';
import type { VirtualDisplay } from './virtual-display.js';

/**
 * How frames are taken: `browser` records with Chromium's own recorder (`Page.startScreenRecording`:
 * captured and encoded in the browser, see ScreenRecording) and falls back to `screencast` where the
 * browser has none; `screencast` takes JPEG frames over DevTools and encodes them with ffmpeg;
 * `x11grab` has ffmpeg grab the X screen of a headful browser on a virtual display (see
 * VirtualDisplay and `launchLocalBrowser({ display })`): nothing is captured or encoded inside the
 * browser. A page whose browser has no virtual display (headless, hosted) is recorded as `browser`.
 */
export type VideoSource = 'browser' | 'screencast' | 'x11grab';

export interface VideoRecorderOptions {
  outputPath: string;
  /**
   * Output size; frames are captured at it (scaled down by Chromium) and padded to it. Must be
   * even. Default: the page's viewport scaled down to fit 800x800 (1280x720 gives 800x450), as
   * Playwright records: capture cost grows with the pixels, and it is paid during the run.
   */
  width?: number;
  height?: number;
  /**
   * Frames per second: the most the browser's recorder captures (only when the page changed), or
   * the constant rate of the screencast's encoder. Default 12.
   */
  fps?: number;
  /**
   * Default `browser` (with the screencast as its fallback); `x11grab` falls back to `browser`
   * when the page's browser is not on a virtual display.
   */
  source?: VideoSource;
  /** Draw a cursor that follows the mouse (headless frames have none). */
  highlightMouse?: boolean;
  ffmpegPath?: string;
  jpegQuality?: number;
  spawnEncoder?: SpawnEncoder;
  /** The worker's encoders started ahead of need (see EncoderPool); without it, one is started here. */
  encoders?: EncoderPool;
}

/** A finished video file (or why there is none). */
export interface VideoResult {
  ok: boolean;
  path: string;
  /**
   * Distinct frames sent to the encoder (it repeats each until the next, at a constant rate); not
   * counted when the browser encoded the video.
   */
  frames?: number;
  durationMs: number;
  error?: string;
}

/**
 * A recording whose capture has stopped: the final state of the page is in it and the browser is
 * no longer needed. The encoder finishes the file in the background; `finished` says when it is
 * complete at `path` (nothing is at `path` before that).
 */
export interface RecordedVideo {
  path: string;
  /** False when nothing could be captured; `error` says why and `finished` resolves not ok. */
  captured: boolean;
  /** Length of the video: from the start of the recording (screencast: the first navigation) to the final state. */
  durationMs: number;
  /** Which recorder made it (`browser` unless the browser has no recorder of its own). */
  source?: VideoSource;
  error?: string;
  /**
   * Resolves once the recorder no longer needs the page: close it (or its browser context) only
   * after. The screencast is done with it when the capture ends; the browser's recorder first takes
   * a still of the final state and collects the browser's file (a few tens of ms).
   */
  released: Promise<void>;
  /** Resolves once the file is complete at `path`, or with why it is not; never rejects. */
  finished: Promise<VideoResult>;
}

/** The largest default video: the viewport is scaled down to fit it (never up). */
export const DEFAULT_VIDEO_BOX = 800;

/** The viewport scaled down to fit DEFAULT_VIDEO_BOX square, in even pixels (H.264 with yuv420p). */
export function defaultVideoSize(viewport: { width: number; height: number } | null): {
  width: number;
  height: number;
} {
  const { width, height } = viewport ?? { width: 1280, height: 720 };
  const scale = Math.min(1, DEFAULT_VIDEO_BOX / width, DEFAULT_VIDEO_BOX / height);
  const even = (n: number) => Math.max(2, Math.floor((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/** How long the video shows the final state after the run ended (video time; nobody waits for it). */
const FINAL_HOLD_MS = FINAL_HOLD_S * 1000;

interface ScreencastFrame {
  data: string;
  sessionId: number;
}

/**
 * Records one page as an mp4 until `stopCapture()`.
 *
 * By default the browser records and encodes the video itself while the test runs (see
 * ScreenRecording), and ffmpeg converts its file into H.264 after the run (see `endRecording`).
 * Where the browser has no recorder of its own, frames come from the screencast (below) and ffmpeg
 * encodes H.264 from the first navigation on.
 *
 * Chromium's screencast sends a frame only when something on screen changes. Each one is stamped
 * with the output frame (at `fps`) it arrived in; of several in one output frame only the latest is
 * sent, and the encoder repeats each until the next (see `ffmpegArgs`), so nothing is resent while
 * the screen stands still and the video's timeline follows wall time. When capture stops, a
 * screenshot is the last frame: it shows the final state at once, where waiting for the screencast
 * to deliver it would take a few frames. Puppeteer's own `page.screencast()` is not used because it
 * crashes the process with EPIPE against Debian's ffmpeg 5.1.
 */
export class VideoRecorder {
  private width: number;
  private height: number;
  private readonly fps: number;
  /** Where the encoder writes: beside the final file, or in the pool's spool when it was a spare. */
  private partialPath: string;
  private encoder: FfmpegEncoder | undefined;
  private session: CDPSession | undefined;
  private page: Page | undefined;
  /** Chromium's own recorder, when the browser has one (see VideoSource). */
  private recording: ScreenRecording | undefined;
  /** ffmpeg grabbing the virtual display (`x11grab`). */
  private grab: FfmpegEncoder | undefined;
  /** The latest frame of the output frame it arrived in, not yet sent (base64, decoded when sent). */
  private pending: { data: string; index: number } | undefined;
  /** The last frame sent, to repeat at the end when the final screenshot cannot be taken. */
  private lastSent: Buffer | undefined;
  private live = false;
  private startedAt = 0;
  private capturing = true;
  private stopped: Promise<RecordedVideo> | undefined;
  private setupError: string | undefined;

  constructor(private readonly options: VideoRecorderOptions) {
    this.width = options.width ?? 0;
    this.height = options.height ?? 0;
    this.fps = options.fps ?? 12;
    if (this.width % 2 !== 0 || this.height % 2 !== 0) throw new Error('video width and height must be even');
    if (!this.width !== !this.height) throw new Error('give both video width and height, or neither');
    // Written beside the final file (same file system: the rename is atomic) and renamed when complete.
    const out = options.outputPath;
    this.partialPath = join(dirname(out), `.${basename(out)}.${randomUUID().slice(0, 8)}.partial`);
  }

  /** Starts recording `page`. Call before the first navigation; frames before it are not kept. */
  async start(page: Page): Promise<void> {
    if (this.page) throw new Error('this recorder has already been started');
    this.page = page;
    if (!this.width) ({ width: this.width, height: this.height } = defaultVideoSize(page.viewport()));
    const source = this.options.source ?? 'browser';
    const display = source === 'x11grab' ? displayOf(page.browser()) : undefined;
    if (display?.alive) {
      await this.startGrab(page, display);
      return;
    }
    if (source !== 'screencast') {
      // Not every browser has its own recorder (older and hosted ones): the screencast does then.
      this.recording = await ScreenRecording.start(page, {
        maxWidth: this.width,
        maxHeight: this.height,
        fps: this.fps,
      }).catch(() => undefined);
      if (this.recording) {
        if (this.options.highlightMouse)
          await CursorOverlay.for(page)
            .install()
            .catch(() => undefined);
        return;
      }
    }
    try {
      const encoderOptions = {
        outputPath: this.partialPath,
        width: this.width,
        height: this.height,
        fps: this.fps,
        ...(this.options.ffmpegPath ? { ffmpegPath: this.options.ffmpegPath } : {}),
      };
      this.encoder = this.options.encoders
        ? this.options.encoders.take(encoderOptions)
        : new FfmpegEncoder(encoderOptions, this.options.spawnEncoder);
      this.partialPath = this.encoder.outputPath;
      if (this.options.highlightMouse) await CursorOverlay.for(page).install();
      this.live = !/^(?:about:blank)?$/.test(page.url());
      page.on('framenavigated', this.onNavigated);
      const session = await page.createCDPSession();
      this.session = session;
      session.on('Page.screencastFrame', (frame: ScreencastFrame) => this.onFrame(frame));
      await session.send('Page.startScreencast', {
        format: 'jpeg',
        quality: this.quality,
        maxWidth: this.width,
        maxHeight: this.height,
        everyNthFrame: 1,
      });
    } catch (error) {
      // A recorder that cannot start must not fail the test; stopCapture() reports it.
      this.setupError = `could not start recording: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /**
   * ffmpeg grabs the display from now on, `fps` frames a second whether or not the page changed
   * (x11grab cannot tell), scaled down to the video's size; the page's window fills the screen.
   * Nothing waits for ffmpeg's first frame: the run starts at once, and a step's result stays on
   * screen until the next step changes it, so what ffmpeg's start-up misses is at most the
   * blank page before the first navigation.
   */
  private async startGrab(page: Page, display: VirtualDisplay) {
    try {
      await screenFilled(page);
      if (this.options.highlightMouse) await CursorOverlay.for(page).install();
      const options = {
        outputPath: this.partialPath,
        input: 'x11grab' as const,
        display: { name: display.name, width: display.width, height: display.height },
        width: this.width,
        height: this.height,
        fps: this.fps,
        ...(this.options.ffmpegPath ? { ffmpegPath: this.options.ffmpegPath } : {}),
      };
      const grab = this.options.spawnEncoder
        ? new FfmpegEncoder(options, this.options.spawnEncoder)
        : display.grabbers.take(options);
      this.grab = grab;
      this.partialPath = grab.outputPath;
      this.startedAt = Date.now();
      grab.begin();
      // A grabber started just now (no spare yet: the display's first recording) takes a few
      // hundred ms to link and start; the run waits for its first frame, or it could miss steps.
      if (!grab.warm) await grab.waitForFrames(1, COLD_GRAB_WAIT_MS);
    } catch (error) {
      this.setupError = `could not start recording: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /**
   * Ends the capture with the page's final state and lets go of the page (close it afterwards);
   * the encoder finishes the file in the background (`finished`). Safe to call more than once.
   */
  stopCapture(): Promise<RecordedVideo> {
    this.stopped ??= this.endCapture();
    return this.stopped;
  }

  /** Stops capturing and waits for the finished file (also after a failed test). */
  async stop(): Promise<VideoResult> {
    return (await this.stopCapture()).finished;
  }

  private get quality(): number {
    return this.options.jpegQuality ?? 80;
  }

  private readonly onNavigated = (frame: Frame) => {
    if (!this.live && this.page && frame === this.page.mainFrame() && frame.url() !== 'about:blank')
      this.live = true;
  };

  /** The output frame `at` (ms since the epoch) falls in. */
  private indexAt(at: number): number {
    return Math.floor(((at - this.startedAt) * this.fps) / 1000);
  }

  private onFrame(frame: ScreencastFrame): void {
    void this.session?.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    if (!this.live || !this.capturing || !this.encoder) return;
    const now = Date.now();
    if (this.startedAt === 0) this.startedAt = now;
    const index = this.indexAt(now);
    if (this.pending && this.pending.index < index) this.flushPending();
    this.pending = { data: frame.data, index };
  }

  private flushPending(): void {
    if (!this.pending || !this.encoder) return;
    const image = Buffer.from(this.pending.data, 'base64');
    this.encoder.writeFrame(image, this.pending.index);
    this.lastSent = image;
    this.pending = undefined;
  }

  private async endCapture(): Promise<RecordedVideo> {
    const path = this.options.outputPath;
    this.capturing = false;
    this.page?.off('framenavigated', this.onNavigated);
    const failed = (error: string): RecordedVideo => {
      this.encoder?.kill();
      void rm(this.partialPath, { force: true });
      const result: VideoResult = { ok: false, path, frames: 0, durationMs: 0, error };
      return {
        path,
        captured: false,
        durationMs: 0,
        error,
        released: Promise.resolve(),
        finished: Promise.resolve(result),
      };
    };
    if (this.recording) return this.endRecording(this.recording);
    if (this.grab) return this.endGrab(this.grab);
    const encoder = this.encoder;
    if (!encoder) return failed(this.setupError ?? 'recording never started');
    // The screen as the run left it: a screenshot is taken from a fresh frame.
    const still =
      this.session && !this.setupError
        ? await captureStill(this.session, { width: this.width, height: this.height, quality: this.quality })
        : undefined;
    await this.session?.detach().catch(() => undefined);
    if (this.setupError) return failed(this.setupError);
    if (this.startedAt === 0) {
      // Nothing changed on screen after the first navigation (or there was none): one still second.
      if (!still) return failed('no frames were captured');
      this.startedAt = Date.now();
      encoder.writeFrame(still, 0);
      encoder.writeFrame(still, this.fps - 1);
    } else {
      this.flushPending();
      const last = still ?? this.lastSent;
      if (last) {
        const index = Math.max(this.indexAt(Date.now()), encoder.lastFrameIndex + 1);
        encoder.writeFrame(last, index);
        // A player stops on the last frame; held a moment, the final state is also seen playing.
        encoder.writeFrame(last, index + Math.round((this.fps * FINAL_HOLD_MS) / 1000));
      }
    }
    const frames = encoder.frames;
    const durationMs = Math.round(((encoder.lastFrameIndex + 1) * 1000) / this.fps);
    if (encoder.error) return failed(encoder.error);
    const finished = this.finishFile(encoder, frames, durationMs);
    return { path, captured: true, durationMs, source: 'screencast', released: Promise.resolve(), finished };
  }

  /**
   * The browser's recorder. The capture ends now: the recorder still needs the page for a moment
   * (`released`) to take a still of its final state and collect the browser's file; then ffmpeg
   * converts the browser's AV1 into the usual H.264 mp4 (a keyframe every second; Firefox misreads
   * the browser's fragmented file), ending on that still. All of it after the run has returned:
   * the job does not wait for it.
   */
  private endRecording(recording: ScreenRecording): RecordedVideo {
    const path = this.options.outputPath;
    const durationMs = recording.elapsedMs + FINAL_HOLD_MS;
    const file = recording.stop();
    const released = file.then(
      () => undefined,
      () => undefined,
    );
    const finished = (async (): Promise<VideoResult> => {
      let encoder: FfmpegEncoder | undefined;
      try {
        const recorded = await file;
        if (recorded.data.length === 0) throw new Error('the browser recorded no video');
        const options = {
          outputPath: this.partialPath,
          input: recorded.still ? ('recording' as const) : ('recording-without-still' as const),
          width: this.width,
          height: this.height,
          fps: this.fps,
          ...(this.options.ffmpegPath ? { ffmpegPath: this.options.ffmpegPath } : {}),
        };
        // The worker's pool has one started ahead of need (see EncoderPool).
        encoder =
          this.options.encoders?.take(options) ?? new FfmpegEncoder(options, this.options.spawnEncoder);
        this.partialPath = encoder.outputPath;
        if (recorded.still) await writeFile(stillPathOf(encoder.outputPath), recorded.still);
        encoder.convert(recorded.data);
        const converted = await encoder.finish();
        if (!converted.ok) throw new Error(converted.error);
        // The still goes before the video appears: nothing half-done is seen beside a whole video.
        await rm(stillPathOf(encoder.outputPath), { force: true }).catch(() => undefined);
        await moveIntoPlace(this.partialPath, path);
        return { ok: true, path, durationMs };
      } catch (error) {
        await rm(this.partialPath, { force: true }).catch(() => undefined);
        return {
          ok: false,
          path,
          durationMs,
          error: `the video could not be finished: ${(error as Error).message}`,
        };
      } finally {
        if (encoder) await rm(stillPathOf(encoder.outputPath), { force: true }).catch(() => undefined);
      }
    })();
    return { path, captured: true, durationMs, source: 'browser', released, finished };
  }

  /**
   * The run is over now; the grab goes on until the page's final state has been painted (two
   * animation frames) and grabbed (one frame period more), then ffmpeg is stopped and finishes the
   * file, holding the last frame a moment. The page is `released` only once ffmpeg has exited, so
   * no frame of a closed window is grabbed.
   */
  private endGrab(encoder: FfmpegEncoder): RecordedVideo {
    const path = this.options.outputPath;
    const durationMs = Date.now() - this.startedAt + FINAL_HOLD_MS;
    const page = this.page;
    const done = (async () => {
      if (page && !page.isClosed()) await painted(page);
      // Frames more than now: grabs after the final state was drawn. The `fps` filter holds a grab
      // back until the next one comes, and after a late grab (a starved ffmpeg) it repeats the
      // previous one to fill the gap, so the count is given room beyond the two grabs it needs.
      await encoder.waitForFrames(encoder.grabbedFrames + FINAL_GRABS, FINAL_GRAB_WAIT_MS);
      encoder.interrupt();
      return this.finishFile(encoder, 0, durationMs);
    })();
    const finished = done.then(({ frames: _frames, ...result }) => result);
    return {
      path,
      captured: true,
      durationMs,
      source: 'x11grab',
      released: done.then(() => undefined),
      finished,
    };
  }

  private async finishFile(encoder: FfmpegEncoder, frames: number, durationMs: number): Promise<VideoResult> {
    const path = this.options.outputPath;
    const result = await encoder.finish();
    let error = result.error;
    if (result.ok) {
      error = await moveIntoPlace(this.partialPath, path).then(
        () => undefined,
        (cause: Error) => `the finished video could not be moved into place: ${cause.message}`,
      );
    }
    if (error) {
      await rm(this.partialPath, { force: true }).catch(() => undefined);
      return { ok: false, path, frames, durationMs, error };
    }
    return { ok: true, path, frames, durationMs };
  }
}

declare const window: DomWindow;

/** Longest wait for a cold grabber's first frame, and for the grabs of the final state. */
const COLD_GRAB_WAIT_MS = 3_000;
const FINAL_GRAB_WAIT_MS = 10_000;
/** Encoded frames awaited once the final state is on screen (see `endGrab`). */
const FINAL_GRABS = 3;
/** Longest wait for the page to paint its final state (a page that stopped drawing is not waited for). */
const PAINT_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once what the run left is on the X screen, or after PAINT_WAIT_MS: the page drew two
 * more frames, then a one-pixel screenshot had the browser composite (and so draw to its window)
 * a frame after them. On a busy machine the browser's compositor can lag the page by far more than
 * a frame period; the grabs counted after this are grabs of the final state.
 */
async function painted(page: Page): Promise<void> {
  const composited = async () => {
    await page
      .evaluate(
        () =>
          new Promise<void>((resolve) => {
            window.requestAnimationFrame(() => window.requestAnimationFrame(() => resolve()));
          }),
      )
      .catch(() => undefined);
    await page
      .screenshot({
        type: 'jpeg',
        quality: 1,
        clip: { x: 0, y: 0, width: 1, height: 1 },
        optimizeForSpeed: true,
      })
      .catch(() => undefined);
  };
  await Promise.race([composited(), sleep(PAINT_WAIT_MS)]);
}

/**
 * Renames the finished file to `path`; from another file system (a spare encoder's spool on
 * another volume) it is copied beside `path` first, so `path` still only ever holds a whole file.
 */
async function moveIntoPlace(from: string, path: string): Promise<void> {
  try {
    await rename(from, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const beside = join(dirname(path), `.${basename(path)}.${randomUUID().slice(0, 8)}.copy`);
    await copyFile(from, beside);
    await rename(beside, path);
    await rm(from, { force: true });
  }
}
