import type { ElementHandle } from 'puppeteer-core';
import { describeTarget, ElementNotFoundError, findOnce, locateAll } from './element-locator.js';
import { StepFailedError } from './run-limits.js';
import { type ActionStep, runAction } from './step-actions.js';
import { runAssertion } from './step-assertions.js';
import { disposeQuietly, logTarget, sleep, type StepContext } from './step-context.js';
import type { DomElement } from './page-dom.js';
import { keptValue, readValue } from './page-values.js';
import { isAssertion, type Step, type Target, type TypeStep } from './step-types.js';
import { applyTransforms } from './text-transforms.js';
import { entryNoun, singularOf } from './named-items.js';
import { namedItems } from './element-state-script.js';
import { nextPageControl, shownPageText } from './table-pager-script.js';

/**
 * Runs one step of either engine. What the clause grammar adds is done here, around the actions
 * and assertions themselves: a target that means every match ("check all the checkboxes", "Reply on
 * every post by @ada") acts on each in document order, and a position counted from the end ("the
 * second-to-last row") is found among all matches.
 */
export async function runStep(ctx: StepContext, step: Step): Promise<string> {
  if (isAssertion(step)) return runAssertion(ctx, step);
  if (step.action === 'readValue') return readValue(ctx, step);
  const action = step.action === 'type' && step.valueFrom !== undefined ? withKeptValue(ctx, step) : step;
  const target = 'target' in action ? action.target : undefined;
  if (target?.all) return runOnEach(ctx, action, target);
  if (target?.nth !== undefined && target.nth < -1) return runFromEnd(ctx, action, target);
  if (target?.inRow !== undefined && target.inRow < -1) return runInRowFromEnd(ctx, action, target);
  if (target && isToggleAll(target)) return runToggleAll(ctx, action, target);
  if (target && action.action === 'click' && isPagedEntry(target)) return runPagedEntry(ctx, action, target);
  if (target?.paged) return runOnPageShowing(ctx, action, target);
  if (target && (action.action === 'click' || action.action === 'check') && LIST_NAME_RE.test(target.name))
    return runNamedList(ctx, action, target);
  return runAction(ctx, action);
}

/** "The 5th search result", "the 12th product": an entry by its position, on any page of a paged list. */
function isPagedEntry(target: Target): boolean {
  return (
    target.nth !== undefined &&
    target.nth > 1 &&
    !target.role &&
    target.near === undefined &&
    target.inRow === undefined &&
    entryNoun(target.name) !== undefined
  );
}

/**
 * A list that shows a few entries a page (a search engine's results): when this page holds fewer
 * than the position asked for, the pager is followed (page 2, 3 … or Next) counting the entries of
 * each page, and the entry is clicked on the page that holds it.
 */
async function runPagedEntry(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  const noun = singularOf(entryNoun(target.name) ?? '');
  const count = async () => (await ctx.page.evaluate(namedItems, noun).catch(() => null))?.texts ?? [];
  let left = target.nth ?? 1;
  let shown = await count();
  let page = 1;
  const turned: string[] = [];
  while (shown.length > 0 && left > shown.length && page < MAX_PAGES) {
    if (!(await turnToPage(ctx, page + 1))) break;
    left -= shown.length;
    page++;
    turned.push(String(page));
    const before = shown.join('\n');
    // The next page's entries: wait until the list shows others.
    for (;;) {
      shown = await count();
      if (shown.join('\n') !== before || Date.now() >= ctx.deadline) break;
      await sleep(100, ctx.signal);
    }
  }
  const said = await runAction(ctx, { ...step, target: { ...target, nth: left } } as ActionStep);
  return turned.length > 0 ? `went to page ${turned.join(', then ')}; ${said}` : said;
}
const MAX_PAGES = 20;

/** Clicks the pager's page `page` (or Next); false when the page has no such control. */
async function turnToPage(ctx: StepContext, page: number): Promise<boolean> {
  const next = (await ctx.page.evaluateHandle(nextPageControl, page)).asElement() as ElementHandle | null;
  if (!next) return false;
  try {
    await ctx.pointer.clickOn(next, `page ${page}`, {
      deadline: ctx.deadline,
      actionTimeoutMs: ctx.limits.actionTimeoutMs,
    });
    return true;
  } finally {
    await disposeQuietly(next);
  }
}

/**
 * "Click the phone number next to "Ada" on any page": while the page does not show the text the
 * element sits next to (or, without one, the element's own name), the pager is followed (page 2,
 * 3 … or Next); the step then runs on the page that shows it, or fails naming the pages seen.
 */
async function runOnPageShowing(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  const { paged: _paged, ...rest } = target;
  const wanted = (target.near ?? target.name)
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .toLowerCase();
  const pageText = () => ctx.page.evaluate(shownPageText, step.text ?? '').catch(() => '');
  const turned: string[] = [];
  let text = await pageText();
  for (let page = 1; page < MAX_PAGES && wanted !== '' && !text.includes(wanted); page++) {
    if (!(await turnToPage(ctx, page + 1))) break;
    turned.push(String(page + 1));
    // The next page: wait until the page shows something else.
    const before = text;
    while ((text = await pageText()) === before && Date.now() < ctx.deadline) await sleep(100, ctx.signal);
  }
  const said = await runAction(ctx, { ...step, target: rest } as ActionStep);
  return turned.length > 0 ? `went to page ${turned.join(', then ')}; ${said}` : said;
}

/** "ONE and THREE", "Apple, Kiwi and Plum": a name that may be several. */
const LIST_NAME_RE = /\S(?:\s*,\s*|\s+and\s+)\S/i;

/**
 * "Click ONE and THREE": a name with "and" is one control ("Terms and Conditions") when the page has
 * it; otherwise, when each part names a control, the step acts on each in the order written.
 */
async function runNamedList(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  const whole = await findOnce(ctx.page, target);
  await disposeQuietly(whole.match?.handle);
  await disposeQuietly(whole.hover);
  const parts = target.name.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).map((part) => part.trim());
  if (whole.match || parts.length < 2 || parts.some((part) => !part)) return runAction(ctx, step);
  for (const part of parts) {
    const one = await findOnce(ctx.page, { ...target, name: part });
    const visible = one.match?.visible === true;
    await disposeQuietly(one.match?.handle);
    await disposeQuietly(one.hover);
    if (!visible) return runAction(ctx, step);
  }
  const said: string[] = [];
  for (const part of parts)
    said.push(await runAction(ctx, { ...step, target: { ...target, name: part } } as ActionStep));
  // Recorded by its words, not by the last control's locator: a replay clicks each part again.
  ctx.report.element = undefined;
  return said.join('; ');
}

/** A type step whose text was read earlier in the run ("type ORDER into …", "paste it into …"). */
function withKeptValue(ctx: StepContext, step: TypeStep): TypeStep {
  const name = step.valueFrom ?? '';
  const kept = keptValue(ctx.page, name);
  if (kept === undefined)
    throw new StepFailedError(
      name === 'clipboard'
        ? 'nothing was copied before this step, so there is nothing to paste'
        : `no earlier step read a value called ${name}`,
    );
  return { ...step, value: applyTransforms(kept, step.transforms) };
}

/** How TodoMVC's frameworks mark the toggle-all checkbox when its label has no text (Vue's has none). */
const TOGGLE_ALL_CSS = '#toggle-all, input.toggle-all, [data-testid="toggle-all"]';

function isToggleAll(target: Target): boolean {
  return (
    target.name === 'all' &&
    target.role === 'checkbox' &&
    target.nth === undefined &&
    target.near === undefined &&
    target.inRow === undefined
  );
}

/**
 * "Mark all as complete", "toggle all": the checkbox named "all" (by its label, however it is
 * drawn), or, when nothing is named so, the one TodoMVC apps mark by id, class or test id.
 */
async function runToggleAll(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  for (;;) {
    const named = await findOnce(ctx.page, target, 'checkable');
    await disposeQuietly(named.match?.handle);
    await disposeQuietly(named.hover);
    if (named.match) return runAction(ctx, step);
    const marked = await findOnce(ctx.page, { name: TOGGLE_ALL_CSS, role: 'checkbox' });
    await disposeQuietly(marked.match?.handle);
    await disposeQuietly(marked.hover);
    if (marked.match?.strategy === 'css')
      return runAction(ctx, { ...step, target: { name: TOGGLE_ALL_CSS, role: 'checkbox' } } as ActionStep);
    if (Date.now() >= ctx.deadline) return runAction(ctx, step);
    await sleep(100, ctx.signal);
  }
}

const EACH_ACTIONS = new Set([
  'click',
  'type',
  'clear',
  'select',
  'check',
  'uncheck',
  'hover',
  'focus',
  'scrollTo',
]);

async function runOnEach(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  if (!EACH_ACTIONS.has(step.action))
    throw new StepFailedError(`"${step.action}" cannot act on every match of ${describeAll(target)}`);
  ctx.report.target = logTarget(target);
  const plain = withoutAll(target);
  const find = () =>
    locateAll(ctx.page, plain, {
      timeoutMs: Math.max(0, ctx.deadline - Date.now()),
      limit: `the action timeout of ${ctx.limits.actionTimeoutMs} ms`,
      signal: ctx.signal,
      ...(step.action === 'type' || step.action === 'clear' ? { prefer: 'editable' as const } : {}),
      ...(step.action === 'check' || step.action === 'uncheck' ? { prefer: 'checkable' as const } : {}),
    });
  const { handles, strategy, keys } = await find().catch((error: unknown) => {
    if (!(error instanceof ElementNotFoundError)) throw error;
    throw new StepFailedError(
      `nothing on the page matches ${describeAll(target)} (looked for ${describeTarget(plain)} ${error.message.replace(/^no element matches .*? within /, 'within ')})`,
    );
  });
  if (target.first !== undefined) {
    if (handles.length < target.first) {
      await Promise.all(handles.map((h) => disposeQuietly(h)));
      throw new StepFailedError(
        `the step names ${target.first} of ${describeTarget(plain)}, but the page has only ${handles.length}`,
      );
    }
    await Promise.all(handles.splice(target.first).map((h) => disposeQuietly(h)));
  }
  if (target.count !== undefined && handles.length !== target.count) {
    await Promise.all(handles.map((h) => disposeQuietly(h)));
    throw new StepFailedError(
      `the step names ${target.count} of ${describeTarget(plain)}, but the page has ${handles.length} (say which ones)`,
    );
  }
  const said: string[] = [];
  const each: string[] = [];
  try {
    for (const [index, found] of handles.entries()) {
      const one = { ...plain, nth: index + 1 };
      handles[index] = undefined as never;
      // Acting on one match may have made the page draw the others anew (a to-do list re-rendered
      // after a checkbox changed): find this one again by its row and text.
      const handle = (await isConnected(found)) ? found : await findAgain(find, keys, index, found);
      if (!handle) continue;
      ctx.only = { handle, strategy, count: handles.length };
      ctx.report.element = undefined;
      said.push(await runAction(ctx, { ...step, target: one } as ActionStep));
      const css = recordedCss(ctx);
      if (css) each.push(css);
    }
  } finally {
    ctx.only = undefined;
    await Promise.all(handles.map((h) => disposeQuietly(h)));
  }
  ctx.report.candidates = said.length;
  ctx.report.strategy = strategy;
  // An exported script repeats the action on each element it acted on.
  ctx.report.element = each.length === said.length && each[0] ? { css: each[0], each } : undefined;
  return `${said.length === 1 ? 'the only match' : `each of ${said.length} matches`} of ${describeAll(target)}: ${said.join('; ')}`;
}

async function runFromEnd(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  const position = target.nth ?? -1;
  const found = await locateAll(
    ctx.page,
    { ...target, nth: undefined },
    {
      timeoutMs: Math.max(0, ctx.deadline - Date.now()),
      limit: `the action timeout of ${ctx.limits.actionTimeoutMs} ms`,
      signal: ctx.signal,
    },
  );
  const { strategy } = found;
  let { handles } = found;
  // "The last row" of a table means its rows of data, not the header (as the locator counts them).
  if (target.role === 'row') {
    const header = await Promise.all(
      handles.map((h) =>
        h.evaluate(
          (el: DomElement) =>
            el.parentElement?.tagName === 'THEAD' ||
            (el.children.length > 0 && Array.from(el.children).every((c) => c.tagName === 'TH')),
        ),
      ),
    );
    const headers = handles.filter((_, i) => header[i]);
    await Promise.all(headers.map((h) => disposeQuietly(h)));
    handles = handles.filter((_, i) => !header[i]);
  }
  const chosen = handles[handles.length + position];
  const others = handles.filter((h) => h !== chosen);
  await Promise.all(others.map((h) => disposeQuietly(h)));
  if (!chosen) {
    ctx.report.target = logTarget(target);
    throw new StepFailedError(
      `there is no ${describeTarget(target).replace(/^the /, '')}: only ${handles.length} ${handles.length === 1 ? 'match' : 'matches'} on the page`,
    );
  }
  ctx.only = { handle: chosen, strategy, count: handles.length };
  try {
    return await runAction(ctx, step);
  } finally {
    ctx.only = undefined;
  }
}

async function isConnected(handle: ElementHandle): Promise<boolean> {
  return handle
    .evaluate((el: DomElement) => (el as unknown as { isConnected: boolean }).isConnected)
    .catch(() => false);
}

/**
 * The match that was `keys[index]` before the page was drawn anew: the same occurrence of the same
 * key among the matches now; undefined when it is gone (removed by acting on an earlier match).
 */
async function findAgain(
  find: () => Promise<{ handles: ElementHandle[]; keys: string[] }>,
  keys: readonly string[],
  index: number,
  stale: ElementHandle,
): Promise<ElementHandle | undefined> {
  await disposeQuietly(stale);
  const key = keys[index];
  const occurrence = keys.slice(0, index).filter((k) => k === key).length;
  const now = await find().catch(() => ({ handles: [] as ElementHandle[], keys: [] as string[] }));
  const positions = now.keys.flatMap((k, i) => (k === key ? [i] : []));
  const chosen = now.handles[positions[occurrence] ?? -1];
  await Promise.all(now.handles.filter((h) => h !== chosen).map((h) => disposeQuietly(h)));
  return chosen;
}

/** The CSS path of the element the last action recorded (read through a call: the compiler narrows it). */
function recordedCss(ctx: StepContext): string | undefined {
  return ctx.report.element?.css;
}

/**
 * "Delete in the second-to-last row": the row counted from the end among the rows the locator
 * counts (visible list items and rows of data, the outermost when lists nest), as a position from
 * the start.
 */
async function runInRowFromEnd(ctx: StepContext, step: ActionStep, target: Target): Promise<string> {
  const fromEnd = target.inRow ?? -1;
  const rows = await ctx.page.evaluate(countRows);
  const inRow = rows + fromEnd + 1;
  if (inRow < 1) {
    ctx.report.target = logTarget(target);
    throw new StepFailedError(
      `there is no ${describeTarget(target).replace(/^.* in the /, '')}: the page has ${rows} ${rows === 1 ? 'row' : 'rows'}`,
    );
  }
  return runAction(ctx, { ...step, target: { ...target, inRow } } as ActionStep);
}

/** In the page: visible list items and rows of data (not header rows), the outermost when they nest. */
function countRows(): number {
  const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<DomElement> } })
    .document;
  const rows = Array.from(doc.querySelectorAll('li, tr, [role=row], [role=listitem]')).filter((el) => {
    const box = el as unknown as { getClientRects(): ArrayLike<unknown>; closest(s: string): unknown };
    if (box.getClientRects().length === 0) return false;
    if (
      el.tagName === 'TR' &&
      (el.parentElement?.tagName === 'THEAD' || Array.from(el.children).every((c) => c.tagName === 'TH'))
    )
      return false;
    return true;
  });
  return rows.filter(
    (el) =>
      !rows.some(
        (other) => other !== el && (other as unknown as { contains(n: unknown): boolean }).contains(el),
      ),
  ).length;
}

function withoutAll(target: Target): Target {
  const { all: _all, ...rest } = target;
  return rest;
}

function describeAll(target: Target): string {
  return describeTarget(withoutAll(target)).replace(/^the /, 'every ');
}
