import type { ElementHandle, Page } from 'puppeteer-core';
import type { CursorOverlay } from './cursor-overlay.js';
import { coveringElement, pointerProxy, popupCloser } from './element-state-script.js';
import { DetachedElementError, LimitExceededError } from './run-limits.js';

/** Most mouse-move steps of one move with a drawn cursor. */
const MAX_CURSOR_STEPS = 2;
/** How long something may cover a target before a popup over it is closed (transient layers go). */
const POPUP_GRACE_MS = 500;

export interface Point {
  x: number;
  y: number;
}

/**
 * The real mouse. With a drawn cursor it moves in small steps so a recording shows it travel, and
 * the cursor is placed at each destination; without one it jumps.
 */
export class PagePointer {
  private position: Point = { x: 0, y: 0 };
  /** Popups closed because they covered what a step acted on (their closing control's name). */
  private closed: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly cursor?: CursorOverlay,
  ) {}

  async moveTo(point: Point): Promise<void> {
    const distance = Math.hypot(point.x - this.position.x, point.y - this.position.y);
    // Travel in steps only when a drawn cursor shows it. The steps go out back to back (a whole
    // move takes a few tens of ms) and a video shows one position per frame (12 a second), so a
    // few steps look the same as many; each one is a round trip and a repaint the recorder pays for.
    const steps = this.cursor ? Math.max(1, Math.min(MAX_CURSOR_STEPS, Math.round(distance / 30))) : 1;
    await this.cursor?.moveTo(this.position.x, this.position.y);
    await this.page.mouse.move(point.x, point.y, { steps });
    this.position = point;
    await this.cursor?.moveTo(point.x, point.y);
  }

  /**
   * Moves onto the element and returns where the mouse ended up. Moving across the page can fire
   * hover effects that shift the layout (a menu opening under the path), so the target is measured
   * again on arrival and followed until it stays put.
   */
  async moveOnto(
    handle: ElementHandle,
    describe: string,
    timing: { deadline: number; actionTimeoutMs: number },
  ): Promise<Point> {
    // One proxy for every measurement of this move; let go of without waiting for the browser.
    const proxy = (await handle.evaluateHandle(pointerProxy)) as ElementHandle;
    try {
      let point = await this.aim(handle, proxy, describe, timing);
      await this.moveTo(point);
      for (let attempt = 0; attempt < 5; attempt++) {
        const again = await this.aim(handle, proxy, describe, timing);
        if (Math.abs(again.x - point.x) < 1 && Math.abs(again.y - point.y) < 1) break;
        point = again;
        await this.moveTo(point);
      }
      return point;
    } finally {
      void proxy.dispose().catch(() => undefined);
    }
  }

  /** The popups closed since the last call, by the name of the control that closed each. */
  takeClosedPopups(): string[] {
    const closed = this.closed;
    this.closed = [];
    return closed;
  }

  async clickOn(
    handle: ElementHandle,
    describe: string,
    timing: { deadline: number; actionTimeoutMs: number },
    options: { button: 'left' | 'right'; count: 1 | 2 } = { button: 'left', count: 1 },
  ): Promise<void> {
    const point = await this.moveOnto(handle, describe, timing);
    await this.page.mouse.click(point.x, point.y, { button: options.button, count: options.count });
  }

  private async closePopupOver(handle: ElementHandle, point: Point): Promise<boolean> {
    const closer = (
      await handle.evaluateHandle(popupCloser, point.x, point.y).catch(() => null)
    )?.asElement() as ElementHandle | null | undefined;
    if (!closer) return false;
    try {
      const box = await closer.boundingBox();
      if (!box) return false;
      const name = await closer.evaluate((el) =>
        (
          (el as unknown as { innerText?: string }).innerText ||
          el.getAttribute('aria-label') ||
          el.getAttribute('title') ||
          ''
        )
          .replace(/\s+/g, ' ')
          .trim(),
      );
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await this.moveTo(at);
      await this.page.mouse.click(at.x, at.y);
      this.closed.push(name || 'close');
      return true;
    } finally {
      await closer.dispose().catch(() => undefined);
    }
  }

  /**
   * Scrolls the element into view and returns the centre of what should receive the click (`proxy`:
   * the element's pointerProxy), waiting (until `deadline`) for anything covering it to go away.
   */
  private async aim(
    handle: ElementHandle,
    proxy: ElementHandle,
    describe: string,
    timing: { deadline: number; actionTimeoutMs: number },
  ): Promise<Point> {
    const { deadline, actionTimeoutMs } = timing;
    let coveredSince: number | undefined;
    let closedOne = false;
    for (;;) {
      await proxy.scrollIntoView().catch(() => undefined);
      const box = await proxy.boundingBox();
      if (box && box.width > 0 && box.height > 0) {
        const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        const covering = await handle.evaluate(coveringElement, point.x, point.y);
        if (covering === null) return point;
        coveredSince ??= Date.now();
        // A popup that stays over the target for a moment (a session warning, a newsletter box) is
        // closed with its own close control, once per element, as a person would.
        if (!closedOne && Date.now() - coveredSince >= POPUP_GRACE_MS) {
          closedOne = true;
          if (await this.closePopupOver(handle, point)) continue;
        }
        if (Date.now() >= deadline) {
          throw new LimitExceededError(
            'action timeout',
            actionTimeoutMs,
            `${describe} stayed covered by ${covering}`,
          );
        }
      } else {
        // Gone from the page (a list re-rendered under it): the caller finds it again.
        const connected = await handle.evaluate((el) => el.isConnected).catch(() => false);
        if (!connected) throw new DetachedElementError(describe);
        if (Date.now() >= deadline)
          throw new LimitExceededError(
            'action timeout',
            actionTimeoutMs,
            `${describe} has no size on the page to click`,
          );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
