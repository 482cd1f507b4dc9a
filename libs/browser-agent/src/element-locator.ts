import { namedItems } from './element-state-script.js';
import { entryNoun, singularOf } from './named-items.js';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
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
  option: ['option', 'radio', 'menuitemradio'],
  listitem: ['listitem'],
  row: ['row'],
  cell: ['cell', 'gridcell', 'columnheader', 'rowheader'],
  dialog: ['dialog', 'alertdialog'],
  columnheader: ['columnheader'],
  slider: ['slider'],
  spinbutton: ['spinbutton'],
  searchbox: ['searchbox', 'textbox', 'combobox'],
  listbox: ['listbox', 'combobox'],
  menu: ['menu', 'menubar'],
  treeitem: ['treeitem'],
  table: ['table', 'grid', 'treegrid'],
  editor: ['textbox'],
};

/** What a control is, for a target named only by what it does ("Create account"). */
const CONTROL_ROLES = [
  'button',
  'link',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
  'switch',
] as const;

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
  /**
   * Acting on a target several equally good visible elements match fails instead of picking one
   * (as Playwright's strict locators do); "the first …", "next to …" or more of the text say which.
   */
  strict?: boolean;
  /**
   * Moves the mouse over a row, as a person does to reveal a control shown only on hover; called
   * once per row when the target is hidden (or absent) there.
   */
  hover?: (row: ElementHandle) => Promise<void>;
  /**
   * Called with a match that exists but is hidden (in a collapsed section, an inactive tab, a folded
   * tree branch): opens what hides it, as a person would, and says whether it clicked anything.
   */
  reveal?: (hidden: ElementHandle) => Promise<boolean>;
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
  /** Visible matches as good as the chosen one (links to one address count once). */
  tied: number;
}

export class ElementNotFoundError extends Error {
  constructor(
    readonly target: Target,
    /** The limit that ran out, as people should read it: "the action timeout of 10000 ms". */
    readonly limit: string,
    readonly tried: readonly string[],
    readonly hiddenMatch?: { strategy: string; count: number },
    /** Why nothing usable matched, when it is more than "nothing": the text is missing, or too many match. */
    readonly problem?: string,
    /** The closest elements the page had, as "button "Remove" (in "Walk the dog")". */
    readonly closest: readonly string[] = [],
  ) {
    const seen = closest.length > 0 ? `; closest on the page: ${closest.join(', ')}` : '';
    super(
      problem
        ? `${problem} (within ${limit})${seen}`
        : hiddenMatch
          ? `${describeTarget(target)} matched ${plural(hiddenMatch.count, 'element')} by ${hiddenMatch.strategy}, but none became visible within ${limit}`
          : `no element matches ${describeTarget(target)} within ${limit} (tried: ${tried.join(', ')})${seen}`,
    );
    this.name = 'ElementNotFoundError';
  }
}

export function describeTarget(target: Target): string {
  const position =
    target.nth === undefined
      ? ''
      : target.nth === -1
        ? 'last '
        : target.nth < -1
          ? `${ordinal(-target.nth)}-to-last `
          : `${ordinal(target.nth)} `;
  const role = `${target.color ? `${target.color} ` : ''}${target.role ?? (target.color && !target.name ? 'element' : '')}`;
  const near =
    target.near !== undefined
      ? ` next to "${target.near}"`
      : target.inRow !== undefined
        ? ` in the ${target.inRow === -1 ? 'last' : target.inRow < -1 ? `${ordinal(-target.inRow)}-to-last` : ordinal(target.inRow)} row`
        : '';
  if (!target.name) return `the ${position}${role || 'element'}${near}`;
  if (!role) return position || near ? `the ${position}"${target.name}"${near}` : `"${target.name}"`;
  return `the ${position}${role} "${target.name}"${near}`;
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
  /** A row to hover before looking again: the target may show only while it is hovered. */
  hover?: ElementHandle;
  /** Why there is no match although something was found: "next to" text missing, or several rows match. */
  problem?: string;
  /** When nothing matched: the closest elements seen. */
  closest?: string[];
  /** The problem will not go away by waiting (several rows match): fail now. */
  final?: boolean;
}

interface FrameOutcome extends FindOutcome {
  /** Position of the matching strategy (earlier is more precise); Infinity without a match. */
  rank: number;
}

/**
 * One look at the page, no waiting: the page and its frames (an `<iframe>`'s document is searched
 * like the page's), each with its open shadow roots. Navigation in flight can destroy a frame's
 * JavaScript context mid-query; that is reported as "nothing yet" rather than as an error.
 */
/** "number of guests", "amount of tickets": the field may be named by what is counted alone. */
const COUNTED_RE = /^(?:the\s+)?(?:number|amount|count|quantity|total|no\.?)\s+of\s+(?:the\s+)?(\S.*)$/i;

/** A name that is only a role's word ("the Box", "the Field"), as parseTarget keeps it when capitalised. */
const ROLE_WORD_NAMES =
  /^(?:box|field|input|button|link|checkbox|dropdown|select|slider|spinner|tab|heading|image|editor|textbox)$/i;

/** Controls that go by several usual names; each is tried when the one written is not there. */
const SAME_CONTROL: readonly (readonly string[])[] = [
  ['log out', 'sign out', 'logout', 'log off', 'sign off'],
  ['log in', 'sign in', 'login'],
  ['sign up', 'register', 'create account', 'create an account'],
  ['cart', 'basket', 'bag'],
  ['confirm', 'ok', 'yes'],
];

function otherNames(name: string): string[] {
  const said = name.trim().toLowerCase();
  return SAME_CONTROL.find((group) => group.includes(said))?.filter((other) => other !== said) ?? [];
}

/** Each page's current action step sentence (see `PageQuery.shownInstruction`). */
const stepSentences = new WeakMap<Page, string>();

/** The sentence of the action step now running on `page` (undefined between steps and for checks). */
export function noteStepSentence(page: Page, sentence: string | undefined): void {
  if (sentence === undefined) stepSentences.delete(page);
  else stepSentences.set(page, sentence);
}

export async function findOnce(
  page: Page,
  target: Target,
  prefer?: LocatePreference,
  options: { all?: boolean; strict?: boolean; asWritten?: boolean } = {},
): Promise<FindOutcome> {
  // Counting checkboxes counts checkboxes: a toggle beside them is not one more (acting on "the
  // checkbox" still finds a switch, whose role family it shares).
  const strict = options.all && (target.role === 'checkbox' || target.role === 'switch');
  const query: PageQuery = {
    name: target.name,
    roles: target.role
      ? strict
        ? [target.role]
        : [...ROLE_FAMILIES[target.role]]
      : target.control
        ? [...CONTROL_ROLES]
        : null,
    prefer: target.role ? null : (prefer ?? null),
    nth: target.nth ?? null,
    near: target.near ?? null,
    inRow: target.inRow ?? null,
    holding: target.holding ?? null,
    ignoreId: CURSOR_ELEMENT_ID,
    shownInstruction: stepSentences.get(page) ?? null,
    color: target.color ?? null,
    // "The editor" is no ARIA role: contenteditable regions, textareas and multi-line textboxes.
    // "The dropdown" may be a custom trigger with no role: any select-like widget counts.
    kind: target.role === 'editor' ? 'editor' : target.role === 'combobox' ? 'select' : null,
  };
  const frames = page.frames().filter((frame) => !frame.detached);
  const outcomes: FrameOutcome[] = [];
  for (const frame of frames.length > 0 ? frames : [page.mainFrame()]) {
    outcomes.push(await findInFrame(frame, target, query, frame === page.mainFrame()));
  }
  const best = outcomes.reduce<FrameOutcome | undefined>(
    (winner, next) => (!winner || next.rank < winner.rank ? next : winner),
    undefined,
  );
  for (const other of outcomes) {
    if (other === best) continue;
    await other.match?.handle.dispose().catch(() => undefined);
    await other.hover?.dispose().catch(() => undefined);
  }
  const main = outcomes[0] ?? { tried: [], rank: Infinity };
  // "Set the number of guests to 6" where the field says "Guests": the thing counted names it;
  // "Log out" where the page says "Sign out": the same control by its other usual name.
  if (!best?.match && !outcomes.some((o) => o.hover) && options.asWritten !== true) {
    const counted = COUNTED_RE.exec(target.name)?.[1];
    // "the Box" read as a box named Box: with none named so, the box is any one of that role.
    const roleOnly = target.role && ROLE_WORD_NAMES.test(target.name.trim()) ? [''] : [];
    const also = (target.alsoNamed ?? []).flatMap((other) => [other, ...otherNames(other)]);
    for (const name of counted ? [counted] : [...otherNames(target.name), ...roleOnly, ...also]) {
      const again = await findOnce(page, { ...target, name, alsoNamed: [] }, prefer, {
        ...options,
        asWritten: true,
      });
      if (again.match) return again;
      await again.hover?.dispose().catch(() => undefined);
    }
  }
  // "Open the first result", "click the second post" where nothing says "result": that entry.
  // A name found only inside longer text ("… click the 5th search result", an instruction shown on
  // the page) says less than the entries the noun names.
  const partialOnly =
    best?.match !== undefined && best.match !== null && /\(partial\)$/.test(best.match.strategy);
  if (
    (!best?.match || partialOnly) &&
    target.nth !== undefined &&
    !target.role &&
    target.near === undefined &&
    entryNoun(target.name) !== undefined
  ) {
    const entry = await page
      .evaluateHandle(namedItems, singularOf(entryNoun(target.name) ?? ''), target.nth)
      .catch(() => null);
    const picked = (
      await entry?.getProperty('picked').catch(() => null)
    )?.asElement() as ElementHandle | null;
    const texts = picked ? await entry?.getProperty('texts').catch(() => null) : null;
    const count = Number((await texts?.getProperty('length'))?.remoteObject().value ?? 1);
    await texts?.dispose().catch(() => undefined);
    await entry?.dispose().catch(() => undefined);
    if (picked && best?.match) {
      await best.match.handle.dispose().catch(() => undefined);
      await best.hover?.dispose().catch(() => undefined);
    }
    if (picked)
      return {
        match: {
          handle: picked,
          strategy: 'entries',
          count,
          visibleCount: count,
          visible: true,
          ambiguous: false,
          tied: 1,
        },
        tried: [...main.tried, 'entries'],
      };
  }
  if (!best?.match) {
    const hover = outcomes.find((o) => o.hover)?.hover;
    const closest = outcomes.flatMap((o) => o.closest ?? []).slice(0, 5);
    const problem = outcomes.find((o) => o.problem)?.problem;
    return {
      tried: main.tried,
      ...(hover ? { hover } : {}),
      ...(problem ? { problem } : {}),
      ...(closest.length > 0 ? { closest } : {}),
    };
  }
  const { match, tried, hover } = best;
  // "Next to" names one row; when several rows hold the text and a match, which one is meant is
  // unknown, and guessing could act on the wrong row.
  if (target.near !== undefined && target.nth === undefined && match.visibleCount > 1 && !options.all) {
    await match.handle.dispose().catch(() => undefined);
    await hover?.dispose().catch(() => undefined);
    return {
      tried,
      final: true,
      problem: `${describeTarget(target)} is ambiguous: ${match.visibleCount} elements match next to "${target.near}" (say which one, e.g. "the first …", or quote more of the text)`,
    };
  }
  if (options.strict && !options.all && target.nth === undefined && match.tied > 1) {
    await match.handle.dispose().catch(() => undefined);
    await hover?.dispose().catch(() => undefined);
    return {
      tried,
      final: true,
      problem: `${describeTarget(target)} is ambiguous: ${match.tied} elements on the page match it equally well (say which one, e.g. "the first …", "… next to "<text in its row>"", or quote more of its text)`,
    };
  }
  return { match, tried, ...(hover ? { hover } : {}) };
}

async function findInFrame(
  frame: Frame,
  target: Target,
  query: PageQuery,
  isMain: boolean,
): Promise<FrameOutcome> {
  try {
    const result = await frame.evaluateHandle(findInPage, query);
    try {
      const meta = await result.evaluate((found) => ({
        strategy: found.strategy,
        count: found.elements.length,
        visibleCount: found.visibleCount,
        tied: found.tied,
        visible: found.visible,
        tried: found.tried,
        nearRows: found.nearRows,
        closest: found.closest,
        hasHover: found.hover !== null,
      }));
      const hover = meta.hasHover
        ? ((await result.getProperty('hover')).asElement() ?? undefined)
        : undefined;
      const withHover = hover ? { hover: hover as ElementHandle } : {};
      if (meta.strategy === null) {
        const fromTree = isMain && !target.near ? await findInAccessibilityTree(frame, target) : undefined;
        const tried =
          isMain && target.role && target.name && !target.near
            ? [...meta.tried, 'accessibility tree']
            : meta.tried;
        if (fromTree) return { match: fromTree, tried, rank: meta.tried.length, ...withHover };
        const problem =
          target.near !== undefined && meta.nearRows === 0 && isMain
            ? `no element matches ${describeTarget(target)}: the text "${target.near}" is not on the page`
            : undefined;
        return {
          tried,
          rank: Infinity,
          closest: meta.closest,
          ...withHover,
          ...(problem ? { problem } : {}),
        };
      }
      const element = (await result.getProperty('element')).asElement();
      if (!element) return { tried: meta.tried, rank: Infinity, ...withHover };
      const match: LocateResult = {
        handle: element as ElementHandle,
        strategy: meta.strategy,
        count: meta.count,
        visibleCount: meta.visibleCount,
        visible: meta.visible,
        ambiguous: meta.visibleCount > 1 && target.nth === undefined,
        tied: meta.tied,
      };
      return { match, tried: meta.tried, rank: meta.tried.length, ...withHover };
    } finally {
      await result.dispose().catch(() => undefined);
    }
  } catch (error) {
    if (isContextLost(error)) return { tried: [], rank: Infinity };
    throw error;
  }
}

/**
 * Chromium's own accessible-name computation covers cases the in-page one does not (names from
 * CSS content, nested labelling). Exact names only: that is all `::-p-aria` offers.
 */
async function findInAccessibilityTree(page: Frame, target: Target): Promise<LocateResult | undefined> {
  if (!target.role || !target.name || /["\\\]]/.test(target.name)) return undefined;
  for (const role of ROLE_FAMILIES[target.role]) {
    const handles = await page.$$(
      `::-p-aria([name="${target.name}"][role="${CHROMIUM_ROLE[role] ?? role}"])`,
    );
    if (handles.length === 0) continue;
    // "The second 'Delete' button": the tree lists matches in document order.
    const at = target.nth === undefined ? 0 : target.nth === -1 ? handles.length - 1 : target.nth - 1;
    const chosen = handles[at];
    const rest = handles.filter((h) => h !== chosen);
    // Exact role and name: every visible one is as good as another.
    const others =
      chosen && target.nth === undefined ? await Promise.all(rest.map((h) => h.isVisible())) : [];
    await Promise.all(rest.map((h) => h.dispose()));
    if (!chosen) continue;
    const visible = await chosen.isVisible();
    return {
      handle: chosen,
      strategy: 'accessibility tree',
      count: handles.length,
      visibleCount: visible ? 1 : 0,
      visible,
      ambiguous: handles.length > 1 && target.nth === undefined,
      tied: others.filter(Boolean).length + (visible ? 1 : 0),
    };
  }
  return undefined;
}

/** Nested containers opened one at a time ("Docs" › "Misc" › the file) before a match counts as not shown. */
const MAX_REVEALS = 4;

/** Polls until `target` matches (and, by default, is visible) or the timeout passes. */
export async function locate(page: Page, target: Target, options: LocateOptions): Promise<LocateResult> {
  const requireVisible = options.requireVisible ?? true;
  const pollMs = options.pollMs ?? 100;
  const deadline = Date.now() + options.timeoutMs;
  let tried: string[] = [];
  let hidden: { strategy: string; count: number } | undefined;
  let problem: string | undefined;
  let closest: string[] = [];
  let hovers = 0;
  let reveals = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const found = await findOnce(page, target, options.prefer, { strict: options.strict ?? false });
    const { match, tried: attempted } = found;
    if (match) {
      if (match.visible || !requireVisible) {
        await found.hover?.dispose().catch(() => undefined);
        return match;
      }
      hidden = { strategy: match.strategy, count: match.count };
      const opened =
        options.reveal && requireVisible && reveals < MAX_REVEALS
          ? await options.reveal(match.handle).catch(() => false)
          : false;
      await match.handle.dispose().catch(() => undefined);
      if (opened) {
        reveals++;
        continue;
      }
    }
    problem = found.problem;
    if (found.closest) closest = found.closest;
    if (found.hover) {
      // A person hovers the row to see its buttons; do it once or twice, not on every look.
      if (options.hover && requireVisible && hovers < 2) {
        hovers++;
        await options.hover(found.hover).catch(() => undefined);
      }
      await found.hover.dispose().catch(() => undefined);
    }
    if (attempted.length > 0) tried = attempted;
    if (Date.now() >= deadline || found.final) {
      throw new ElementNotFoundError(
        target,
        options.limit ?? `${options.timeoutMs} ms`,
        tried,
        hidden,
        problem,
        closest,
      );
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

/**
 * Every visible match of `target` in document order, for targets that mean all of them ("all the
 * checkboxes", "Reply on every post", "the second-to-last row"): the matches of the best strategy,
 * in the first frame (the page's first) that has any. Polls like `locate`; none visible by the
 * deadline is an `ElementNotFoundError`. The caller disposes the handles. `keys` tell each match
 * apart (its row's text and its own) should the page draw it anew before it is acted on.
 */
export async function locateAll(
  page: Page,
  target: Target,
  options: Pick<LocateOptions, 'timeoutMs' | 'prefer' | 'signal' | 'limit' | 'pollMs'>,
): Promise<{ handles: ElementHandle[]; strategy: string; keys: string[] }> {
  const deadline = Date.now() + options.timeoutMs;
  const query: PageQuery = {
    name: target.name,
    roles: target.role ? [...ROLE_FAMILIES[target.role]] : null,
    prefer: target.role ? null : (options.prefer ?? null),
    nth: null,
    near: target.near ?? null,
    inRow: target.inRow ?? null,
    ignoreId: CURSOR_ELEMENT_ID,
    shownInstruction: stepSentences.get(page) ?? null,
    color: target.color ?? null,
  };
  let tried: string[] = [];
  for (;;) {
    options.signal?.throwIfAborted();
    for (const frame of page.frames().filter((f) => !f.detached)) {
      const match = await frame.evaluateHandle(findInPage, query).catch((error: unknown) => {
        if (isContextLost(error)) return undefined;
        throw error;
      });
      if (!match) continue;
      // The ranked list puts visible matches first; document order is what "each" walks.
      const found = await match
        .evaluateHandle((m) => {
          const shown = m.elements.slice(0, m.visibleCount);
          shown.sort((a, b) =>
            a === b
              ? 0
              : (a as unknown as { compareDocumentPosition(o: unknown): number }).compareDocumentPosition(b) &
                  4
                ? -1
                : 1,
          );
          // What tells a match apart when the page draws it anew: its row's text and its own.
          const keys = shown.map((el) => {
            let row: typeof el | null = el;
            while (
              row &&
              !/^(?:LI|TR|ARTICLE)$/.test(row.tagName) &&
              !/^(?:row|listitem|article)$/.test(row.getAttribute('role') ?? '')
            )
              row = row.parentElement;
            const text = (node: typeof el | null) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
            return `${el.tagName}|${text(row)}|${text(el)}`;
          });
          return { strategy: m.strategy, tried: m.tried, shown, keys };
        })
        .finally(() => void match.dispose().catch(() => undefined));
      try {
        const meta = await found.evaluate((f) => ({
          strategy: f.strategy,
          tried: f.tried,
          count: f.shown.length,
          keys: f.keys,
        }));
        if (frame === page.mainFrame()) tried = meta.tried;
        if (meta.strategy === null || meta.count === 0) continue;
        const list = await found.getProperty('shown');
        const properties = await list.getProperties();
        await list.dispose();
        const handles = [...properties.values()]
          .map((p) => p.asElement() as ElementHandle | null)
          .filter((h): h is ElementHandle => h !== null);
        return { handles, strategy: meta.strategy, keys: meta.keys };
      } finally {
        await found.dispose().catch(() => undefined);
      }
    }
    if (Date.now() >= deadline)
      throw new ElementNotFoundError(target, options.limit ?? `${options.timeoutMs} ms`, tried);
    await delay(Math.min(options.pollMs ?? 100, Math.max(0, deadline - Date.now())));
  }
}
