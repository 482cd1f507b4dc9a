import type { Page } from 'puppeteer-core';
import type { DomDocument } from './page-dom.js';

// Only used inside functions evaluated in the page.
declare const document: DomDocument;

/** Longest wait for a page's custom elements to be defined, whatever the caller's budget. */
const UPGRADE_LIMIT_MS = 3000;
/** A quiet network for this long means no definition is still on its way. */
const QUIET_NETWORK_MS = 300;

/**
 * Waits, up to a few seconds, until the page's custom elements are defined.
 *
 * Component libraries that load their definitions lazily (Shoelace's autoloader, Lit apps that
 * import on demand) fire "load" before their elements work: a `<sl-button>` is then an inert tag,
 * and the page's own listeners wait on `customElements.whenDefined`. A person sees a half-drawn
 * page and waits; clicking at once would do nothing. A page with no undefined element costs one
 * query; tags that never get a definition stop the wait once the network has been quiet for a moment.
 */
export async function awaitCustomElementUpgrades(
  page: Page,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const pending = await page
    .evaluate(() => document.querySelectorAll(':not(:defined)').length > 0)
    .catch(() => false);
  if (!pending) return;
  const timeout = Math.max(0, Math.min(UPGRADE_LIMIT_MS, budgetMs));
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  try {
    await Promise.race([
      page.waitForFunction(() => document.querySelectorAll(':not(:defined)').length === 0, {
        polling: 50,
        timeout,
        signal: combined,
      }),
      page.waitForNetworkIdle({ idleTime: QUIET_NETWORK_MS, timeout, signal: combined }),
    ]);
  } catch {
    // Out of time or the page went away: the step itself reports what it finds.
  } finally {
    stop.abort();
  }
}
