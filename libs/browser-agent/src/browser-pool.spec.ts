import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { connectHostedBrowser, launchLocalBrowser } from './browser-launcher.js';
import { BrowserPool } from './browser-pool.js';

describe('BrowserPool', () => {
  let site: LocalSite;
  let pool: BrowserPool;
  let launches = 0;

  beforeAll(async () => {
    site = await serveLocalSite({ '/': html('Home', '<h1>Home</h1>') });
    pool = new BrowserPool({
      open: () => {
        launches += 1;
        return launchLocalBrowser();
      },
    });
  });

  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });

  it('keeps one warm browser and gives each job an isolated context', async () => {
    const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
    expect(launches).toBe(1);
    expect(a.browser).toBe(b.browser);
    expect(pool.activeSessions).toBe(2);
    await a.page.goto(`${site.url}/`);
    await b.page.goto(`${site.url}/`);
    await a.page.evaluate(() => {
      (
        globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
      ).localStorage.setItem('who', 'a');
    });
    const seenByB = await b.page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
        'who',
      ),
    );
    expect(seenByB).toBeNull();
    await Promise.all([a.close(), b.close(), a.close()]);
    expect(pool.activeSessions).toBe(0);
    expect(a.browser.browserContexts()).toHaveLength(1);
  });

  it('starts a new browser when the old one crashed', async () => {
    const first = await pool.acquire();
    const crashed: Browser = first.browser;
    crashed.process()?.kill('SIGKILL');
    await new Promise<void>((resolve) =>
      crashed.connected ? crashed.once('disconnected', () => resolve()) : resolve(),
    );
    await first.close();

    const second = await pool.acquire();
    expect(second.browser).not.toBe(crashed);
    expect(second.browser.connected).toBe(true);
    expect(launches).toBe(2);
    await second.page.goto(`${site.url}/`);
    expect(await second.page.title()).toBe('Home');
    await second.close();
  });

  it('with a spare, hands the next job a fresh session made while the pool was idle', async () => {
    const spared = new BrowserPool({ open: () => launchLocalBrowser(), spare: true });
    try {
      const first = await spared.acquire();
      await first.page.goto(`${site.url}/`);
      await first.page.evaluate(() => {
        (
          globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
        ).localStorage.setItem('who', 'first');
      });
      const made: { url: string; at: number }[] = [];
      first.browser.on('targetcreated', (target: { url(): string }) =>
        made.push({ url: target.url(), at: Date.now() }),
      );
      await first.close();
      // The spare is made after the job, in the background.
      const deadline = Date.now() + 10_000;
      while (made.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      const asked = Date.now();
      const second = await spared.acquire();
      expect(made.some((m) => m.at < asked)).toBe(true);
      expect(made.filter((m) => m.at >= asked)).toHaveLength(0);
      expect(spared.activeSessions).toBe(1);
      expect(second.context).not.toBe(first.context);
      await second.page.goto(`${site.url}/`);
      const seen = await second.page.evaluate(() =>
        (
          globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
        ).localStorage.getItem('who'),
      );
      expect(seen).toBeNull();
      await second.close();
      expect(spared.activeSessions).toBe(0);
    } finally {
      await spared.close();
    }
  });

  it('replaces a spare whose browser crashed meanwhile', async () => {
    const spared = new BrowserPool({ open: () => launchLocalBrowser(), spare: true });
    try {
      const first = await spared.acquire();
      await first.close();
      await new Promise((r) => setTimeout(r, 500));
      const crashed = first.browser;
      crashed.process()?.kill('SIGKILL');
      await new Promise<void>((resolve) =>
        crashed.connected ? crashed.once('disconnected', () => resolve()) : resolve(),
      );
      const second = await spared.acquire();
      expect(second.browser).not.toBe(crashed);
      await second.page.goto(`${site.url}/`);
      expect(await second.page.title()).toBe('Home');
      await second.close();
    } finally {
      await spared.close();
    }
  });

  it('connects to a browser over its CDP websocket, as for a hosted browser', async () => {
    const remote = await launchLocalBrowser();
    try {
      const connected = await connectHostedBrowser(remote.wsEndpoint());
      const hosted = new BrowserPool({ open: async () => connected, release: async (b) => b.disconnect() });
      const session = await hosted.acquire();
      await session.page.goto(`${site.url}/`);
      expect(await session.page.title()).toBe('Home');
      await hosted.close();
      expect(remote.connected).toBe(true);
    } finally {
      await remote.close();
    }
  });

  it('names the endpoint but not its secrets when a hosted browser is unreachable', async () => {
    await expect(connectHostedBrowser('ws://127.0.0.1:9/devtools?token=s3cret')).rejects.toThrow(
      /^could not connect to the hosted browser at ws:\/\/127\.0\.0\.1:9: /,
    );
    await expect(connectHostedBrowser('ws://127.0.0.1:9/devtools?token=s3cret')).rejects.not.toThrow(
      /s3cret/,
    );
  });
});
