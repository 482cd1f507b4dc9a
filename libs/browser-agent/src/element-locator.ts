import type { ElementHandle, Page } from 'puppeteer-core';
import { CURSOR_ELEMENT_ID } from './cursor-overlay.js';
import { findInPage, type PageQuery } from './locator-script.js';
import type { Target, TargetRole } from './step-types.js';

/** ARIA roles that count as what a person calls a "field", a "dropdown", and so on. */
const ROLE_FAMILIES: Readonly<Record<TargetRole, readonly string[]>> = {
  button: ['button'],
  link: ['link'],
  textbox: ['textbox', 'searchbox', 'spinbutton', 'combobox'],
  checkbox: ['checkbox', 'switch', 'menuitemcheckbox'],
  radio: ['radio', 'menuitemradio'],
  combobox: ['combobox', 'listbox'],
  heading: ['heading'],
  img: ['img', 'image'],
  tab: ['tab'],
  menuitem: ['menuitem', 'menuitemcheckbox', 'menuitemradio'],
  switch: ['switch', 'checkbox'],
  option: ['option'],
  listitem: ['listitem'],
  row: ['row'],
  cell: ['cell', 'gridcell', 'columnheader', 'rowheader'],
  dialog: ['dialog', 'alertdialog'],
};

/** Chromium's accessibility tree calls some roles differently from ARIA ("image" for "img"). */
const CHROMIUM_ROLE: Readonly<Record<string, string>> = { img: 'image' };

export type LocatePreference = 'editable' | 'checkable' | 'selectable';

export interface LocateOptions {
  timeoutMs: number;
  /** Keep waiting while the only matches are hidden (actions need something to click). Default true. */
  requireVisible?: boolean;
  /** Without a role hint, favour this kind of element among several matches. */
  prefer?: LocatePreference;
  pollMs?: number;
  signal?: AbortSignal;
  /** How to name the limit in the error, e.g. "the action timeout of 10000 ms" (the caller's budget may be a remainder of it). */
  limit?: string;
}

export interface LocateResult {
  handle: ElementHandle;
  /** Which strategy matched: "role+name", "label", "placeholder", "text", "css", … */
  strategy: string;
  /** How many elements that strategy matched. */
  count: number;
  visibleCount: number;
  visible: boolean;
  /** More than one visible match: the first in document order (or the one asked for by position) won. */
  ambiguous: boolean;
}

export class ElementNotFoundError extends Error {
  constructor(
    readonly target: Target,
    /** The limit that ran out, as people should read it: "the action timeout of 10000 ms". */
    readonly limit: string,
    readonly tried: readonly string[],
    readonly hiddenMatch?: { strategy: string; count: number },
  ) {
    super(
      hiddenMatch
        ? `${describeTarget(target)} matched ${plural(hiddenMatch.count, 'element')} by ${hiddenMatch.strategy}, but none became visible within ${limit}`
        : `no element matches ${describeTarget(target)} within ${limit} (tried: ${tried.join(', ')})`,
    );
    this.name = 'ElementNotFoundError';
  }
}

export function describeTarget(target: Target): string {
  const position = target.nth === undefined ? '' : target.nth === -1 ? 'last ' : `${ordinal(target.nth)} `;
  const role = target.role ?? '';
  if (!target.name) return `the ${position}${role || 'element'}`;
  if (!role) return position ? `the ${position}"${target.name}"` : `"${target.name}"`;
  return `the ${position}${role} "${target.name}"`;
}

function ordinal(n: number): string {
  const suffix =
    n % 10 === 1 && n % 100 !== 11
      ? 'st'
      : n % 10 === 2 && n % 100 !== 12
        ? 'nd'
        : n % 10 === 3 && n % 100 !== 13
          ? 'rd'
          : 'th';
  return `${n}${suffix}`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export interface FindOutcome {
  match?: LocateResult;
  /** Strategies tried, in order, up to the one that matched. */
  tried: string[];
}

/**
 * One look at the page, no waiting. Navigation in flight can destroy the page's JavaScript context
 * mid-query; that is reported as "nothing yet" rather than as an error.
 */
export async function findOnce(page: Page, target: Target, prefer?: LocatePreference): Promise<FindOutcome> {
  const query: PageQuery = {
    name: target.name,
    roles: target.role ? [...ROLE_FAMILIES[target.role]] : null,
    prefer: target.role ? null : (prefer ?? null),
    nth: target.nth ?? null,
    ignoreId: CURSOR_ELEMENT_ID,
  };
  try {
    const result = await page.evaluateHandle(findInPage, query);
    try {
      const meta = await result.evaluate((found) => ({
        strategy: found.strategy,
        count: found.elements.length,
        visibleCount: found.visibleCount,
        visible: found.visible,
        tried: found.tried,
      }));
      if (meta.strategy === null) {
        const fromTree = await findInAccessibilityTree(page, target);
        const tried = target.role && target.name ? [...meta.tried, 'accessibility tree'] : meta.tried;
        return fromTree ? { match: fromTree, tried } : { tried };
      }
      const element = (await result.getProperty('element')).asElement();
      if (!element) return { tried: meta.tried };
      const match: LocateResult = {
        handle: element,
        strategy: meta.strategy,
        count: meta.count,
        visibleCount: meta.visibleCount,
        visible: meta.visible,
        ambiguous: meta.visibleCount > 1 && target.nth === undefined,
      };
      return { match, tried: meta.tried };
    } finally {
      await result.dispose().catch(() => undefined);
    }
  } catch (error) {
    if (isContextLost(error)) return { tried: [] };
    throw error;
  }
}

/**
 * Chromium's own accessible-name computation covers cases the in-page one does not (names from
 * CSS content, nested labelling). Exact names only: that is all `::-p-aria` offers.
 */
async function findInAccessibilityTree(page: Page, target: Target): Promise<LocateResult | undefined> {
  if (!target.role || !target.name || /["\\\]]/.test(target.name)) return undefined;
  for (const role of ROLE_FAMILIES[target.role]) {
    const handles = await page.$$(
      `::-p-aria([name="${target.name}"][role="${CHROMIUM_ROLE[role] ?? role}"])`,
    );
    if (handles.length === 0) continue;
    const [first, ...rest] = handles;
    await Promise.all(rest.map((h) => h.dispose()));
    if (!first) continue;
    const visible = await first.isVisible();
    return {
      handle: first,
      strategy: 'accessibility tree',
      count: handles.length,
      visibleCount: visible ? 1 : 0,
      visible,
      ambiguous: handles.length > 1,
    };
  }
  return undefined;
}

/** Polls until `target` matches (and, by default, is visible) or the timeout passes. */
export async function locate(page: Page, target: Target, options: LocateOptions): Promise<LocateResult> {
  const requireVisible = options.requireVisible ?? true;
  const pollMs = options.pollMs ?? 100;
  const deadline = Date.now() + options.timeoutMs;
  let tried: string[] = [];
  let hidden: { strategy: string; count: number } | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const { match, tried: attempted } = await findOnce(page, target, options.prefer);
    if (match) {
      if (match.visible || !requireVisible) return match;
      hidden = { strategy: match.strategy, count: match.count };
      await match.handle.dispose().catch(() => undefined);
    }
    if (attempted.length > 0) tried = attempted;
    if (Date.now() >= deadline) {
      throw new ElementNotFoundError(target, options.limit ?? `${options.timeoutMs} ms`, tried, hidden);
    }
    await delay(Math.min(pollMs, Math.max(0, deadline - Date.now())));
  }
}

export function isContextLost(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Execution context was destroyed|Cannot find context|context.*(?:destroyed|not found)|Inspected target navigated|Node is detached|frame was detached|Protocol error.*Target closed.*navigat/i.test(
    message,
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
