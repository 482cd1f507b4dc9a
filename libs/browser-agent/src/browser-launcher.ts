import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium';

/** Flags that keep a headless Chromium quiet and offline-friendly in containers and CI. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--mute-audio',
];

export interface LocalBrowserOptions {
  /** Defaults to $CHROMIUM_PATH, then Debian's binary (not the /usr/bin/chromium wrapper script). */
  executablePath?: string;
  headless?: boolean;
  viewport?: { width: number; height: number };
  extraArgs?: readonly string[];
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
    const browser = await puppeteer.launch({
      executablePath,
      headless: options.headless ?? true,
      userDataDir: profile,
      defaultViewport: options.viewport ?? DEFAULT_VIEWPORT,
      args: [
        ...CHROMIUM_ARGS,
        `--window-size=${(options.viewport ?? DEFAULT_VIEWPORT).width},${(options.viewport ?? DEFAULT_VIEWPORT).height}`,
        ...(options.extraArgs ?? []),
      ],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.once('disconnected', () => {
      void removeProfile();
    });
    return browser;
  } catch (error) {
    await removeProfile();
    throw new Error(
      `could not start Chromium at ${executablePath}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
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
