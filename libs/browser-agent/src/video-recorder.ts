import type { CDPSession, Frame, Page } from 'puppeteer-core';
import { CursorOverlay } from './cursor-overlay.js';
import { FfmpegEncoder, type SpawnEncoder } from './ffmpeg-encoder.js';

export interface VideoRecorderOptions {
  outputPath: string;
  /** Output size; frames are scaled and padded to it. Must be even. Default 1280x720. */
  width?: number;
  height?: number;
  /** Constant output frame rate. Default 12. */
  fps?: number;
  /** Draw a cursor that follows the mouse (headless frames have none). */
  highlightMouse?: boolean;
  ffmpegPath?: string;
  jpegQuality?: number;
  /** Keeps recording this long after `stop()` is called, so the video shows the final state. Default 600 ms. */
  tailMs?: number;
  spawnEncoder?: SpawnEncoder;
}

export interface VideoResult {
  ok: boolean;
  path: string;
  /** Frames written to the encoder (the constant-rate stream, repeats included). */
  frames: number;
  durationMs: number;
  error?: string;
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
}

/**
 * Records one page as an H.264 mp4 from its first navigation until `stop()`.
 *
 * Chromium's screencast only sends a frame when something on screen changes, so frames are written
 * on a clock instead: each tick repeats the latest frame as often as needed to keep a constant rate,
 * which keeps the video's timeline equal to wall time. Puppeteer's own `page.screencast()` is not used
 * because it crashes the process with EPIPE against Debian's ffmpeg 5.1.
 */
export class VideoRecorder {
  private readonly width: number;
  private readonly height: number;
  private readonly fps: number;
  private encoder: FfmpegEncoder | undefined;
  private session: CDPSession | undefined;
  private page: Page | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private latest: Buffer | undefined;
  private live = false;
  private startedAt = 0;
  private written = 0;
  private stopped: Promise<VideoResult> | undefined;
  private finished = false;
  private setupError: string | undefined;

  constructor(private readonly options: VideoRecorderOptions) {
    this.width = options.width ?? 1280;
    this.height = options.height ?? 720;
    this.fps = options.fps ?? 12;
    if (this.width % 2 !== 0 || this.height % 2 !== 0) throw new Error('video width and height must be even');
  }

  /** Starts recording `page`. Call before the first navigation; frames before it are not kept. */
  async start(page: Page): Promise<void> {
    if (this.page) throw new Error('this recorder has already been started');
    this.page = page;
    try {
      if (this.options.highlightMouse) await CursorOverlay.for(page).install();
      this.encoder = new FfmpegEncoder(
        {
          outputPath: this.options.outputPath,
          width: this.width,
          height: this.height,
          fps: this.fps,
          ...(this.options.ffmpegPath ? { ffmpegPath: this.options.ffmpegPath } : {}),
        },
        this.options.spawnEncoder,
      );
      this.live = !/^(?:about:blank)?$/.test(page.url());
      page.on('framenavigated', this.onNavigated);
      const session = await page.createCDPSession();
      this.session = session;
      session.on('Page.screencastFrame', (frame: ScreencastFrame) => this.onFrame(frame));
      await session.send('Page.startScreencast', {
        format: 'jpeg',
        quality: this.options.jpegQuality ?? 80,
        maxWidth: this.width,
        maxHeight: this.height,
        everyNthFrame: 1,
      });
      this.ticker = setInterval(() => this.catchUp(), Math.max(10, Math.floor(1000 / this.fps / 2)));
    } catch (error) {
      // A recorder that cannot start must not fail the test; stop() reports it.
      this.setupError = `could not start recording: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Finalises the file (also after a failed test). Safe to call more than once. */
  stop(): Promise<VideoResult> {
    this.stopped ??= this.finish();
    return this.stopped;
  }

  private readonly onNavigated = (frame: Frame) => {
    if (!this.live && this.page && frame === this.page.mainFrame() && frame.url() !== 'about:blank')
      this.live = true;
  };

  private onFrame(frame: ScreencastFrame): void {
    void this.session?.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    if (!this.live || this.finished) return;
    this.latest = Buffer.from(frame.data, 'base64');
    if (this.startedAt === 0) {
      this.startedAt = Date.now();
      this.encoder?.write(this.latest);
      this.written = 1;
    }
  }

  /** Writes the latest frame as many times as the wall clock says are due. */
  private catchUp(): void {
    if (!this.latest || this.startedAt === 0 || !this.encoder) return;
    const due = Math.floor(((Date.now() - this.startedAt) * this.fps) / 1000) + 1;
    while (this.written < due) {
      this.encoder.write(this.latest);
      this.written += 1;
    }
  }

  private async finish(): Promise<VideoResult> {
    const path = this.options.outputPath;
    // The last step's effect reaches the screencast a few frames later; without a tail the video
    // would end just before the state the test finished in.
    if (this.startedAt !== 0 && !this.setupError) await delay(this.options.tailMs ?? 600);
    if (this.ticker) clearInterval(this.ticker);
    this.page?.off('framenavigated', this.onNavigated);
    this.catchUp();
    this.finished = true;
    if (this.session) {
      await this.session.send('Page.stopScreencast').catch(() => undefined);
    }
    if (this.written === 0 && this.encoder && this.session && !this.setupError) {
      // Nothing changed on screen after the first navigation (or there was none): keep one still second.
      const still = await this.session
        .send('Page.captureScreenshot', { format: 'jpeg', quality: this.options.jpegQuality ?? 80 })
        .catch(() => undefined);
      if (still) {
        const image = Buffer.from(still.data, 'base64');
        for (let i = 0; i < this.fps; i++) this.encoder.write(image);
        this.written = this.fps;
      }
    }
    await this.session?.detach().catch(() => undefined);
    const durationMs = Math.round((this.written * 1000) / this.fps);
    if (!this.encoder)
      return {
        ok: false,
        path,
        frames: 0,
        durationMs: 0,
        error: this.setupError ?? 'recording never started',
      };
    if (this.written === 0) {
      this.encoder.kill();
      return {
        ok: false,
        path,
        frames: 0,
        durationMs: 0,
        error: this.setupError ?? 'no frames were captured',
      };
    }
    const result = await this.encoder.finish();
    const error = this.setupError ?? result.error;
    return {
      ok: result.ok && !this.setupError,
      path,
      frames: this.written,
      durationMs,
      ...(error ? { error } : {}),
    };
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
