import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { type BrowserNetworkOptions, type NetworkGuard, openGuardedContext } from './network-guard.js';

export interface BrowserPoolOptions {
  /** Opens a browser, e.g. `() => launchLocalBrowser()` or `() => connectHostedBrowser(url)`. */
  open: () => Promise<Browser>;
  /** Lets go of a browser when the pool closes; defaults to `browser.close()`. */
  release?: (browser: Browser) => Promise<void>;
  /** Longest wait for a context to close before it is abandoned. Default 10 s. */
  closeTimeoutMs?: number;
  /**
   * Keep one fresh session (context and page) ready, made while the worker is idle after a job,
   * so the next job starts without waiting for them. Default false.
   */
  spare?: boolean;
  /**
   * The network policy of every context: its own filtering proxy (or request interception for a
   * hosted browser), downloads refused unless allowed, refused schemes blanked. Unset: none.
   */
  network?: BrowserNetworkOptions;
}

const restartListeners = new Set<() => void>();

/**
 * One isolated job's view of the browser: its own context (cookies, storage, cache) and page.
 * `close()` never throws and never hangs, because it runs in `finally` blocks after failures.
 */
export class BrowserSession {
  private closing: Promise<void> | undefined;

  constructor(
    readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly closeTimeoutMs: number,
    private readonly onClosed: (session: BrowserSession) => void,
    /** The context's network guard: what was blocked, and what cannot be enforced. */
    readonly network?: NetworkGuard,
  ) {}

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.browser.connected) {
        await withTimeout(this.context.close(), this.closeTimeoutMs).catch(() => undefined);
      }
      await this.network?.close();
      this.onClosed(this);
    })();
    return this.closing;
  }
}

/**
 * Keeps one warm browser per worker and hands out isolated sessions. A browser that crashed or
 * disconnected is replaced on the next `acquire()`.
 */
export class BrowserPool {
  private browser: Browser | undefined;
  private opening: Promise<Browser> | undefined;
  private readonly sessions = new Set<BrowserSession>();
  private closed = false;
  private everOpened = false;
  /** The ready session (`spare`), or the promise of it while it is being made. */
  private spare: Promise<BrowserSession | undefined> | undefined;
  private readonly closeTimeoutMs: number;

  /**
   * Calls `listener` whenever any pool opens a browser again because its previous one crashed or
   * disconnected (the worker counts these in a metric). Returns the unsubscribe function.
   */
  static onRestart(listener: () => void): () => void {
    restartListeners.add(listener);
    return () => restartListeners.delete(listener);
  }

  constructor(private readonly options: BrowserPoolOptions) {
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  }

  get activeSessions(): number {
    return this.sessions.size;
  }

  async acquire(): Promise<BrowserSession> {
    if (this.closed) throw new Error('the browser pool is closed');
    const ready = await this.takeSpare();
    if (ready) return ready;
    try {
      return await this.newSession(await this.warmBrowser());
    } catch (error) {
      // The browser may have died between the check and the call; one fresh start is worth a try.
      if (this.browser?.connected) throw error;
      this.browser = undefined;
      return this.newSession(await this.warmBrowser());
    }
  }

  /** Closes every session, then the browser. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = await this.spare;
    this.spare = undefined;
    await Promise.all([...this.sessions, ...(spare ? [spare] : [])].map((session) => session.close()));
    const browser = this.browser ?? (await this.opening?.catch(() => undefined));
    this.browser = undefined;
    if (browser?.connected) {
      const release = this.options.release ?? ((b: Browser) => b.close());
      await withTimeout(release(browser), this.closeTimeoutMs).catch(() => {
        browser.process()?.kill('SIGKILL');
      });
    }
  }

  private async warmBrowser(): Promise<Browser> {
    if (this.browser?.connected) return this.browser;
    this.browser = undefined;
    this.opening ??= this.options
      .open()
      .then((browser) => {
        browser.once('disconnected', () => {
          if (this.browser === browser) this.browser = undefined;
        });
        this.browser = browser;
        if (this.everOpened) for (const listener of restartListeners) listener();
        this.everOpened = true;
        return browser;
      })
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }

  /** The spare session when it is still usable (its browser alive, its page open), now in use. */
  private async takeSpare(): Promise<BrowserSession | undefined> {
    const pending = this.spare;
    this.spare = undefined;
    const session = await pending;
    if (!session) return undefined;
    if (!session.browser.connected || session.page.isClosed()) {
      await session.close();
      return undefined;
    }
    this.sessions.add(session);
    return session;
  }

  /** Makes the next spare session in the background (after a job, while the worker is idle). */
  private prepareSpare(): void {
    if (!this.options.spare || this.closed || this.spare) return;
    this.spare = this.warmBrowser()
      .then((browser) => this.newSession(browser, false))
      .catch(() => undefined);
  }

  private async newSession(browser: Browser, inUse = true): Promise<BrowserSession> {
    const { context, guard } = await openGuardedContext(browser, this.options.network);
    try {
      const page = await context.newPage();
      await guard?.attach(context, page);
      const session = new BrowserSession(
        browser,
        context,
        page,
        this.closeTimeoutMs,
        (s) => {
          if (this.sessions.delete(s)) this.prepareSpare();
        },
        guard,
      );
      if (inUse) this.sessions.add(session);
      return session;
    } catch (error) {
      await context.close().catch(() => undefined);
      await guard?.close();
      throw error;
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
