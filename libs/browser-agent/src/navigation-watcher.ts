import type { HTTPRequest, Page } from 'puppeteer-core';
import { LimitExceededError } from './run-limits.js';

/**
 * Notices a main-frame navigation started by an action (a click on a link, Enter in a form) so the
 * next step does not run against the page that is being replaced.
 */
export class NavigationWatcher {
  private started = false;
  private settled = false;
  private url = '';
  private wake: (() => void) | undefined;
  /** Ends the grace period early: a navigation started. */
  private onStart: (() => void) | undefined;

  private readonly onRequest = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === this.page.mainFrame()) {
      this.started = true;
      this.settled = false;
      this.url = request.url();
      this.onStart?.();
    }
  };
  private readonly onDone = () => {
    if (!this.started) return;
    this.settled = true;
    this.wake?.();
  };
  private readonly onFailed = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === this.page.mainFrame()) this.onDone();
  };

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('domcontentloaded', this.onDone);
    page.on('requestfailed', this.onFailed);
  }

  /**
   * Gives the page up to `graceMs` to start navigating (no longer than it takes to start); if it
   * did, waits for the new document's DOMContentLoaded, up to the navigation timeout.
   */
  async settle(graceMs: number, navigationTimeoutMs: number): Promise<string | undefined> {
    try {
      if (!this.started) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          this.onStart = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.onStart = undefined;
      }
      if (!this.started || this.settled) return this.started ? this.url : undefined;
      let timer: NodeJS.Timeout | undefined;
      const done = new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), navigationTimeoutMs);
      });
      const outcome = await Promise.race([done, timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        throw new LimitExceededError(
          'navigation timeout',
          navigationTimeoutMs,
          `the page did not finish loading ${this.url}`,
        );
      }
      return this.url;
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('domcontentloaded', this.onDone);
    this.page.off('requestfailed', this.onFailed);
  }
}
