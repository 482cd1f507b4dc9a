import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { launchLocalBrowser } from '../src/browser-launcher.js';

export interface BrowserTab {
  readonly browser: Browser;
  /** A fresh context per test, closed after it. */
  readonly context: BrowserContext;
  /** The context's first page. */
  readonly page: Page;
}

/** For a spec: one local Chromium for all its tests, and a fresh context and page for each test. */
export function useBrowserTab(): BrowserTab {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the browser tab is only there inside a test');
    return value;
  };
  beforeAll(async () => {
    browser = await launchLocalBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await started(browser).createBrowserContext();
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });
  return {
    get browser() {
      return started(browser);
    },
    get context() {
      return started(context);
    },
    get page() {
      return started(page);
    },
  };
}
