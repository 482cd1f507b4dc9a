import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { launchLocalBrowser } from './browser-launcher.js';
import { CURSOR_COLOR } from './cursor-overlay.js';
import { runInstructionTest } from './instruction-test-runner.js';
import { VideoRecorder } from './video-recorder.js';

const run = promisify(execFile);

const BUTTON_PAGE = html(
  'Video page',
  `<h1>Recording</h1>
  <button id="b" style="position:absolute;left:540px;top:300px;width:200px;height:80px;font-size:20px;background:#eee;border:1px solid #888">Press me</button>
  <p id="out"></p>
  <script>document.getElementById('b').addEventListener('click', () => { document.getElementById('out').textContent = 'Clicked'; });</script>`,
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

/** Pixels of the last frame close to the cursor's colour (decoded through H.264 and yuv420p). */
async function cursorPixelsInLastFrame(path: string): Promise<number> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-sseof',
      '-0.3',
      '-i',
      path,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  const rgb = stdout as unknown as Buffer;
  let count = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    const r = rgb[i]!;
    const g = rgb[i + 1]!;
    const b = rgb[i + 2]!;
    if (Math.abs(r - CURSOR_COLOR.r) < 60 && g < 90 && Math.abs(b - CURSOR_COLOR.b) < 70) count += 1;
  }
  return count;
}

describe('VideoRecorder (real Chromium and ffmpeg)', () => {
  let site: LocalSite;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    site = await serveLocalSite({ '/': BUTTON_PAGE });
    browser = await launchLocalBrowser();
    dir = await mkdtemp(join(tmpdir(), 'browser-agent-video-'));
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function record(name: string, query: string, highlightMouse: boolean) {
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
        video: { outputPath, fps: 10 },
      });
      return { result, outputPath };
    } finally {
      await context.close();
    }
  }

  it('records a passing run as H.264/yuv420p mp4 with the drawn cursor where the click happened', async () => {
    const { result, outputPath } = await record(
      'passing',
      `open $SITE/\nwait 500 ms\nclick "Press me"\nthe page shows "Clicked"`,
      true,
    );
    expect(result.verdict).toBe('succeeded');
    expect(result.video).toMatchObject({ ok: true, path: outputPath });
    const info = await probe(outputPath);
    expect(info).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 1280, height: 720 });
    expect(info.duration).toBeGreaterThan(0.5);
    expect(await cursorPixelsInLastFrame(outputPath)).toBeGreaterThan(150);
  });

  it('records a failing run too, and draws no cursor without highlightMouse', async () => {
    const { result, outputPath } = await record(
      'failing',
      `open $SITE/\nclick "Press me"\nthe page shows "Something else"`,
      false,
    );
    expect(result.verdict).toBe('failed');
    expect(result.video?.ok).toBe(true);
    const info = await probe(outputPath);
    expect(info).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p' });
    expect(info.duration).toBeGreaterThan(0.5);
    expect(await cursorPixelsInLastFrame(outputPath)).toBeLessThan(20);
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
