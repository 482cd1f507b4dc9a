import type { Page } from 'puppeteer-core';
import type { DomDocument, DomElement, DomNode } from './page-dom.js';

// Only used inside functions evaluated in the page.
declare const document: DomDocument;

const MASK = '••••••';

/** Takes the picture; tests pass their own to look at the page in the state it is taken in. */
export type ScreenshotShooter = (page: Page) => Promise<Uint8Array>;

const shootPng: ScreenshotShooter = (page) => page.screenshot({ type: 'png' });

/**
 * A screenshot of the page as a failed step left it (PNG, the visible viewport), with every secret
 * unreadable: password fields and fields holding a secret are drawn as blurred dots without a caret,
 * and a secret shown as text is replaced by dots, only while the picture is taken. Undefined when
 * the page cannot be captured (it closed, or was between documents).
 */
export async function captureFailureScreenshot(
  page: Page,
  secrets: readonly string[],
  shoot: ScreenshotShooter = shootPng,
): Promise<Buffer | undefined> {
  const values = secrets.filter((secret) => secret.length > 0);
  try {
    const masked = await page.evaluate(maskSecrets, values, MASK);
    try {
      const image = await shoot(page);
      return Buffer.from(image);
    } finally {
      if (masked > 0) await page.evaluate(unmaskSecrets).catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

/** Masks secrets in the page (its open shadow roots too); returns how many places it changed. */
function maskSecrets(secrets: string[], mask: string): number {
  type Saved = { restore: () => void };
  const store = globalThis as unknown as { __suiteMasked?: Saved[] };
  const saved: Saved[] = [];
  const hides = (text: string | null | undefined): boolean =>
    Boolean(text) && secrets.some((secret) => (text as string).includes(secret));
  const visit = (root: { querySelectorAll(selector: string): ArrayLike<DomElement> }): void => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
      if (field && (el.type === 'password' || hides(el.value))) {
        const style = (el as unknown as { style: Record<string, string> }).style;
        const before = style.webkitTextSecurity ?? '';
        const filter = style.filter ?? '';
        const caret = style.caretColor ?? '';
        style.webkitTextSecurity = 'disc';
        style.filter = 'blur(4px)';
        style.caretColor = 'transparent';
        saved.push({
          restore: () => {
            style.webkitTextSecurity = before;
            style.filter = filter;
            style.caretColor = caret;
          },
        });
      }
      for (const child of Array.from(el.childNodes)) {
        if (child.nodeType !== 3 || !hides(child.textContent)) continue;
        const text = child as DomNode;
        const original = text.textContent ?? '';
        let replaced = original;
        for (const secret of secrets) replaced = replaced.split(secret).join(mask);
        text.textContent = replaced;
        saved.push({ restore: () => void (text.textContent = original) });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  store.__suiteMasked = saved;
  return saved.length;
}

function unmaskSecrets(): void {
  const store = globalThis as unknown as { __suiteMasked?: Array<{ restore: () => void }> };
  for (const entry of store.__suiteMasked ?? []) entry.restore();
  delete store.__suiteMasked;
}
