import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

export interface EncoderOptions {
  outputPath: string;
  width: number;
  height: number;
  fps: number;
  ffmpegPath?: string;
  /**
   * What ffmpeg reads on stdin: JPEG frames (`frames`, the default), or the browser's own recording
   * (an MP4, see `convert`) followed by a still of the final state that is read from
   * `stillPathOf(outputPath)` (`recording-without-still` when there is none: its last frame is held).
   */
  input?: EncoderInput;
  /**
   * `x11grab` only: the X display to capture (e.g. `:99`) and its screen size; the page fills the
   * screen (its window fullscreen), which is scaled into `width` x `height`.
   */
  display?: { name: string; width: number; height: number };
}

/**
 * The browser records in BT.709 at full range; converted recordings are BT.709 at the limited range
 * players expect, and say so (a JPEG still, BT.601, is converted to match).
 */
const BT709 = ':out_color_matrix=bt709:out_range=tv';
const BT709_TAGS = [
  '-colorspace',
  'bt709',
  '-color_primaries',
  'bt709',
  '-color_trc',
  'bt709',
  '-color_range',
  'tv',
];

export type EncoderInput = 'frames' | 'recording' | 'recording-without-still' | 'x11grab';

/** Where a converting encoder reads the final still: beside its output (write it before `convert`). */
export const stillPathOf = (outputPath: string): string => `${outputPath}.still.jpg`;

/** How long a converted recording holds its last frame: a player stops on it, and it is also seen playing. */
export const FINAL_HOLD_S = 0.5;

export interface EncoderResult {
  ok: boolean;
  error?: string;
}

/** Starts the encoder process; swapped in tests or for another encoder. */
export type SpawnEncoder = (command: string, args: string[]) => ChildProcess;

const STDERR_KEEP = 4000;
/** The niceness of an x11grab encoder (see the constructor). */
export const GRABBER_NICE = 10;
/** How often an x11grab encoder reports the frames it grabbed (seconds). */
const PROGRESS_PERIOD_S = 0.03;
/** ffmpeg's exit code after a signal asked it to stop (it still finishes the file). */
const FFMPEG_INTERRUPTED = 255;
/** Past this much unwritten data ffmpeg is not keeping up; frames are dropped rather than buffered. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export function defaultFfmpegPath(): string {
  return process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
}

/**
 * The ffmpeg command line: timestamped JPEG frames in, H.264/yuv420p mp4 that browsers play and seek.
 *
 * The input is IVF (a 32-byte header, then per frame its size and its timestamp) carrying MJPEG, so
 * each distinct screen state is sent and decoded once, stamped with the output frame it belongs to;
 * the `fps` filter repeats it until the next one, which keeps a constant frame rate (and the video's
 * timeline equal to wall time) without sending or decoding repeats. x264 `ultrafast` with
 * `zerolatency` keeps no lookahead, so memory stays small and the file is done as soon as the last
 * frame is in; a keyframe every second (`-g fps`) lets players seek. The mp4 is written with its
 * index first (`+faststart`) to a file of its own and renamed into place when complete.
 */
export function ffmpegArgs(options: EncoderOptions): string[] {
  const { width, height, fps, outputPath } = options;
  const input = options.input ?? 'frames';
  // Scaled into the frame, limited range (the browser's recording and JPEGs are full range), and
  // at a constant rate: a converted recording has frames only where the page changed, and `fps`
  // fills the gaps, so there is a keyframe every second there too.
  const chain = (range: string) =>
    `scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2${range},pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=white,format=yuv420p,fps=${fps}`;
  const head = ['-hide_banner', '-loglevel', 'error', '-y'];
  // The browser's recording is fragmented MP4 (its index first), which can be read from a pipe.
  const recording = ['-threads', '1', '-f', 'mp4', '-i', 'pipe:0'];
  let filter: string[];
  if (input === 'x11grab') {
    const display = options.display;
    if (!display) throw new Error('an x11grab encoder needs a display');
    // Input 0 is only a trigger: ffmpeg blocks reading its header from stdin (linked, started and
    // ready, as a spare of the pool), and opens the display and starts grabbing once `begin()`
    // wrote it. Then the screen as X has it, grabbed at `fps` (no pointer: the page draws its own
    // cursor), with a progress report on stdout every frame or so (see `grabbedFrames`); stopped by
    // SIGINT (see `interrupt`), after which the last grab is held like a converted recording's.
    filter = [
      '-progress',
      'pipe:1',
      '-stats_period',
      String(PROGRESS_PERIOD_S),
      '-f',
      'ivf',
      '-i',
      'pipe:0',
      '-f',
      'x11grab',
      '-draw_mouse',
      '0',
      '-framerate',
      String(fps),
      '-video_size',
      `${display.width}x${display.height}`,
      '-i',
      `${display.name}.0+0,0`,
      '-map',
      '1:v',
      '-vf',
      `${chain(':flags=fast_bilinear')},tpad=stop_mode=clone:stop_duration=${FINAL_HOLD_S}`,
    ];
  } else if (input === 'frames') {
    filter = ['-f', 'ivf', '-i', 'pipe:0', '-vf', chain('')];
  } else if (input === 'recording') {
    // The recording, then the final state held a moment: a player stops on it, and it is also seen playing.
    filter = [
      ...recording,
      '-loop',
      '1',
      '-framerate',
      String(fps),
      '-t',
      String(FINAL_HOLD_S),
      '-i',
      stillPathOf(outputPath),
      '-filter_complex',
      `[0:v]${chain(BT709)},setsar=1[recording];[1:v]${chain(`:in_color_matrix=bt601${BT709}`)},setsar=1[still];[recording][still]concat=n=2:v=1:a=0[video]`,
      '-map',
      '[video]',
      ...BT709_TAGS,
    ];
  } else {
    filter = [
      ...recording,
      '-vf',
      `${chain(BT709)},tpad=stop_mode=clone:stop_duration=${FINAL_HOLD_S}`,
      ...BT709_TAGS,
    ];
  }
  return [
    ...head,
    ...filter,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-crf',
    '28',
    '-g',
    String(fps),
    '-threads',
    '1',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-an',
    '-f',
    'mp4',
    options.outputPath,
  ];
}

/** The IVF file header: MJPEG frames whose timestamps count output frames (time base 1/fps). */
export function ivfHeader(width: number, height: number, fps: number): Buffer {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'latin1');
  header.writeUInt16LE(0, 4); // version
  header.writeUInt16LE(32, 6); // header size
  header.write('MJPG', 8, 'latin1');
  header.writeUInt16LE(width, 12);
  header.writeUInt16LE(height, 14);
  header.writeUInt32LE(fps, 16); // time base denominator
  header.writeUInt32LE(1, 20); // time base numerator
  return header;
}

/**
 * One ffmpeg child fed timestamped JPEG frames on stdin. Every failure (missing binary, EPIPE when
 * ffmpeg dies, a non-zero exit) is recorded and reported by `finish()`; none of them throws or
 * crashes the process.
 */
export class FfmpegEncoder {
  private readonly child: ChildProcess;
  private failure: string | undefined;
  private stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private framesWritten = 0;
  private framesDropped = 0;
  private lastIndex = -1;
  /** Stopped by `interrupt()`: ffmpeg then exits with FFMPEG_INTERRUPTED once the file is written. */
  private interrupted = false;
  private readonly input: EncoderInput;
  /** x11grab: frames encoded so far (from ffmpeg's progress reports), and who waits for more. */
  private grabbed = 0;
  private progressText = '';
  private readonly frameWaiters = new Set<() => void>();
  /** Where ffmpeg writes the mp4 (its `outputPath`). */
  readonly outputPath: string;
  /** Handed out by an EncoderPool as a spare started ahead of need (ffmpeg is up and waiting). */
  warm = false;

  constructor(options: EncoderOptions, spawnEncoder: SpawnEncoder = defaultSpawn) {
    this.outputPath = options.outputPath;
    this.input = options.input ?? 'frames';
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
    if (this.input === 'frames')
      this.child.stdin?.write(ivfHeader(options.width, options.height, options.fps));
    if (this.input === 'x11grab') {
      // Below the job's browser and the worker, as the compositor (see compositor-priority.ts): on a
      // busy machine the test's steps go first and a grab waits a moment, stamped when it is taken.
      try {
        if (this.child.pid) setPriority(this.child.pid, GRABBER_NICE);
      } catch {
        // Not allowed to lower it (a container without the right): it runs at the worker's priority.
      }
      this.child.stdout?.on('data', (chunk: Buffer) => this.onProgress(chunk.toString()));
      void this.exited.then(() => this.wakeFrameWaiters());
    }
  }

  /** x11grab: starts grabbing (a spare waits for this). */
  begin(): void {
    const stdin = this.child.stdin;
    if (this.failure || !stdin || stdin.destroyed || stdin.writableEnded) return;
    this.lastIndex = 0;
    stdin.end(ivfHeader(2, 2, 1));
  }

  /** x11grab: the frames ffmpeg has encoded so far (grabbed, scaled and encoded). */
  get grabbedFrames(): number {
    return this.grabbed;
  }

  /**
   * x11grab: resolves once `count` frames have been encoded, ffmpeg has exited, or `timeoutMs`
   * has passed (never rejects; read `grabbedFrames` after).
   */
  async waitForFrames(count: number, timeoutMs: number): Promise<void> {
    if (this.grabbed >= count || this.child.exitCode !== null || this.child.signalCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      const waiter = () => {
        if (this.grabbed < count && this.child.exitCode === null && this.child.signalCode === null) return;
        this.frameWaiters.delete(waiter);
        resolve();
      };
      this.frameWaiters.add(waiter);
      timer = setTimeout(() => {
        this.frameWaiters.delete(waiter);
        resolve();
      }, timeoutMs);
    });
    clearTimeout(timer);
  }

  private onProgress(text: string): void {
    const lines = (this.progressText + text).split('\n');
    this.progressText = lines.pop() ?? '';
    for (const line of lines) {
      const frame = /^frame=(\d+)/.exec(line);
      if (frame) this.grabbed = Math.max(this.grabbed, Number(frame[1]));
    }
    this.wakeFrameWaiters();
  }

  private wakeFrameWaiters(): void {
    for (const waiter of [...this.frameWaiters]) waiter();
  }

  /** Distinct frames written. */
  get frames(): number {
    return this.framesWritten;
  }

  get dropped(): number {
    return this.framesDropped;
  }

  /** The output frame the last written frame starts at (-1 before the first). */
  get lastFrameIndex(): number {
    return this.lastIndex;
  }

  get error(): string | undefined {
    return this.failure;
  }

  /**
   * Shows `jpeg` from output frame `index` (counted at the encoder's fps from the start) until the
   * next frame written. Indexes must grow; a frame for an index already written is ignored.
   */
  writeFrame(jpeg: Buffer, index: number): void {
    const stdin = this.child.stdin;
    if (this.failure || !stdin || stdin.destroyed || stdin.writableEnded) return;
    if (index <= this.lastIndex) return;
    if (stdin.writableLength > MAX_BUFFERED_BYTES) {
      this.framesDropped += 1;
      return;
    }
    const header = Buffer.alloc(12);
    header.writeUInt32LE(jpeg.length, 0);
    header.writeBigUInt64LE(BigInt(index), 4);
    stdin.write(header);
    stdin.write(jpeg);
    this.lastIndex = index;
    this.framesWritten += 1;
  }

  /**
   * Hands a converting encoder the browser's recording, whole (write the final still to
   * `stillPathOf(outputPath)` first); then `finish()`.
   */
  convert(recording: Buffer): void {
    const stdin = this.child.stdin;
    if (this.failure || !stdin || stdin.destroyed || stdin.writableEnded) return;
    this.lastIndex = 0;
    stdin.end(recording);
  }

  /**
   * Ends a capture that reads no stdin (`x11grab`): on SIGINT ffmpeg stops grabbing and finishes
   * the file; `finish()` waits for it.
   */
  interrupt(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.interrupted = true;
    this.child.kill('SIGINT');
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
    } else if (
      outcome.code !== 0 &&
      !(this.interrupted && outcome.code === FFMPEG_INTERRUPTED) &&
      !this.failure
    ) {
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

  /** Still running and fed nothing yet: a spare that can be handed out. */
  get fresh(): boolean {
    return (
      !this.failure && this.child.exitCode === null && this.child.signalCode === null && this.lastIndex < 0
    );
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
  // stdout carries an x11grab encoder's progress reports; the other encoders write nothing there.
  return spawn(command, args, { stdio: ['pipe', args.includes('-progress') ? 'pipe' : 'ignore', 'pipe'] });
}

/**
 * Encoders started ahead of need (`size` of them, one by default): ffmpeg takes about 60-70 ms of
 * CPU to start (mostly the dynamic linker, for its codec libraries), which a video would otherwise
 * pay when it is needed: a screencast as its test begins, a conversion as the job ends (on a busy
 * worker, where jobs end every few hundred ms, a spare that is there makes the video complete
 * sooner). `take` hands out a spare started for the same input, size and rate, then starts the
 * next one a moment later. A spare writes into `.encoder-spool/` beside the job directories (the
 * same file system, so the finished file is renamed into place); an unused one is killed by
 * `close` and leaves no file, as ffmpeg opens its output only when the first frame arrives.
 */
export class EncoderPool {
  private spares: { key: string; encoder: FfmpegEncoder }[] = [];
  private closed = false;
  private swept = false;

  constructor(
    private readonly spawnEncoder?: SpawnEncoder,
    /** How many spares to keep (a worker running several jobs at once: 2). */
    private readonly size = 1,
  ) {}

  /** An encoder for `options`; `outputPath` is where the recorder wants it (the spare's may differ). */
  take(options: EncoderOptions): FfmpegEncoder {
    const key = poolKey(options);
    // Spares that died (or were fed) are of no use; one started for other options is replaced.
    for (const spare of this.spares.filter((s) => !s.encoder.fresh)) spare.encoder.kill();
    this.spares = this.spares.filter((s) => s.encoder.fresh);
    const index = this.spares.findIndex((s) => s.key === key);
    let encoder: FfmpegEncoder;
    if (index >= 0) {
      encoder = this.spares.splice(index, 1)[0]!.encoder;
      encoder.warm = true;
    } else {
      for (const spare of this.spares) spare.encoder.kill();
      this.spares = [];
      encoder = new FfmpegEncoder(options, this.spawnEncoder);
    }
    // The next one starts once this recording is under way, not in its first moment (a converter:
    // once this one has had its moment); a converter without a still is the exception, not what
    // comes next.
    const next: EncoderOptions =
      options.input === 'recording-without-still' ? { ...options, input: 'recording' } : options;
    // A grabber's successor starts soon: the next job on its display may follow in a second.
    const delay = (options.input ?? 'frames') === 'frames' ? SPARE_DELAY_MS : CONVERTER_SPARE_DELAY_MS;
    setTimeout(() => this.prepare(next), delay).unref();
    return encoder;
  }

  /** Kills the spares (when the worker stops). */
  close(): void {
    this.closed = true;
    for (const spare of this.spares) spare.encoder.kill();
    this.spares = [];
  }

  private prepare(options: EncoderOptions): void {
    if (this.closed) return;
    this.spares = this.spares.filter((s) => s.encoder.fresh);
    if (this.spares.length >= this.size) return;
    try {
      const spool = join(dirname(dirname(options.outputPath)), '.encoder-spool');
      mkdirSync(spool, { recursive: true });
      if (!this.swept) sweepSpool(spool);
      this.swept = true;
      const outputPath = join(spool, `${randomUUID()}.mp4.partial`);
      this.spares.push({
        key: poolKey(options),
        encoder: new FfmpegEncoder({ ...options, outputPath }, this.spawnEncoder),
      });
    } catch {
      // No spare: the next recording starts its own encoder.
    }
  }
}

/**
 * Removes what encoders of workers that were killed mid-recording left in the spool (shared by
 * every worker on the artifact volume): a file there is written only while a recording runs, and
 * none runs for a day.
 */
function sweepSpool(spool: string): void {
  const stale = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(spool)) {
    const path = join(spool, name);
    const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
    if (modified < stale) rmSync(path, { force: true });
  }
}

/** How long after a recording started its successor's encoder is started. */
const SPARE_DELAY_MS = 1_000;
/** How long after a conversion started (the job has ended) the next converter is started. */
const CONVERTER_SPARE_DELAY_MS = 250;

const poolKey = (options: EncoderOptions) =>
  `${options.input ?? 'frames'}${options.display ? `@${options.display.name}` : ''}:${options.width}x${options.height}@${options.fps}:${options.ffmpegPath ?? defaultFfmpegPath()}`;
