import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { launchLocalBrowser } from './browser-launcher.js';
import { runInstructionTest } from './instruction-test-runner.js';

/** Debian's Firefox ESR (setup installs it): the video must play and seek there too. */
const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

const GREEN = { r: 0, g: 170, b: 70 } as const;
const PAINT_PAGE = html(
  'Paint page',
  `<h1>Playback</h1>
  <button id="p" style="position:absolute;left:40px;top:120px;width:160px;height:60px">Paint it</button>
  <script>document.getElementById('p').addEventListener('click', () => {
    document.body.style.background = 'rgb(${GREEN.r},${GREEN.g},${GREEN.b})';
  });</script>`,
);

interface Playback {
  duration: number;
  width: number;
  height: number;
  /** Where playback was once it moved past 0.25 s (or after 10 s of trying). */
  playedTo: number;
  /** Each seek target and where the element landed. */
  seeks: { to: number; at: number }[];
  /** The pixel near the bottom left after seeking to the end: the page's final colour. */
  lastPixel: number[];
}

/**
 * In the browser's first tab (the one in front: a background tab's video may be suspended):
 * load the mp4 (as a blob), play it, seek in it, read its last frame.
 */
async function play(browser: Browser, mp4: Buffer): Promise<Playback> {
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.bringToFront();
  return (await page.evaluate(
    `(async (b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const video = document.createElement('video');
        video.muted = true;
        document.body.append(video);
        const event = (name) => new Promise((resolve, reject) => {
          video.addEventListener(name, resolve, { once: true });
          video.addEventListener('error', () => reject(new Error('media error ' + video.error?.code + ': ' + video.error?.message)), { once: true });
        });
        const loaded = event('loadeddata');
        video.src = URL.createObjectURL(new Blob([bytes], { type: 'video/mp4' }));
        await loaded;
        await video.play();
        // Playing: time moves on (a slow machine may take a moment to start).
        await new Promise((resolve) => {
          const started = Date.now();
          const check = () => (video.currentTime > 0.25 || Date.now() - started > 10000 ? resolve() : setTimeout(check, 50));
          check();
        });
        video.pause();
        const playedTo = video.currentTime;
        const seeks = [];
        for (const to of [video.duration * 0.5, 0.3, video.duration - 0.05]) {
          const seeked = event('seeked');
          // The frame read below is the one presented: 'seeked' can come before it is (Chromium on
          // a busy machine), so wait for it where the browser says (at most 2 s).
          const presented = video.requestVideoFrameCallback
            ? new Promise((resolve) => { video.requestVideoFrameCallback(resolve); setTimeout(resolve, 2000); })
            : Promise.resolve();
          video.currentTime = to;
          await seeked;
          await presented;
          seeks.push({ to, at: video.currentTime });
        }
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const context = canvas.getContext('2d');
        context.drawImage(video, 0, 0);
        const lastPixel = [...context.getImageData(20, canvas.height - 20, 1, 1).data].slice(0, 3);
        return { duration: video.duration, width: video.videoWidth, height: video.videoHeight, playedTo, seeks, lastPixel };
      })(${JSON.stringify(mp4.toString('base64'))})`,
  )) as Playback;
}

describe('a recorded video plays and seeks in Chromium and in Firefox', () => {
  let site: LocalSite;
  let chromium: Browser;
  let dir: string;
  let mp4: Buffer;

  beforeAll(async () => {
    site = await serveLocalSite({ '/': PAINT_PAGE });
    chromium = await launchLocalBrowser();
    dir = await mkdtemp(join(tmpdir(), 'browser-agent-playback-'));
    const context = await chromium.createBrowserContext();
    try {
      const outputPath = join(dir, 'run.mp4');
      const result = await runInstructionTest({
        page: await context.newPage(),
        query: `open ${site.url}/\nwait 1500 ms\nclick "Paint it"`,
        log: new AgentLog(),
        highlightMouse: true,
        video: { outputPath },
      });
      expect(result.verdict).toBe('succeeded');
      expect((await result.video?.finished)?.ok).toBe(true);
      mp4 = await readFile(outputPath);
    } finally {
      await context.close();
    }
  });

  afterAll(async () => {
    await chromium?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const check = (playback: Playback, { clock }: { clock: boolean }) => {
    expect(playback).toMatchObject({ width: 800, height: 450 });
    expect(playback.duration).toBeGreaterThan(1.5);
    if (clock) expect(playback.playedTo).toBeGreaterThan(0.2);
    // A keyframe every second: each seek lands within a second of where it was asked to.
    for (const seek of playback.seeks) expect(Math.abs(seek.at - seek.to)).toBeLessThan(1);
    const [r, g, b] = playback.lastPixel as [number, number, number];
    expect(Math.abs(r - GREEN.r)).toBeLessThan(30);
    expect(Math.abs(g - GREEN.g)).toBeLessThan(30);
    expect(Math.abs(b - GREEN.b)).toBeLessThan(30);
  };

  it('in Chromium', async () => {
    check(await play(chromium, mp4), { clock: true });
  });

  it('in Firefox', async () => {
    expect(existsSync(FIREFOX)).toBe(true);
    const firefox = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      // Headless Firefox needs no display; its own temporary profile is removed on close.
      env: { ...process.env, MOZ_HEADLESS: '1' },
      // A headless page can count as a background tab, whose video Firefox suspends.
      extraPrefsFirefox: {
        'media.suspend-background-video.enabled': false,
        'media.suspend-bkgnd-video.enabled': false,
        'media.block-autoplay-until-in-foreground': false,
        'media.autoplay.default': 0,
      },
    });
    try {
      // Headless Firefox on a busy machine was seen to stall its play clock at 'waiting' for 10 s
      // (readyState 2) with the same file decoding at every seek point; what the file must give
      // it, decoded frames where a viewer seeks and the last state, is checked, its clock is not.
      check(await play(firefox, mp4), { clock: false });
    } finally {
      await firefox.close();
    }
  }, 90_000);
});
