import type { Page } from 'puppeteer-core';
import type { DomDocument, DomElement, DomWindow } from './page-dom.js';

declare const document: DomDocument;
declare const window: DomWindow & { __suiteCursor?: CursorApi };

/** Id of the drawn cursor's element, so the locator never mistakes it for page content. */
export const CURSOR_ELEMENT_ID = '__suite_agent_cursor';

/** The cursor's fill colour (#ff00c8): distinctive enough to find in a video frame. */
export const CURSOR_COLOR = { r: 255, g: 0, b: 200 } as const;

interface CursorApi {
  move(x: number, y: number): void;
  pulse(): void;
}

/**
 * Runs inside every document (before the page's own scripts). Headless screencast frames have no
 * OS cursor, so the pointer is drawn: it follows real mouse events and can be placed directly.
 * Built with DOM calls rather than innerHTML so Trusted Types pages accept it.
 */
export function cursorScript(id: string): void {
  if (window.__suiteCursor) return;
  let x = 0;
  let y = 0;
  let shown = false;
  let root: (DomElement & { style: { cssText: string; transform: string; display: string } }) | null = null;
  let ring: DomElement | null = null;

  const make = (css: string) => {
    const el = document.createElement('div');
    el.style.cssText = css;
    return el;
  };
  const ensure = () => {
    if (root && root.isConnected) return root;
    const host = document.documentElement;
    if (!host) return null;
    root = make(
      'position:fixed;left:0;top:0;width:0;height:0;margin:0;padding:0;border:0;z-index:2147483647;pointer-events:none;display:none;',
    );
    root.id = id;
    root.appendChild(
      // A translucent disc with a solid rim: the page under it stays readable, the rim stays findable.
      make(
        'position:absolute;left:-17px;top:-17px;width:34px;height:34px;border-radius:50%;box-sizing:border-box;border:5px solid rgb(255,0,200);background:rgba(255,0,200,.28);box-shadow:0 0 0 1px #fff,0 0 6px 2px rgba(0,0,0,.3);',
      ),
    );
    ring = make(
      'position:absolute;left:-16px;top:-16px;width:32px;height:32px;border-radius:50%;border:3px solid rgb(255,0,200);box-sizing:border-box;opacity:0;',
    );
    root.appendChild(ring);
    const arrow = 'polygon(0 0, 0 75%, 22% 58%, 38% 95%, 52% 88%, 37% 53%, 65% 53%)';
    root.appendChild(
      make(`position:absolute;left:-1px;top:-2px;width:18px;height:27px;background:#fff;clip-path:${arrow};`),
    );
    root.appendChild(
      make(`position:absolute;left:1px;top:1px;width:13px;height:20px;background:#111;clip-path:${arrow};`),
    );
    host.appendChild(root);
    return root;
  };
  const place = () => {
    const el = ensure();
    if (!el) return;
    el.style.transform = `translate(${x}px, ${y}px)`;
    el.style.display = shown ? 'block' : 'none';
  };
  const api: CursorApi = {
    move(nx, ny) {
      x = nx;
      y = ny;
      shown = true;
      place();
    },
    pulse() {
      place();
      ring?.animate?.(
        [
          { transform: 'scale(1)', opacity: 1 },
          { transform: 'scale(2.6)', opacity: 0 },
        ],
        // Four steps, about one per video frame (12 a second): a smooth ring would repaint the page
        // (and have the screencast capture and encode it) 60 times a second to look the same.
        { duration: 450, easing: 'steps(4, end)' },
      );
    },
  };
  window.__suiteCursor = api;
  const follow = (event: { clientX: number; clientY: number }) => api.move(event.clientX, event.clientY);
  window.addEventListener('mousemove', follow, { capture: true, passive: true });
  window.addEventListener(
    'mousedown',
    (event: { clientX: number; clientY: number }) => {
      follow(event);
      api.pulse();
    },
    { capture: true, passive: true },
  );
  // Pages that rebuild <html> children would drop the cursor; put it back once the DOM exists.
  document.addEventListener('DOMContentLoaded', () => {
    if (shown) place();
  });
}

const overlays = new WeakMap<Page, CursorOverlay>();

/**
 * The drawn cursor of one page. One instance per page, shared by the recorder (which installs it)
 * and the runner (which moves it before each pointer action and after each navigation).
 */
export class CursorOverlay {
  private installed = false;
  private last: { x: number; y: number } | undefined;

  private constructor(private readonly page: Page) {}

  static for(page: Page): CursorOverlay {
    let overlay = overlays.get(page);
    if (!overlay) {
      overlay = new CursorOverlay(page);
      overlays.set(page, overlay);
    }
    return overlay;
  }

  get isInstalled(): boolean {
    return this.installed;
  }

  async install(): Promise<void> {
    if (this.installed) return;
    this.installed = true;
    await this.page.evaluateOnNewDocument(cursorScript, CURSOR_ELEMENT_ID);
    await this.page.evaluate(cursorScript, CURSOR_ELEMENT_ID).catch(() => undefined);
    // A new document starts without a position; put the cursor back where the mouse was.
    this.page.on('domcontentloaded', () => {
      void this.restore();
    });
  }

  async moveTo(x: number, y: number): Promise<void> {
    this.last = { x, y };
    if (!this.installed) return;
    await this.page
      .evaluate((px: number, py: number) => window.__suiteCursor?.move(px, py), x, y)
      .catch(() => undefined);
  }

  async pulse(): Promise<void> {
    if (!this.installed) return;
    await this.page.evaluate(() => window.__suiteCursor?.pulse()).catch(() => undefined);
  }

  private async restore(): Promise<void> {
    if (this.page.isClosed()) return;
    await this.page.evaluate(cursorScript, CURSOR_ELEMENT_ID).catch(() => undefined);
    if (this.last) await this.moveTo(this.last.x, this.last.y);
  }
}
