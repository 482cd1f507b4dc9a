import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { launchLocalBrowser } from './browser-launcher.js';
import { descendants, linuxProc } from './compositor-priority.js';

/** Renderer processes of the browser right now, as pid:cmdline length (a pid can be reused). */
function renderers(browser: Browser): string[] {
  return descendants(browser.process()!.pid!)
    .map((pid) => ({ pid, cmdline: linuxProc.cmdline(pid) }))
    .filter(({ cmdline }) => cmdline.includes('--type=renderer'))
    .map(({ pid, cmdline }) => `${pid}:${cmdline.length}`);
}

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('launchLocalBrowser', () => {
  let site: LocalSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await serveLocalSite({
      '/': html('Home', '<h1>Home</h1><a href="/next">next</a>'),
      '/next': html('Next', '<h1>Next</h1>'),
    });
    browser = await launchLocalBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('starts one renderer process per job context, with no spare renderer beside it that is thrown away unused', async () => {
    // Warm: the first context of a browser may start helpers of its own.
    const warm = await browser.createBrowserContext();
    await (await warm.newPage()).goto(`${site.url}/`);
    await warm.close();

    const seen = new Set<string>();
    const before = new Set(renderers(browser));
    const watch = setInterval(() => {
      for (const r of renderers(browser)) if (!before.has(r)) seen.add(r);
    }, 5);
    try {
      for (let i = 0; i < 3; i++) {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.goto(`${site.url}/`);
        await Promise.all([page.waitForNavigation(), page.click('a')]);
        expect(await page.title()).toBe('Next');
        // Let a spare, were one started, show up before the context goes.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await context.close();
      }
    } finally {
      clearInterval(watch);
    }
    expect(seen.size).toBe(3);
  });
});
