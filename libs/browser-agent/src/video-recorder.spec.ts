import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { launchLocalBrowser } from './browser-launcher.js';
import { CURSOR_COLOR } from './cursor-overlay.js';
import { EncoderPool } from './ffmpeg-encoder.js';
import { runInstructionTest } from './instruction-test-runner.js';
import { defaultVideoSize, VideoRecorder, type VideoSource } from './video-recorder.js';

const run = promisify(execFile);

const BUTTON_PAGE = html(
  'Video page',
  `<h1>Recording</h1>
  <button id="b" style="position:absolute;left:540px;top:300px;width:200px;height:80px;font-size:20px;background:#eee;border:1px solid #888">Press me</button>
  <p id="out"></p>
  <script>document.getElementById('b').addEventListener('click', () => { document.getElementById('out').textContent = 'Clicked'; });</script>`,
);

/** The last step turns the whole page green: the video must end on it. */
const FINAL_GREEN = { r: 0, g: 170, b: 70 } as const;
const PAINT_PAGE = html(
  'Paint page',
  `<h1>Final state</h1>
  <button id="p" style="position:absolute;left:40px;top:120px;width:160px;height:60px">Paint it</button>
  <script>document.getElementById('p').addEventListener('click', () => {
    document.body.style.background = 'rgb(${FINAL_GREEN.r},${FINAL_GREEN.g},${FINAL_GREEN.b})';
  });</script>`,
);

/**
 * The button changes the page twice, 10 ms apart: Chromium's recorder takes at most one frame per
 * period, so the second change would be missed unless the recorder makes sure of the final state.
 */
const TWICE_PAGE = html(
  'Twice page',
  `<button id="t" style="position:absolute;left:40px;top:120px;width:160px;height:60px">Twice</button>
  <script>document.getElementById('t').addEventListener('click', () => {
    document.body.style.background = 'rgb(0,0,255)';
    setTimeout(() => {
      document.body.style.background = 'rgb(${FINAL_GREEN.r},${FINAL_GREEN.g},${FINAL_GREEN.b})';
    }, 10);
  });</script>`,
);

interface Probe {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  duration: number;
}

async function probe(path: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,pix_fmt,width,height:format=duration',
    '-of',
    'json',
    path,
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: Array<{ codec_name: string; pix_fmt: string; width: number; height: number }>;
    format: { duration: string };
  };
  const stream = parsed.streams[0]!;
  return {
    codec: stream.codec_name,
    pixFmt: stream.pix_fmt,
    width: stream.width,
    height: stream.height,
    duration: Number(parsed.format.duration),
  };
}

/** Timestamps (s) of the keyframes, the places a player can seek to without decoding from earlier. */
async function keyframeTimes(path: string): Promise<number[]> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-skip_frame',
    'nokey',
    '-select_streams',
    'v:0',
    '-show_frames',
    '-show_entries',
    'frame=pts_time',
    '-of',
    'csv=p=0',
    path,
  ]);
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => Number(line.split(',')[0]));
}

/** The default video size for the 1280x720 viewport. */
const [W, H] = [800, 450];

/** The video's very last frame as RGB (decoded through H.264 and yuv420p): every frame of its last second, the last kept. */
async function lastFrameRgb(path: string): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-sseof', '-1', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 128 * 1024 * 1024 },
  );
  const rgb = stdout as unknown as Buffer;
  const frame = W * H * 3;
  expect(rgb.length % frame).toBe(0);
  return rgb.subarray(rgb.length - frame);
}

/** The last frame's colour at the bottom left, away from headings and buttons. */
async function lastFrameCorner(path: string): Promise<[number, number, number]> {
  const rgb = await lastFrameRgb(path);
  const at = (H - 25) * W * 3 + 25 * 3;
  return [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
}

function expectGreen([r, g, b]: [number, number, number]): void {
  // H.264 shifts the colour a little.
  expect(Math.abs(r - FINAL_GREEN.r)).toBeLessThan(25);
  expect(Math.abs(g - FINAL_GREEN.g)).toBeLessThan(25);
  expect(Math.abs(b - FINAL_GREEN.b)).toBeLessThan(25);
}

/** Pixels of the last frame close to the cursor's colour. */
async function cursorPixelsInLastFrame(path: string): Promise<number> {
  const rgb = await lastFrameRgb(path);
  let count = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    const r = rgb[i]!;
    const g = rgb[i + 1]!;
    const b = rgb[i + 2]!;
    if (Math.abs(r - CURSOR_COLOR.r) < 60 && g < 90 && Math.abs(b - CURSOR_COLOR.b) < 70) count += 1;
  }
  return count;
}

describe('defaultVideoSize', () => {
  it('scales the viewport down to fit 800x800 in even pixels, and never up', () => {
    expect(defaultVideoSize({ width: 1280, height: 720 })).toEqual({ width: 800, height: 450 });
    expect(defaultVideoSize({ width: 1920, height: 1080 })).toEqual({ width: 800, height: 450 });
    expect(defaultVideoSize({ width: 390, height: 844 })).toEqual({ width: 368, height: 800 });
    expect(defaultVideoSize({ width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
    expect(defaultVideoSize({ width: 333, height: 201 })).toEqual({ width: 332, height: 200 });
    expect(defaultVideoSize(null)).toEqual({ width: 800, height: 450 });
  });
});

describe('VideoRecorder (real Chromium and ffmpeg)', () => {
  let site: LocalSite;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    site = await serveLocalSite({ '/': BUTTON_PAGE, '/paint': PAINT_PAGE, '/twice': TWICE_PAGE });
    browser = await launchLocalBrowser();
    dir = await mkdtemp(join(tmpdir(), 'browser-agent-video-'));
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function record(name: string, query: string, highlightMouse: boolean, source?: VideoSource) {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, `${name}.mp4`);
      const result = await runInstructionTest({
        page,
        query: query.replaceAll('$SITE', site.url),
        log: new AgentLog(),
        highlightMouse,
        limits: { assertionTimeoutMs: 500 },
        video: { outputPath, fps: 10, ...(source ? { source } : {}) },
      });
      // The capture has ended; the encoder finishes the file on its own, off the run's path.
      const video = await result.video?.finished;
      await result.video?.released;
      return { result, video, outputPath };
    } finally {
      await context.close();
    }
  }

  it.each<[string, VideoSource | undefined]>([
    ['the browser’s own recorder (default)', undefined],
    ['the screencast (browsers without one)', 'screencast'],
  ])(
    'records a passing run as H.264/yuv420p mp4 with the drawn cursor where the click happened: %s',
    async (_name, source) => {
      const { result, video, outputPath } = await record(
        `passing-${source ?? 'default'}`,
        `open $SITE/\nwait 500 ms\nclick "Press me"\nthe page shows "Clicked"`,
        true,
        source,
      );
      expect(result.verdict).toBe('succeeded');
      expect(result.video).toMatchObject({ captured: true, path: outputPath, source: source ?? 'browser' });
      expect(video).toMatchObject({ ok: true, path: outputPath });
      const info = await probe(outputPath);
      // The 1280x720 viewport scaled down to fit 800x800, as Playwright records.
      expect(info).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: W, height: H });
      expect(info.duration).toBeGreaterThan(0.5);
      expect(await cursorPixelsInLastFrame(outputPath)).toBeGreaterThan(60);
    },
  );

  it('records a failing run too, and draws no cursor without highlightMouse', async () => {
    const { result, video, outputPath } = await record(
      'failing',
      `open $SITE/\nclick "Press me"\nthe page shows "Something else"`,
      false,
    );
    expect(result.verdict).toBe('failed');
    expect(video?.ok).toBe(true);
    const info = await probe(outputPath);
    expect(info).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p' });
    expect(info.duration).toBeGreaterThan(0.5);
    expect(await cursorPixelsInLastFrame(outputPath)).toBeLessThan(20);
  });

  it.each<[string, VideoSource | undefined]>([
    ['the browser’s own recorder (default)', undefined],
    ['the screencast', 'screencast'],
  ])('ends on the final state of the page, which the last step made: %s', async (_name, source) => {
    const { result, video, outputPath } = await record(
      `final-${source ?? 'default'}`,
      `open $SITE/paint\nclick "Paint it"`,
      false,
      source,
    );
    expect(result.verdict).toBe('succeeded');
    expect(video?.ok).toBe(true);
    expectGreen(await lastFrameCorner(outputPath));
  });

  it('ends on the final state even when it came right after the previous frame (within one frame period)', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        const outputPath = join(dir, `twice-${attempt}.mp4`);
        const recorder = new VideoRecorder({ outputPath });
        await recorder.start(page);
        await page.goto(`${site.url}/twice`);
        await page.click('#t');
        await page.waitForFunction("document.body.style.background.includes('170')");
        // Stopped at once: the green came 10 ms after the blue, which was captured.
        const video = await recorder.stop();
        expect(video).toMatchObject({ ok: true });
        expectGreen(await lastFrameCorner(outputPath));
      } finally {
        await context.close();
      }
    }
  });

  it('keeps recording across a navigation to another site (another renderer process)', async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, 'cross-site.mp4');
      const recorder = new VideoRecorder({ outputPath });
      await recorder.start(page);
      await page.goto(`${site.url}/`);
      // 127.0.0.1 and localhost are different sites: Chromium swaps the renderer process.
      await page.goto(`${site.url.replace('127.0.0.1', 'localhost')}/paint`);
      await page.click('#p');
      const video = await recorder.stop();
      expect(video).toMatchObject({ ok: true });
      expect((await probe(outputPath)).duration).toBeGreaterThan(0);
      expectGreen(await lastFrameCorner(outputPath));
    } finally {
      await context.close();
    }
  });

  it('records with the screencast where the browser has no recorder of its own', async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      // An older or hosted browser: Page.startScreenRecording does not exist there (it cannot be
      // run here, so this one browser session refuses it as such a browser does).
      const createSession = page.createCDPSession.bind(page);
      page.createCDPSession = async () => {
        const session = await createSession();
        const send = session.send.bind(session);
        session.send = ((method: string, ...rest: unknown[]) =>
          method === 'Page.startScreenRecording'
            ? Promise.reject(new Error(`Protocol error (${method}): '${method}' wasn't found`))
            : (send as (m: string, ...r: unknown[]) => Promise<unknown>)(
                method,
                ...rest,
              )) as typeof session.send;
        return session;
      };
      const outputPath = join(dir, 'fallback.mp4');
      const recorder = new VideoRecorder({ outputPath });
      await recorder.start(page);
      await page.goto(`${site.url}/paint`);
      await page.click('#p');
      const recorded = await recorder.stopCapture();
      expect(recorded).toMatchObject({ captured: true, source: 'screencast' });
      expect(await recorded.finished).toMatchObject({ ok: true });
      expect(await probe(outputPath)).toMatchObject({ codec: 'h264', width: W, height: H });
      expectGreen(await lastFrameCorner(outputPath));
    } finally {
      await context.close();
    }
  });

  it('writes a keyframe at least every second, so players can seek anywhere', async () => {
    const { video, outputPath } = await record(
      'seekable',
      `open $SITE/\nwait 2500 ms\nclick "Press me"`,
      true,
    );
    expect(video?.ok).toBe(true);
    const info = await probe(outputPath);
    expect(info.duration).toBeGreaterThan(2.5);
    const keys = await keyframeTimes(outputPath);
    expect(keys[0]).toBe(0);
    const gaps = keys.slice(1).map((t, i) => t - keys[i]!);
    expect(Math.max(...gaps, info.duration - keys.at(-1)!)).toBeLessThanOrEqual(1.0001);
  });

  it('with a worker’s encoder pool, the next recording gets an ffmpeg started ahead of need; each file lands whole at its path', async () => {
    // Where each ffmpeg the pool started writes: a job's own folder (started for that job) or the
    // spool (a spare, started ahead of need). Counted by place, not by time, so a busy machine that
    // starts the spare sooner or later than usual reads the same.
    const outputs: string[] = [];
    const pool = new EncoderPool((command, args) => {
      outputs.push(args.at(-1)!);
      return spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    });
    const jobs = join(dir, 'pool', 'jobs');
    const startedIn = (folder: string) =>
      outputs.filter((path) => path.startsWith(join(jobs, folder) + sep)).length;
    // Left by a worker killed mid-recording a day ago (swept), and another worker's recording now (kept).
    const spool = join(jobs, '.encoder-spool');
    await mkdir(spool, { recursive: true });
    await writeFile(join(spool, 'killed.mp4.partial'), 'x');
    const longAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(join(spool, 'killed.mp4.partial'), longAgo, longAgo);
    await writeFile(join(spool, 'other-worker.mp4.partial'), 'x');
    const recordOne = async (job: string, holdMs: number) => {
      await mkdir(join(jobs, job), { recursive: true });
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        const outputPath = join(jobs, job, 'video.mp4');
        // The pool serves the screencast's encoders (the browser's recorder needs none).
        const recorder = new VideoRecorder({ outputPath, encoders: pool, source: 'screencast' });
        await recorder.start(page);
        await page.goto(`${site.url}/`);
        await page.click('#b');
        await new Promise((resolve) => setTimeout(resolve, holdMs));
        const video = await recorder.stop();
        return { video, outputPath };
      } finally {
        await context.close();
      }
    };
    try {
      // The first starts its own encoder; a second later the pool starts a spare.
      const first = await recordOne('a', 1_500);
      expect(startedIn('a')).toBe(1);
      expect(startedIn('.encoder-spool')).toBe(1);
      // The second takes the spare: nothing new is started for it.
      const second = await recordOne('b', 0);
      expect(startedIn('b')).toBe(0);
      for (const { video, outputPath } of [first, second]) {
        expect(video).toMatchObject({ ok: true, path: outputPath });
        expect(await probe(outputPath)).toMatchObject({ codec: 'h264', width: W, height: H });
        expect(await readdir(dirname(outputPath))).toEqual(['video.mp4']);
      }
    } finally {
      pool.close();
    }
    // The spare's file was renamed into place; an unused spare never opened its output.
    expect(await readdir(spool)).toEqual(['other-worker.mp4.partial']);
  });

  it('with a worker’s encoder pool, the browser’s recording is converted by an ffmpeg started ahead of need', async () => {
    // Where each ffmpeg the pool started writes: a job's own folder (started for that job, when no
    // spare was there) or the spool (a spare, started ahead of need and moved into place when taken).
    const outputs: string[] = [];
    const pool = new EncoderPool((command, args) => {
      outputs.push(args.at(-1)!);
      return spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    });
    const jobs = join(dir, 'converters', 'jobs');
    const startedFor = (job: string) =>
      outputs.filter((path) => path.startsWith(join(jobs, job) + sep)).length;
    const recordOne = async (job: string) => {
      await mkdir(join(jobs, job), { recursive: true });
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        const outputPath = join(jobs, job, 'video.mp4');
        const recorder = new VideoRecorder({ outputPath, encoders: pool });
        await recorder.start(page);
        await page.goto(`${site.url}/paint`);
        await page.click('#p');
        const recorded = await recorder.stopCapture();
        const video = await recorded.finished;
        return { video, outputPath, source: recorded.source };
      } finally {
        await context.close();
      }
    };
    try {
      // Nothing runs beside the test; the first conversion starts its own ffmpeg.
      expect(outputs).toEqual([]);
      const first = await recordOne('a');
      expect(startedFor('a')).toBe(1);
      // Soon after, the pool has a converter waiting in the spool; the next recording takes it
      // and starts none of its own.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(startedFor('.encoder-spool')).toBe(1);
      const second = await recordOne('b');
      expect(startedFor('b')).toBe(0);
      for (const { video, outputPath, source } of [first, second]) {
        expect(source).toBe('browser');
        expect(video).toMatchObject({ ok: true, path: outputPath });
        expect(await probe(outputPath)).toMatchObject({
          codec: 'h264',
          pixFmt: 'yuv420p',
          width: W,
          height: H,
        });
        expectGreen(await lastFrameCorner(outputPath));
        expect(await readdir(dirname(outputPath))).toEqual(['video.mp4']);
      }
    } finally {
      pool.close();
    }
    // The converter's still and output left the spool with it.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(
      (await readdir(join(jobs, '.encoder-spool'))).filter((name) => !name.endsWith('.partial')),
    ).toEqual([]);
  });

  it('a pool of two keeps a second converter when videos end together, so neither of the next two starts its own', async () => {
    const sizes = async (size: number) => {
      let spawned = 0;
      const pool = new EncoderPool((command, args) => {
        spawned += 1;
        return spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
      }, size);
      const jobs = join(dir, `pool-of-${size}`, 'jobs');
      await mkdir(jobs, { recursive: true });
      const options = (job: string) => ({
        outputPath: join(jobs, job, 'video.mp4'),
        width: W,
        height: H,
        fps: 12,
        input: 'recording' as const,
      });
      const taken: { kill(): void }[] = [];
      try {
        // Two videos end at once: no spare yet, each starts its own converter.
        taken.push(pool.take(options('a')), pool.take(options('b')));
        expect(spawned).toBe(2);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const ready = spawned - 2;
        // The next two end together too: the spares that are there are taken.
        taken.push(pool.take(options('c')), pool.take(options('d')));
        return { ready, startedForTheNextTwo: spawned - 2 - ready };
      } finally {
        for (const encoder of taken) encoder.kill();
        pool.close();
      }
    };
    expect(await sizes(2)).toEqual({ ready: 2, startedForTheNextTwo: 0 });
    expect(await sizes(1)).toEqual({ ready: 1, startedForTheNextTwo: 1 });
  });

  it('puts nothing at the output path until the file is complete, and a whole mp4 once it is', async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, 'atomic.mp4');
      const recorder = new VideoRecorder({ outputPath });
      await recorder.start(page);
      await page.goto(`${site.url}/`);
      await page.click('#b');
      const recorded = await recorder.stopCapture();
      expect(recorded.captured).toBe(true);
      // The capture is over; the page may go once the recorder lets go of it, and the file is
      // still being finished elsewhere.
      expect(existsSync(outputPath)).toBe(false);
      await recorded.released;
      await context.close();
      const video = await recorded.finished;
      expect(video).toMatchObject({ ok: true, path: outputPath });
      const info = await probe(outputPath);
      expect(info).toMatchObject({ codec: 'h264', width: W, height: H });
      expect(info.duration).toBeGreaterThan(0);
      // Nothing is left behind beside it.
      expect((await readdir(dir)).filter((name) => name.includes('atomic'))).toEqual(['atomic.mp4']);
    } finally {
      await context.close().catch(() => undefined);
    }
  });

  it('records a run of a single step', async () => {
    const { video, outputPath } = await record('single', `open $SITE/`, false);
    expect(video?.ok).toBe(true);
    const info = await probe(outputPath);
    expect(info.duration).toBeGreaterThan(0);
  });

  it('reports a missing ffmpeg instead of crashing', async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const recorder = new VideoRecorder({
        outputPath: join(dir, 'missing.mp4'),
        ffmpegPath: '/nonexistent/ffmpeg',
      });
      await recorder.start(page);
      await page.goto(`${site.url}/`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const video = await recorder.stop();
      expect(video.ok).toBe(false);
      expect(video.error).toMatch(/could not run \/nonexistent\/ffmpeg: spawn \/nonexistent\/ffmpeg ENOENT/);
    } finally {
      await context.close();
    }
  });

  it('survives an encoder that exits early (EPIPE on stdin) and says so', async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, 'epipe.mp4');
      const recorder = new VideoRecorder({ outputPath, ffmpegPath: '/bin/false' });
      await recorder.start(page);
      await page.goto(`${site.url}/`);
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400)));
      const video = await recorder.stop();
      expect(video.ok).toBe(false);
      expect(video.error).toMatch(/ffmpeg (?:stopped reading frames|exited with code 1)/);
      await expect(stat(outputPath)).rejects.toThrow();
    } finally {
      await context.close();
    }
  });
});
