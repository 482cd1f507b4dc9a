import { type ChildProcess, spawn } from 'node:child_process';

export interface EncoderOptions {
  outputPath: string;
  width: number;
  height: number;
  fps: number;
  ffmpegPath?: string;
}

export interface EncoderResult {
  ok: boolean;
  error?: string;
}

/** Starts the encoder process; swapped in tests or for another encoder. */
export type SpawnEncoder = (command: string, args: string[]) => ChildProcess;

const STDERR_KEEP = 4000;
/** Past this much unwritten data ffmpeg is not keeping up; frames are dropped rather than buffered. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export function defaultFfmpegPath(): string {
  return process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
}

/** The ffmpeg command line: JPEG frames in, H.264/yuv420p mp4 that browsers play out. */
export function ffmpegArgs(options: EncoderOptions): string[] {
  const { width, height, fps } = options;
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-framerate',
    String(fps),
    '-i',
    'pipe:0',
    '-vf',
    `scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=white,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-movflags',
    '+faststart',
    '-an',
    options.outputPath,
  ];
}

/**
 * One ffmpeg child fed JPEG frames on stdin. Every failure (missing binary, EPIPE when ffmpeg dies,
 * a non-zero exit) is recorded and reported by `finish()`; none of them throws or crashes the process.
 */
export class FfmpegEncoder {
  private readonly child: ChildProcess;
  private failure: string | undefined;
  private stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private framesWritten = 0;
  private framesDropped = 0;

  constructor(options: EncoderOptions, spawnEncoder: SpawnEncoder = defaultSpawn) {
    const command = options.ffmpegPath ?? defaultFfmpegPath();
    this.child = spawnEncoder(command, ffmpegArgs(options));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.fail(`could not run ${command}: ${error.message}`);
        resolve({ code: null, signal: null });
      });
      this.child.once('close', (code, signal) => resolve({ code, signal }));
    });
    this.child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE: ffmpeg exited early; its stderr (kept below) says why.
      this.fail(`ffmpeg stopped reading frames (${error.code ?? error.message})`);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEEP);
    });
  }

  get frames(): number {
    return this.framesWritten;
  }

  get dropped(): number {
    return this.framesDropped;
  }

  get error(): string | undefined {
    return this.failure;
  }

  write(frame: Buffer): void {
    const stdin = this.child.stdin;
    if (this.failure || !stdin || stdin.destroyed || stdin.writableEnded) return;
    if (stdin.writableLength > MAX_BUFFERED_BYTES) {
      this.framesDropped += 1;
      return;
    }
    stdin.write(frame);
    this.framesWritten += 1;
  }

  /** Closes stdin and waits for ffmpeg to write the file; kills it after `timeoutMs`. */
  async finish(timeoutMs = 60_000): Promise<EncoderResult> {
    const stdin = this.child.stdin;
    if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.child.kill('SIGKILL');
      this.fail(`ffmpeg did not finish within ${timeoutMs} ms and was killed`);
    } else if (outcome.code !== 0 && !this.failure) {
      this.fail(
        `ffmpeg exited with ${outcome.code === null ? `signal ${outcome.signal}` : `code ${outcome.code}`}`,
      );
    }
    const detail = this.stderr.trim();
    return this.failure
      ? {
          ok: false,
          error: detail ? `${this.failure}: ${detail.split('\n').slice(-3).join(' | ')}` : this.failure,
        }
      : { ok: true };
  }

  /** Stops ffmpeg without waiting for a file (the run is being thrown away). */
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private fail(message: string): void {
    this.failure ??= message;
  }
}

function defaultSpawn(command: string, args: string[]): ChildProcess {
  return spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
}
