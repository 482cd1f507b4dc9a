import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page, type Target } from 'puppeteer-core';
import { COMPOSITOR_NICE, watchCompositorPriority } from './compositor-priority.js';
import type { VirtualDisplay } from './virtual-display.js';

export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium';

/**
 * Flags that keep a headless Chromium quiet and offline-friendly in containers and CI. WebRTC may
 * not send UDP around the context's proxy (the network policy would not see it). No spare renderer:
 * Chromium keeps one started for the browser context last used, and as every job has a context of
 * its own each spare was started and thrown away unused (measured: 2 renderer processes per job
 * instead of 1, about 35 ms of CPU each time); a job's page navigates in the renderer its context
 * already has. `--no-sandbox` is not here: it is added only when running as root (`chromiumArgs`),
 * where Chromium's own sandbox cannot start.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-features=SpareRendererForSitePerProcess',
];

/** Environment variables Chromium is started with; nothing else (no DATABASE_URL, keys or tokens). */
const PASSED_ENV = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'TZ', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE'];

let warnedNoSandbox = false;

export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** `auto`: Chromium's own sandbox unless this process is root; `off`: never (an explicit, unsafe choice). */
export type ChromiumSandbox = 'auto' | 'off';

/**
 * The flags for one launch: CHROMIUM_ARGS, plus `--no-sandbox` only as root (Chromium's sandbox
 * refuses to start as root) or when `sandbox` is `off`, which is reported once through `warn`.
 */
export function chromiumArgs(
  warn: (message: string) => void = (m) => process.emitWarning(m),
  sandbox: ChromiumSandbox = 'auto',
): string[] {
  if (sandbox === 'auto' && !runningAsRoot()) return [...CHROMIUM_ARGS];
  if (!warnedNoSandbox) {
    warnedNoSandbox = true;
    warn(
      sandbox === 'off'
        ? 'Chromium runs with --no-sandbox because CHROMIUM_SANDBOX=off; job pages then run without the browser sandbox'
        : 'Chromium runs with --no-sandbox because this process runs as root; run the worker as an unprivileged user (the image uses uid 1000) to keep its sandbox',
    );
  }
  return ['--no-sandbox', ...CHROMIUM_ARGS];
}

/** A minimal environment for Chromium: locale and PATH, and a HOME inside its throw-away profile. */
export function chromiumEnv(profile: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of PASSED_ENV) if (env[name]) kept[name] = env[name];
  return {
    ...kept,
    HOME: profile,
    XDG_CONFIG_HOME: join(profile, '.config'),
    XDG_CACHE_HOME: join(profile, '.cache'),
    TMPDIR: join(profile, '.tmp'),
  };
}

export interface LocalBrowserOptions {
  /** Defaults to $CHROMIUM_PATH, then Debian's binary (not the /usr/bin/chromium wrapper script). */
  executablePath?: string;
  headless?: boolean;
  viewport?: { width: number; height: number };
  extraArgs?: readonly string[];
  /** Where the once-only `--no-sandbox` warning goes (as root). Default: a process warning. */
  warn?: (message: string) => void;
  /** Default `auto`: Chromium's sandbox unless running as root. */
  sandbox?: ChromiumSandbox;
  /**
   * CPU niceness of Chromium's GPU process (its display compositor, which draws what a recording
   * captures): default COMPOSITOR_NICE (10), below the pages and the worker; `false` leaves
   * Chromium's own priorities. See watchCompositorPriority.
   */
  compositorNice?: number | false;
  /**
   * Run headful on this virtual display (see VirtualDisplay) instead of headless: what the page
   * shows is then drawn on an X screen that ffmpeg's `x11grab` captures (VideoRecorder's `x11grab`
   * source). One browser per display, one job at a time in it.
   */
  display?: VirtualDisplay;
}

/**
 * Flags of a headful browser on a virtual display: X11 (not Wayland), its windows at the screen's
 * corner, and pages drawn at full rate even when their window is covered by another.
 */
const DISPLAY_ARGS: readonly string[] = [
  '--ozone-platform=x11',
  '--window-position=0,0',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
];

const displays = new WeakMap<Browser, VirtualDisplay>();

/** The virtual display `browser` was launched on (headful), or undefined (headless, hosted). */
export function displayOf(browser: Browser): VirtualDisplay | undefined {
  return displays.get(browser);
}

const filling = new WeakMap<Target, Promise<void>>();

/**
 * Resolves once the page's window fills its display's screen (no tab strip, toolbar or info bar;
 * the page at the screen's corner, laid out at its emulated viewport); once per page.
 */
export async function screenFilled(page: Page): Promise<void> {
  const target = page.target();
  let pending = filling.get(target);
  if (!pending) {
    pending = fillScreen(target);
    filling.set(target, pending);
  }
  await pending;
}

async function fillScreen(target: Target): Promise<void> {
  const session = await target.createCDPSession();
  try {
    const { windowId, bounds } = await session.send('Browser.getWindowForTarget');
    if (bounds.windowState !== 'fullscreen')
      await session.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'fullscreen' } });
  } finally {
    await session.detach().catch(() => undefined);
  }
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;

/**
 * Starts Chromium with a fresh, throw-away profile. The profile directory is removed when the
 * browser goes away, however it goes (closed, crashed, killed).
 */
export async function launchLocalBrowser(options: LocalBrowserOptions = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? process.env['CHROMIUM_PATH'] ?? DEFAULT_CHROMIUM_PATH;
  const profile = await mkdtemp(join(tmpdir(), 'browser-agent-profile-'));
  const removeProfile = () => rm(profile, { recursive: true, force: true }).catch(() => undefined);
  try {
    await mkdir(join(profile, '.tmp'));
    // The preference behind the WebRTC flags, for Chromium builds that read only the preference.
    await mkdir(join(profile, 'Default'));
    await writeFile(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({
        webrtc: { ip_handling_policy: 'disable_non_proxied_udp', multiple_routes_enabled: false },
      }),
    );
    const { display } = options;
    const browser = await puppeteer.launch({
      executablePath,
      headless: display ? false : (options.headless ?? true),
      userDataDir: profile,
      env: { ...chromiumEnv(profile), ...(display ? { DISPLAY: display.name } : {}) },
      defaultViewport: options.viewport ?? DEFAULT_VIEWPORT,
      args: [
        ...chromiumArgs(options.warn, options.sandbox),
        `--window-size=${(options.viewport ?? DEFAULT_VIEWPORT).width},${(options.viewport ?? DEFAULT_VIEWPORT).height}`,
        ...(display ? DISPLAY_ARGS : []),
        ...(options.extraArgs ?? []),
      ],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const nice = options.compositorNice ?? COMPOSITOR_NICE;
    const stopWatching =
      nice === false ? () => undefined : watchCompositorPriority(browser.process()?.pid, nice);
    if (display) displays.set(browser, display);
    browser.once('disconnected', () => {
      stopWatching();
      void removeProfile();
    });
    return browser;
  } catch (error) {
    await removeProfile();
    const reason = error instanceof Error ? error.message : String(error);
    // Containers often forbid the user namespaces Chromium's sandbox needs: say what to change.
    const hint = /sandbox/i.test(reason)
      ? ' (Chromium could not start its sandbox: allow user namespaces for the worker, e.g. a seccomp profile that permits them, or set CHROMIUM_SANDBOX=off to run without it, which is unsafe)'
      : '';
    throw new Error(`could not start Chromium at ${executablePath}: ${reason}${hint}`, { cause: error });
  }
}

/** Connects to a browser run elsewhere (a hosted browser provider) over its CDP websocket. */
export async function connectHostedBrowser(
  wsUrl: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<Browser> {
  try {
    return await puppeteer.connect({
      browserWSEndpoint: wsUrl,
      defaultViewport: options.viewport ?? DEFAULT_VIEWPORT,
    });
  } catch (error) {
    // The URL may carry an API key; only its origin goes into the message.
    const where = safeOrigin(wsUrl);
    const reason = (error instanceof Error ? error.message : String(error)).replaceAll(wsUrl, where);
    throw new Error(`could not connect to the hosted browser at ${where}: ${reason}`, { cause: error });
  }
}

function safeOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'an invalid websocket URL';
  }
}
