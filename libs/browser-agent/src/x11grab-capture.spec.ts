import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { displayOf, launchLocalBrowser } from './browser-launcher.js';
import { CURSOR_COLOR } from './cursor-overlay.js';
import { runInstructionTest } from './instruction-test-runner.js';
import { findXvfb, VirtualDisplay } from './virtual-display.js';

const run = promisify(execFile);

/** The last step turns the whole page green: the video must end on it. */
const GREEN = { r: 0, g: 170, b: 70 } as const;
const PAINT_PAGE = html(
  'Paint page',
  `<h1>Final state</h1>
  <button id="p" style="position:absolute;left:540px;top:300px;width:200px;height:80px">Paint it</button>
  <script>document.getElementById('p').addEventListener('click', () => {
    document.body.style.background = 'rgb(${GREEN.r},${GREEN.g},${GREEN.b})';
  });</script>`,
);

/** The default video size of the 1280x720 viewport. */
const [W, H] = [800, 450];

/** Every frame of the video as RGB (decoded through H.264 and yuv420p). */
async function framesRgb(path: string): Promise<Buffer[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const rgb = stdout as unknown as Buffer;
  const size = W * H * 3;
  expect(rgb.length % size).toBe(0);
  return Array.from({ length: rgb.length / size }, (_, i) => rgb.subarray(i * size, (i + 1) * size));
}

/** The colour at (x, y) of a frame. */
function pixel(frame: Buffer, x: number, y: number): [number, number, number] {
  const at = (y * W + x) * 3;
  return [frame[at]!, frame[at + 1]!, frame[at + 2]!];
}

const near = (a: readonly number[], b: readonly number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 25);

/** Pixels close to the drawn cursor's colour. */
function cursorPixels(frame: Buffer): number {
  let count = 0;
  for (let i = 0; i + 2 < frame.length; i += 3) {
    const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
    if (Math.abs(r - CURSOR_COLOR.r) < 60 && g < 90 && Math.abs(b - CURSOR_COLOR.b) < 70) count += 1;
  }
  return count;
}

/** Distinct values of a frame's pixels, sampled: a blank frame has one or two. */
function distinctColours(frame: Buffer): number {
  const seen = new Set<number>();
  for (let i = 0; i + 2 < frame.length; i += 3 * 97)
    seen.add((frame[i]! << 16) | (frame[i + 1]! << 8) | frame[i + 2]!);
  return seen.size;
}

describe('x11grab capture: headful Chromium on a virtual display, grabbed by ffmpeg (real Xvfb, ffmpeg and Chromium)', () => {
  let site: LocalSite;
  let display: VirtualDisplay;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    // setup installs Xvfb (make setup); without it this capture is never chosen (see the fallback below).
    expect(findXvfb()).toBeDefined();
    site = await serveLocalSite({ '/paint': PAINT_PAGE });
    display = await VirtualDisplay.start({ width: 1280, height: 720 });
    browser = await launchLocalBrowser({ display });
    dir = await mkdtemp(join(tmpdir(), 'browser-agent-x11grab-'));
  });

  afterAll(async () => {
    await browser?.close();
    await display?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function record(name: string, highlightMouse: boolean) {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, `${name}.mp4`);
      const result = await runInstructionTest({
        page,
        query: `open ${site.url}/paint\nclick "Paint it"`,
        log: new AgentLog(),
        highlightMouse,
        video: { outputPath, source: 'x11grab' },
      });
      const video = await result.video?.finished;
      await result.video?.released;
      return { result, video, outputPath };
    } finally {
      await context.close();
    }
  }

  it('runs the browser on its own X display, headful', () => {
    expect(displayOf(browser)?.name).toMatch(/^:\d+$/);
    expect(displayOf(browser)?.alive).toBe(true);
  });

  // Known issue (bench/results/capture-paths.md): on a saturated machine (load 20-40 on 2 cores)
  // the grab ended before the browser had drawn the final state, and showed Chromium's automation
  // info bar and fullscreen bubble; this is why x11grab is opt-in. Run it where it is to be enabled.
  (process.env['X11GRAB_FINAL_STATE'] === 'check' ? it : it.skip)(
    'records each step and ends on the final state, with the drawn cursor where the click happened',
    async () => {
      const { result, video, outputPath } = await record('paint-cursor', true);
      expect(result.verdict).toBe('succeeded');
      expect(result.video).toMatchObject({ captured: true, source: 'x11grab', path: outputPath });
      expect(video).toMatchObject({ ok: true, path: outputPath });
      const frames = await framesRgb(outputPath);
      expect(frames.length).toBeGreaterThan(3);
      const last = frames.at(-1)!;
      // Not blank: the page's heading, the button and the cursor are in it, on the final green.
      expect(distinctColours(last)).toBeGreaterThan(3);
      expect(near(pixel(last, 25, H - 25), [GREEN.r, GREEN.g, GREEN.b])).toBe(true);
      expect(cursorPixels(last)).toBeGreaterThan(60);
      // The step before the click is in it too: the page opened, not yet green.
      expect(frames.some((frame) => near(pixel(frame, 25, H - 25), [255, 255, 255]))).toBe(true);
    },
  );

  // Known issue (bench/results/capture-paths.md): on a saturated machine (load 20-40 on 2 cores)
  // the grab ended before the browser had drawn the final state, and showed Chromium's automation
  // info bar and fullscreen bubble; this is why x11grab is opt-in. Run it where it is to be enabled.
  (process.env['X11GRAB_FINAL_STATE'] === 'check' ? it : it.skip)(
    'records the next job on the same display too (a grabber started ahead of need), without a cursor when not asked',
    async () => {
      await record('warm-up', false);
      const { video, outputPath } = await record('paint-plain', false);
      expect(video?.ok).toBe(true);
      const last = (await framesRgb(outputPath)).at(-1)!;
      expect(near(pixel(last, 25, H - 25), [GREEN.r, GREEN.g, GREEN.b])).toBe(true);
      expect(cursorPixels(last)).toBeLessThan(20);
    },
  );
});

describe('x11grab capture asked for where the browser has no virtual display', () => {
  let site: LocalSite;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    site = await serveLocalSite({ '/paint': PAINT_PAGE });
    browser = await launchLocalBrowser();
    dir = await mkdtemp(join(tmpdir(), 'browser-agent-x11grab-fallback-'));
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records in the browser instead (a headless or hosted browser), ending on the final state', async () => {
    expect(displayOf(browser)).toBeUndefined();
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const outputPath = join(dir, 'fallback.mp4');
      const result = await runInstructionTest({
        page,
        query: `open ${site.url}/paint\nclick "Paint it"`,
        log: new AgentLog(),
        video: { outputPath, source: 'x11grab' },
      });
      expect(result.video?.source).toBe('browser');
      expect(await result.video?.finished).toMatchObject({ ok: true });
      await result.video?.released;
      const last = (await framesRgb(outputPath)).at(-1)!;
      expect(near(pixel(last, 25, H - 25), [GREEN.r, GREEN.g, GREEN.b])).toBe(true);
    } finally {
      await context.close();
    }
  });
});
