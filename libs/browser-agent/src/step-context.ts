import type { ElementHandle, Page } from 'puppeteer-core';
import { describeElement, type ElementLocator } from './element-description-script.js';
import { describeTarget, locate, type LocatePreference, type LocateResult } from './element-locator.js';
import { openerOfHidden } from './hidden-reveal-script.js';
import type { DomElement } from './page-dom.js';
import type { PagePointer } from './page-pointer.js';
import type { RunLimits } from './run-limits.js';
import type { Target } from './step-types.js';

/** What a step found, for its log entry and result. */
export interface StepReport {
  target?: string;
  strategy?: string;
  candidates?: number;
  ambiguous?: boolean;
  /** The element the step acted on, described for an exported script. */
  element?: ElementLocator;
  /** What the step opened to bring its element into view (a section header, a tab, a folder). */
  revealed?: string[];
}

/** Everything one step needs; built fresh for every step so reports never leak between steps. */
export interface StepContext {
  page: Page;
  limits: RunLimits;
  pointer: PagePointer;
  signal: AbortSignal;
  /** Where relative URLs ("/login") point before any page is open. */
  baseUrl?: string;
  typingDelayMs: number;
  /** When the step's action budget runs out (started + action timeout). */
  deadline: number;
  report: StepReport;
  /**
   * The element the step acts on, already found (one match of an "every" target, or the one at a
   * position counted from the end): the next `findElement` returns it instead of looking.
   */
  only?: { handle: ElementHandle; strategy: string; count: number };
}

export interface FoundElement extends LocateResult {
  describe: string;
}

/** Locates a step's element within the step's remaining action time and records how it was found. */
export async function findElement(
  ctx: StepContext,
  target: Target,
  options: { prefer?: LocatePreference; requireVisible?: boolean } = {},
): Promise<FoundElement> {
  ctx.report.target = logTarget(target);
  if (ctx.only) {
    const { handle, strategy, count } = ctx.only;
    ctx.only = undefined;
    ctx.report.strategy = strategy;
    ctx.report.candidates = count;
    const found = { handle, strategy, count, visibleCount: count, visible: true, ambiguous: false, tied: 1 };
    return { ...found, describe: describeTarget(target) };
  }
  const found = await locate(ctx.page, target, {
    timeoutMs: Math.max(0, ctx.deadline - Date.now()),
    limit: `the action timeout of ${ctx.limits.actionTimeoutMs} ms`,
    signal: ctx.signal,
    // Controls many apps show only while their row is hovered: hover the row, as a person does.
    hover: async (row) => {
      await ctx.pointer.moveOnto(row, 'the row', {
        deadline: Math.min(ctx.deadline, Date.now() + 1000),
        actionTimeoutMs: ctx.limits.actionTimeoutMs,
      });
    },
    // A match in a collapsed section, an inactive tab or a folded tree branch: open what hides it.
    reveal: async (hidden) => {
      const opener = (await hidden.evaluateHandle(openerOfHidden)).asElement() as ElementHandle | null;
      if (!opener) return false;
      try {
        const what = await opener.evaluate((el: DomElement) =>
          (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40),
        );
        await ctx.pointer.clickOn(opener, what ? `"${what}", which hides it` : 'what hides it', {
          deadline: ctx.deadline,
          actionTimeoutMs: ctx.limits.actionTimeoutMs,
        });
        ctx.report.revealed = [...(ctx.report.revealed ?? []), what || 'a hidden section'];
        return true;
      } finally {
        await opener.dispose().catch(() => undefined);
      }
    },
    // Acting on one of several equally good matches could act on the wrong one: say which instead.
    strict: true,
    ...options,
  });
  ctx.report.strategy = found.strategy;
  ctx.report.candidates = found.count;
  ctx.report.ambiguous = found.ambiguous;
  ctx.report.element = exportable(target, await describeFound(found.handle));
  return { ...found, describe: describeTarget(target) };
}

/**
 * The locator an exported script uses. A target picked by its row or position ("next to 'Buy
 * milk'", "the second 'Delete' button") shares its role and name with others, which a script would
 * resolve to the first: it keeps only the element's CSS path.
 */
export function exportable(target: Target, element: ElementLocator | undefined): ElementLocator | undefined {
  if (!element || (target.near === undefined && target.nth === undefined && target.inRow === undefined))
    return element;
  return { css: element.css };
}

/** The element as an exported script should find it; undefined when the page went away meanwhile. */
export async function describeFound(handle: ElementHandle): Promise<ElementLocator | undefined> {
  try {
    return await handle.evaluate(describeElement);
  } catch {
    return undefined;
  }
}

/** How a target appears in the log's `target` field: the name as written, or the role when unnamed. */
export function logTarget(target: Target): string {
  return target.name || `any ${target.role ?? 'element'}`;
}

export async function disposeQuietly(handle: ElementHandle | undefined): Promise<void> {
  await handle?.dispose().catch(() => undefined);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
