import {
  createHostResolver,
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  navigationSchemeProblem,
  normalizeHost,
  resolveChecked,
} from '@suite/egress-policy';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Frame,
  HTTPRequest,
  Page,
  Target,
} from 'puppeteer-core';
import { EgressProxy } from './egress-proxy.js';

export interface BrowserNetworkOptions {
  policy: EgressPolicy;
  /** How the proxy resolves host names; default: the system resolver. */
  resolve?: HostResolver;
  /** Downloads are refused unless this is true (then they go to a throw-away folder per context). */
  allowDownloads?: boolean;
  /**
   * The browser runs elsewhere (a hosted provider) and cannot use a proxy on this machine: the
   * policy is applied through request interception instead, as far as that reaches.
   */
  hosted?: boolean;
}

/** One request or navigation the policy refused, attributed to the context (the job) that made it. */
export interface BlockedConnection {
  /** The URL, or `host:port` for a tunnel (https, wss). */
  target: string;
  host: string;
  port: number;
  /** Names the rule and the setting to change. */
  message: string;
  rule: string;
  at: number;
}

const guards = new WeakMap<Page, NetworkGuard>();
const MAX_KEPT_BLOCKS = 200;

/** The network guard of the context `page` belongs to, if it has one. */
export function networkGuardOf(page: Page): NetworkGuard | undefined {
  return guards.get(page);
}

/** What hosted browsers cannot have enforced, said in every such job's log. */
export const HOSTED_LIMITS =
  'hosted_browser: the network policy is applied to each request the page makes by intercepting it (schemes, IP literals, and host names as this worker resolves them); it cannot be applied on the address the hosted browser actually connects to (DNS rebinding and the provider network are outside this worker), nor to WebSockets, service-worker requests or WebRTC, which are not intercepted';

/**
 * The network side of one browser context: its filtering proxy (local browsers), its download
 * setting, the scheme guard on frames and popups, and the list of what was blocked.
 */
export class NetworkGuard {
  /** The latest blocks (at most MAX_KEPT_BLOCKS); `blockedCount` counts them all. */
  readonly blocked: BlockedConnection[] = [];
  blockedCount = 0;
  firstBlocked: BlockedConnection | undefined;
  /** What this context cannot have enforced (hosted browsers), for the job log. */
  readonly limits: string[] = [];
  private readonly listeners = new Set<(blocked: BlockedConnection) => void>();
  private proxy: EgressProxy | undefined;
  private downloads: string | undefined;
  private readonly resolve: HostResolver;

  private constructor(private readonly options: BrowserNetworkOptions) {
    this.resolve = options.resolve ?? createHostResolver();
  }

  /** Starts the context's proxy (local browsers) and returns the context options that use it. */
  static async prepare(
    options: BrowserNetworkOptions,
  ): Promise<{ guard: NetworkGuard; contextOptions: BrowserContextOptions }> {
    const guard = new NetworkGuard(options);
    const contextOptions: BrowserContextOptions = {};
    try {
      if (options.allowDownloads && options.hosted) {
        // A hosted browser saves downloads on the provider's machine, as the provider decides.
      } else if (options.allowDownloads) {
        guard.downloads = await mkdtemp(join(tmpdir(), 'browser-downloads-'));
        contextOptions.downloadBehavior = { policy: 'allow', downloadPath: guard.downloads };
      } else {
        contextOptions.downloadBehavior = { policy: 'deny' };
      }
      if (options.hosted) {
        guard.limits.push(HOSTED_LIMITS);
      } else {
        guard.proxy = await EgressProxy.start({
          policy: options.policy,
          resolve: guard.resolve,
          onBlocked: (blocked) => guard.record(blocked),
        });
        contextOptions.proxyServer = guard.proxy.url;
        // Chromium sends loopback addresses around a proxy unless told not to.
        contextOptions.proxyBypassList = ['<-loopback>'];
      }
      return { guard, contextOptions };
    } catch (error) {
      await guard.close();
      throw error;
    }
  }

  /** Watches a context's pages: frames and popups on a refused scheme are blanked or closed. */
  async attach(context: BrowserContext, page: Page): Promise<void> {
    guards.set(page, this);
    await this.watchPage(page);
    context.on('targetcreated', (target: Target) => void this.onTarget(target));
  }

  onBlocked(listener: (blocked: BlockedConnection) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Blocks recorded since `since` (ms epoch), those for `url`'s host first. */
  blockFor(url: string, since: number): BlockedConnection | undefined {
    const recent = this.blocked.filter((b) => b.at >= since);
    let host = '';
    try {
      host = normalizeHost(new URL(url).hostname);
    } catch {
      // not a URL: any recent block will do
    }
    return recent.find((b) => normalizeHost(b.host) === host) ?? recent[0];
  }

  /** Where this context's downloads go, when downloads are allowed. */
  get downloadPath(): string | undefined {
    return this.downloads;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.proxy?.close();
    if (this.downloads) await rm(this.downloads, { recursive: true, force: true }).catch(() => undefined);
  }

  record(blocked: Omit<BlockedConnection, 'at'>): void {
    const entry = { ...blocked, at: Date.now() };
    this.blockedCount += 1;
    this.firstBlocked ??= entry;
    // A page can fire requests in a loop: keep what a person needs, not all of it.
    if (this.blocked.length >= MAX_KEPT_BLOCKS) this.blocked.shift();
    this.blocked.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  private async onTarget(target: Target): Promise<void> {
    if (target.type() !== 'page') return;
    const problem = navigationSchemeProblem(target.url());
    const page = await target.page().catch(() => null);
    if (!page) return;
    if (problem && !isBrowserErrorPage(target.url())) {
      this.record({
        target: target.url(),
        host: '',
        port: 0,
        message: `popup closed: ${problem}`,
        rule: 'scheme',
      });
      await page.close().catch(() => undefined);
      return;
    }
    guards.set(page, this);
    await this.watchPage(page).catch(() => undefined);
  }

  private async watchPage(page: Page): Promise<void> {
    page.on('framenavigated', (frame: Frame) => {
      const url = frame.url();
      // Frames may hold documents the page made itself (srcdoc, data:, blob:); top level may not.
      const allowedInFrame = frame !== page.mainFrame() && /^(?:data:|blob:|about:srcdoc$)/i.test(url);
      const problem = navigationSchemeProblem(url);
      if (!problem || allowedInFrame || isBrowserErrorPage(url)) return;
      this.record({ target: url, host: '', port: 0, message: problem, rule: 'scheme' });
      void frame
        .evaluate(() => {
          (globalThis as unknown as { location: { replace(u: string): void } }).location.replace(
            'about:blank',
          );
        })
        .catch(() => undefined);
    });
    if (this.options.hosted) await this.interceptRequests(page);
  }

  /** Hosted browsers: every intercepted request is checked before it is let through. */
  private async interceptRequests(page: Page): Promise<void> {
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (request.isInterceptResolutionHandled()) return;
      void this.checkRequest(request.url()).then(
        (problem) => (problem ? request.abort('blockedbyclient') : request.continue()).catch(() => undefined),
        () => request.abort('failed').catch(() => undefined),
      );
    });
  }

  private async checkRequest(url: string): Promise<string | undefined> {
    if (/^(?:data|blob):/i.test(url)) return undefined;
    const scheme = navigationSchemeProblem(url);
    if (scheme) {
      this.record({ target: url, host: '', port: 0, message: scheme, rule: 'scheme' });
      return scheme;
    }
    const parsed = new URL(url);
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    try {
      await resolveChecked(this.options.policy, this.resolve, parsed.hostname, port);
      return undefined;
    } catch (error) {
      if (!(error instanceof EgressBlockedError)) return undefined; // unresolvable here: the browser decides
      this.record({ target: url, host: error.host, port, message: error.message, rule: error.decision.rule });
      return error.message;
    }
  }
}

/** Chromium's own error page (shown when the proxy refuses a tunnel) is not a navigation to block. */
function isBrowserErrorPage(url: string): boolean {
  return url.startsWith('chrome-error://');
}

/** Opens a context for one job with the network options applied. */
export async function openGuardedContext(
  browser: Browser,
  network: BrowserNetworkOptions | undefined,
): Promise<{ context: BrowserContext; guard?: NetworkGuard }> {
  if (!network) return { context: await browser.createBrowserContext() };
  const { guard, contextOptions } = await NetworkGuard.prepare(network);
  try {
    return { context: await browser.createBrowserContext(contextOptions), guard };
  } catch (error) {
    await guard.close();
    throw error;
  }
}
