import { checkNamedItem, countNamedItems, itemNoun, singularOf } from './named-items.js';
import { describeTarget, findOnce, type FindOutcome } from './element-locator.js';
import {
  checkboxInRow,
  contentListItemCount,
  type ElementSnapshot,
  readElementState,
  textsHolding,
} from './element-state-script.js';
import { normalizeUrl } from './instruction-parser.js';
import { StepFailedError } from './run-limits.js';
import { safePageText } from './step-actions.js';
import {
  describeFound,
  disposeQuietly,
  exportable,
  logTarget,
  sleep,
  type StepContext,
} from './step-context.js';
import { compileUserPattern, UserPatternError } from './user-pattern.js';
import { MOTION_GRACE_MS, needsSettling, SettleTracker } from './page-settle.js';
import { checkTable, countTableRows } from './table-assertions.js';
import {
  COMPARISON_WORDS,
  countHolds,
  differsOnlyInCase,
  quote,
  saysWhole,
  textMatches,
} from './text-match.js';
import type {
  AssertCountStep,
  AssertElementTextStep,
  AssertionStep,
  AssertStateStep,
  AssertTextStep,
  AssertUrlStep,
  AssertValueStep,
  MatchMode,
  Target,
} from './step-types.js';

export interface Check {
  ok: boolean;
  /** What held, or what was expected and what was found. */
  message: string;
  /** The answer read (a count, a row's text): a pass must read the same answer twice. Default: the message. */
  key?: string;
  /** The pass rests on nothing being there (0 rows, no such text): data may still be on its way. */
  vacuous?: boolean;
}

export { countHolds, textMatches } from './text-match.js';

const RETRY_INTERVAL_MS = 150;

/**
 * Checks an assertion, retrying until it holds or its time runs out (like Playwright's `expect`), so
 * a page that is still rendering does not fail a test that would pass a moment later.
 */
export async function runAssertion(ctx: StepContext, step: AssertionStep): Promise<string> {
  const timeoutMs =
    step.timeoutMs ?? (step.patient ? ctx.limits.actionTimeoutMs : ctx.limits.assertionTimeoutMs);
  const deadline = Date.now() + timeoutMs;
  refuseUnrunnablePattern(step);
  // A list, table or "not" assertion passes only on a page that has settled: the same answer twice,
  // nothing changing between, after a filter's debounce had time to run.
  // Any other pass read right after an action is read again with the page quiet between.
  // (The URL and the title are not drawn: a first read of them stands.)
  const settle = new SettleTracker(
    ctx.page,
    !needsSettling(step),
    step.action === 'assertUrl' || step.action === 'assertTitle',
  );
  let graceUntil = 0;
  for (;;) {
    const check = await checkOnce(ctx, step);
    if (check.ok && (await settle.settled(check.key ?? check.message, check.vacuous === true)))
      return check.message;
    if (!check.ok) settle.reset();
    // Out of time on a pass not yet confirmed: it stands once the last action's effects had time to
    // show, and the page is not still animating (a little longer is given for that, once).
    if (Date.now() >= Math.max(deadline, graceUntil) && check.ok) {
      if (await settle.standsAtDeadline()) return check.message;
      if (graceUntil === 0) graceUntil = Date.now() + MOTION_GRACE_MS;
      else return check.message;
    }
    if (Date.now() >= deadline && !check.ok) {
      const limit =
        step.timeoutMs !== undefined
          ? `${timeoutMs} ms`
          : step.patient
            ? `the action timeout of ${timeoutMs} ms`
            : `the assertion timeout of ${timeoutMs} ms`;
      throw new StepFailedError(`${check.message} (kept checking for ${limit})`);
    }
    const pause = settle.nextReadMs(RETRY_INTERVAL_MS);
    const room = deadline - Date.now();
    await sleep(room > 0 ? Math.min(pause, room) : pause, ctx.signal);
  }
}

/** A pattern RE2 cannot run fails the step at once: retrying would not change the answer. */
function refuseUnrunnablePattern(step: AssertionStep): void {
  if (!('mode' in step) || step.mode !== 'matches') return;
  try {
    compileUserPattern(step.expected);
  } catch (error) {
    if (error instanceof UserPatternError) throw new StepFailedError(error.message);
    throw error;
  }
}

function checkOnce(ctx: StepContext, step: AssertionStep): Promise<Check> {
  switch (step.action) {
    case 'assertText':
      return checkPageText(ctx, step);
    case 'assertTitle':
      return ctx.page
        .title()
        .then((title) => compareCheck('the title', title, step.expected, step.mode, step.negate, 'text'))
        .catch(() => ({ ok: false, message: 'the page title could not be read (the page was navigating)' }));
    case 'assertUrl':
      return Promise.resolve(checkUrl(ctx.page.url(), step));
    case 'assertState':
      return checkState(ctx, step);
    case 'assertValue':
    case 'assertElementText':
      return checkElementText(ctx, step);
    case 'assertCount':
      return checkCount(ctx, step);
    case 'assertTable':
      return checkTable(ctx, step);
  }
}

const VERBS: Readonly<Record<MatchMode, readonly [string, string]>> = {
  equals: ['to be', 'not to be'],
  contains: ['to contain', 'not to contain'],
  startsWith: ['to start with', 'not to start with'],
  endsWith: ['to end with', 'not to end with'],
  matches: ['to match', 'not to match'],
};

function compareCheck(
  subject: string,
  actual: string,
  expected: string,
  mode: MatchMode,
  negate: boolean,
  kind: 'text' | 'value',
): Check {
  const matched = textMatches(actual, expected, mode);
  const verb = VERBS[mode][negate ? 1 : 0];
  const ok = matched !== negate;
  const phrase = `${subject} ${verb} "${expected}"`;
  if (ok) return { ok, message: `${subject} is ${quote(actual)}` };
  const found = kind === 'value' ? `its value was ${quote(actual)}` : `it was ${quote(actual)}`;
  return { ok, message: `expected ${phrase} but ${found}` };
}

function stripSlash(text: string): string {
  return text.length > 1 ? text.replace(/\/+$/, '') : text;
}

/** URL comparisons accept a path ("/dashboard") or a bare host where people write one. */
export function urlMatches(actual: string, expected: string, mode: MatchMode): boolean {
  let parsed: URL | undefined;
  try {
    parsed = new URL(actual);
  } catch {
    parsed = undefined;
  }
  switch (mode) {
    case 'equals': {
      if (expected.startsWith('/') && parsed) {
        const path = parsed.pathname;
        return (
          stripSlash(path) === stripSlash(expected) || `${path}${parsed.search}${parsed.hash}` === expected
        );
      }
      const absolute = normalizeUrl(expected);
      try {
        return absolute !== undefined && stripSlash(new URL(absolute).href) === stripSlash(actual);
      } catch {
        return false;
      }
    }
    case 'contains':
      return actual.includes(expected);
    case 'startsWith': {
      const absolute = normalizeUrl(expected);
      return actual.startsWith(expected) || (absolute !== undefined && actual.startsWith(absolute));
    }
    case 'endsWith':
      return actual.endsWith(expected) || stripSlash(actual).endsWith(stripSlash(expected));
    case 'matches':
      return compileUserPattern(expected).test(actual);
  }
}

function checkUrl(actual: string, step: AssertUrlStep): Check {
  const ok = urlMatches(actual, step.expected, step.mode) !== step.negate;
  if (ok) return { ok, message: `the URL is "${actual}"` };
  return {
    ok,
    message: `expected the URL ${VERBS[step.mode][step.negate ? 1 : 0]} "${step.expected}" but it was "${actual}"`,
  };
}

function excerptAround(text: string, needle: string): string {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return quote(text, 120);
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, at + needle.length + 40);
  return `"${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}"`;
}

async function checkPageText(ctx: StepContext, step: AssertTextStep): Promise<Check> {
  if (step.words) {
    const words = step.expected.split(/\s+/).filter(Boolean);
    const said = await ctx.page.evaluate(elementSayingAll, words).catch(() => undefined);
    if (said === undefined)
      return { ok: false, message: 'the page text could not be read (the page was navigating)' };
    const ok = (said !== null) !== step.negate;
    const list = words.map((w) => `"${w}"`).join(', ');
    return {
      ok,
      ...(step.negate ? { vacuous: said === null } : {}),
      message:
        said !== null
          ? `${step.negate ? 'expected no part of the page to say' : 'the page says'} ${list} together: ${quote(said, 160)}`
          : `expected one part of the page to say ${list} together, but none does`,
    };
  }
  const text = await safePageText(ctx.page);
  if (text === undefined)
    return { ok: false, message: 'the page text could not be read (the page was navigating)' };
  let present = textMatches(text, step.expected, 'contains');
  if (present && step.whole) {
    const texts = await ctx.page.evaluate(textsHolding, step.expected).catch(() => [] as string[]);
    present = texts.some((shown) => saysWhole(shown, step.expected));
    if (!present && !step.negate) {
      return {
        ok: false,
        message: `expected the page to say "${step.expected}" but the page goes on with more of that list: ${texts
          .slice(0, 3)
          .map((shown) => quote(shown, 120))
          .join(', ')}`,
      };
    }
  }
  if (!step.negate) {
    if (present) return { ok: true, message: `the page contains ${excerptAround(text, step.expected)}` };
    const shows = text ? `; the page text begins ${quote(text, 120)}` : '; the page has no text';
    return {
      ok: false,
      message: `expected the page to contain "${step.expected}" but it is not present${shows}`,
    };
  }
  if (!present) return { ok: true, vacuous: true, message: `the page does not contain "${step.expected}"` };
  return {
    ok: false,
    message: `expected the page not to contain "${step.expected}" but it does: ${excerptAround(text, step.expected)}`,
  };
}

/**
 * Finds the element and reads its state in one go; a page between documents counts as "not found
 * yet". `checkable`: a to-do's text stands for the checkbox in its row ("'Buy milk' is checked").
 */
async function snapshot(
  ctx: StepContext,
  target: Target,
  checkable = false,
): Promise<{ outcome: FindOutcome; state?: ElementSnapshot }> {
  const outcome = await findOnce(ctx.page, target, checkable ? 'checkable' : undefined);
  const match = outcome.match;
  if (!match) return { outcome };
  ctx.report.strategy = match.strategy;
  ctx.report.candidates = match.count;
  ctx.report.ambiguous = match.ambiguous;
  try {
    let state = await match.handle.evaluate(readElementState, target.name);
    if (checkable && state.checked === null) {
      const inRow = (await match.handle.evaluateHandle(checkboxInRow)).asElement();
      if (inRow) {
        state = await inRow.evaluate(readElementState);
        await inRow.dispose().catch(() => undefined);
      }
    }
    ctx.report.element = exportable(target, await describeFound(match.handle));
    return { outcome, state };
  } catch {
    return { outcome: { tried: outcome.tried } };
  } finally {
    await disposeQuietly(match.handle);
  }
}

function notFound(describe: string, expectation: string, outcome: FindOutcome): Check {
  const tried = outcome.tried.length > 0 ? ` (tried: ${outcome.tried.join(', ')})` : '';
  return { ok: false, message: `expected ${describe} ${expectation} but no element matches it${tried}` };
}

async function checkState(ctx: StepContext, step: AssertStateStep): Promise<Check> {
  const describe = describeTarget(step.target);
  ctx.report.target = logTarget(step.target);
  const checkable = step.state === 'checked' || step.state === 'unchecked';
  const { outcome, state: found } = await snapshot(ctx, step.target, checkable);
  const expectation = `to be ${step.state === 'readonly' ? 'read-only' : step.state}`;
  // Text named without a kind ("\"User: ADA\" is shown") is the text as written: the locator's
  // case-blind match on "User: ada" is another text (smart case, as for the page's text).
  const otherCase =
    found && !step.target.role && differsOnlyInCase([found.text, found.value], step.target.name);
  const state = otherCase ? undefined : found;
  if (otherCase && step.state !== 'hidden') {
    return {
      ok: false,
      message: `expected ${describe} ${expectation} but the page shows it only as ${quote(found.text || found.value)} (another case)`,
    };
  }
  if (step.state === 'hidden') {
    if (!state || !state.visible)
      return {
        ok: true,
        vacuous: true,
        message: state ? `${describe} is hidden` : `${describe} is not on the page`,
      };
    return { ok: false, message: `expected ${describe} to be hidden but it is visible` };
  }
  if (!state) return notFound(describe, expectation, outcome);
  const fail = (found: string): Check => ({
    ok: false,
    message: `expected ${describe} ${expectation} but ${found}`,
  });
  const pass: Check = {
    ok: true,
    message: `${describe} is ${step.state === 'readonly' ? 'read-only' : step.state}`,
  };
  switch (step.state) {
    case 'visible':
      return state.visible ? pass : fail('it is hidden');
    case 'enabled':
      return !state.disabled ? pass : fail('it is disabled');
    case 'disabled':
      return state.disabled ? pass : fail('it is enabled');
    case 'checked':
    case 'unchecked': {
      if (state.checked === null) return fail(`it is a <${state.tag}> with no checked state`);
      const wanted = step.state === 'checked';
      return state.checked === wanted ? pass : fail(`it is ${state.checked ? 'checked' : 'unchecked'}`);
    }
    case 'expanded':
    case 'collapsed': {
      if (state.expanded === null) return fail(`it is a <${state.tag}> that does not open or close`);
      const wanted = step.state === 'expanded';
      return state.expanded === wanted ? pass : fail(`it is ${state.expanded ? 'expanded' : 'collapsed'}`);
    }
    case 'bold':
      return state.bold ? pass : fail('it is not bold');
    case 'italic':
      return state.italic ? pass : fail('it is not in italics');
    case 'focused':
      return state.focused ? pass : fail('it does not have focus');
    case 'empty': {
      const content = state.isField || state.editable ? state.value : state.text;
      return content.trim() === '' ? pass : fail(`it contains ${quote(content)}`);
    }
    case 'editable':
      return state.editable && !state.disabled && !state.readonly
        ? pass
        : fail(
            state.editable ? 'it is read-only or disabled' : `it is a <${state.tag}>, which cannot be edited`,
          );
    case 'readonly':
      return !state.editable || state.readonly || state.disabled ? pass : fail('it is editable');
  }
}

async function checkElementText(
  ctx: StepContext,
  step: AssertValueStep | AssertElementTextStep,
): Promise<Check> {
  const describe = describeTarget(step.target);
  ctx.report.target = logTarget(step.target);
  // "The editor shows "Ada"" on a page of many editable parts (a JSON editor's fields): named only
  // by its kind, the one that holds the text is meant, when one does.
  const { name, nth, inRow } = step.target;
  const holding =
    !name && nth === undefined && inRow === undefined && !step.negate && step.mode !== 'matches';
  const { outcome, state } = await snapshot(
    ctx,
    holding ? { ...step.target, holding: step.expected } : step.target,
  );
  const isValue = step.action === 'assertValue';
  const noun = isValue ? 'value' : 'text';
  const wording: Readonly<Record<MatchMode, string>> = {
    equals: `to have ${noun} "${step.expected}"`,
    contains: `to contain "${step.expected}"`,
    startsWith: `to start with "${step.expected}"`,
    endsWith: `to end with "${step.expected}"`,
    matches: `to match "${step.expected}"`,
  };
  const expectation = step.negate ? wording[step.mode].replace(/^to /, 'not to ') : wording[step.mode];
  if (!state) {
    // "The second post says "Coffee first"" where nothing is named "post": that item of the posts.
    if (nth !== undefined && !step.target.role && inRow === undefined && itemNoun(name)) {
      const item = await checkNamedItem(ctx, name, nth, step.expected, step.mode, step.negate);
      if (item) return item;
    }
    const shown = await shownElsewhere(ctx, step);
    if (shown)
      return {
        ok: true,
        message: `no element is named ${describe}; the page shows ${quote(shown)} as expected`,
      };
    return notFound(describe, expectation, outcome);
  }
  // A field's "text" is what is typed in it; anything else's "value" is its text.
  const shown = state.isField || (state.editable && isValue) ? state.value : state.text;
  // "The first row is "Eve Park"": a row is the one that holds that, not a row of that text alone.
  const mode = step.target.role === 'row' && step.mode === 'equals' ? 'contains' : step.mode;
  // The text as shown ("Clicks: 2") or without the element's own label ("ONE TWO" of "Log: ONE TWO").
  const matched =
    textMatches(shown, step.expected, mode) ||
    textMatches(withoutOwnLabel(shown, step.target.name), step.expected, mode);
  const ok = matched !== step.negate;
  if (ok) return { ok, message: `${describe} ${isValue ? 'has value' : 'shows'} ${quote(shown)}` };
  const found = state.isField ? `its value was ${quote(shown)}` : `its text was ${quote(shown)}`;
  return { ok, message: `expected ${describe} ${expectation} but ${found}` };
}

/**
 * "The counter should read "0 items left"" where nothing is named "counter" (TodoMVC's
 * `span.todo-count`): an element that shows exactly that text (or contains it, for "contains")
 * stands for the thing described. Only for a positive text check of a target given by words alone
 * (no kind, position or row): the text itself must be on the page, so a wrong value still fails.
 */
async function shownElsewhere(
  ctx: StepContext,
  step: AssertValueStep | AssertElementTextStep,
): Promise<string | undefined> {
  const { target } = step;
  if (step.action !== 'assertElementText' || step.negate || step.mode === 'matches') return undefined;
  if (target.role || target.nth !== undefined || target.near !== undefined || target.inRow !== undefined)
    return undefined;
  const texts = await ctx.page.evaluate(textsHolding, step.expected).catch(() => [] as string[]);
  return texts.find((text) => textMatches(text, step.expected, step.mode));
}

/** "Log: ONE TWO" read as the "log" is "ONE TWO"; any other text is read as it is. */
function withoutOwnLabel(text: string, name: string): string {
  const label = name.trim().toLowerCase();
  if (!label) return text;
  const trimmed = text.trimStart();
  const head = trimmed.slice(0, label.length).toLowerCase();
  if (head !== label) return text;
  const rest = trimmed.slice(label.length);
  return /^\s*:\s*/.test(rest) ? rest.replace(/^\s*:\s*/, '') : text;
}

/** "2 items", "3 todos" with nothing more said: the items of the page's content lists. */
function countsContentItems(target: Target): boolean {
  return (
    target.role === 'listitem' && !target.name && target.near === undefined && target.inRow === undefined
  );
}

/** "3 posts", "2 orders": a plain plural noun, which may name repeated items no text says. */
function countsNamedItems(target: Target): boolean {
  return (
    !target.role &&
    target.near === undefined &&
    target.inRow === undefined &&
    itemNoun(target.name) &&
    singularOf(target.name) !== target.name.toLowerCase()
  );
}

/** "5 rows" with nothing more said: the data rows of the table, as a person counts them. */
function countsTableRows(target: Target): boolean {
  return target.role === 'row' && !target.name && target.near === undefined && target.inRow === undefined;
}

async function checkCount(ctx: StepContext, step: AssertCountStep): Promise<Check> {
  const describe = describeTarget({ ...step.target, nth: undefined });
  ctx.report.target = logTarget(step.target);
  if (countsTableRows(step.target)) {
    const rows = await countTableRows(ctx, step.count, step.comparison);
    if (rows) return rows;
  }
  if (countsContentItems(step.target)) {
    const items = await ctx.page.evaluate(contentListItemCount).catch(() => null);
    if (items !== null) {
      const holds = countHolds(items, step.count, step.comparison);
      return {
        ok: holds,
        key: String(items),
        vacuous: holds && items === 0,
        message: holds
          ? `found ${items} visible list ${items === 1 ? 'item' : 'items'} in the page's content`
          : `expected ${COMPARISON_WORDS[step.comparison]} ${step.count} visible list ${step.count === 1 ? 'item' : 'items'} but found ${items} in the page's content (navigation, menus, headers and footers left out)`,
      };
    }
  }
  // "3 posts", "2 orders": the entries a person counts, not elements whose words are "posts".
  if (countsNamedItems(step.target)) {
    const items = await countNamedItems(ctx, step.target.name, step.count, step.comparison);
    if (items) return items;
  }
  const { match, tried } = await findOnce(ctx.page, { ...step.target, nth: undefined }, undefined, {
    all: true,
  });
  await disposeQuietly(match?.handle);
  if (match) {
    ctx.report.strategy = match.strategy;
    ctx.report.candidates = match.count;
  }
  const actual = match?.visibleCount ?? 0;
  const hidden = match ? match.count - match.visibleCount : 0;
  const wanted = `${COMPARISON_WORDS[step.comparison]} ${step.count}`;
  if (countHolds(actual, step.count, step.comparison)) {
    return {
      ok: true,
      key: String(actual),
      vacuous: actual === 0,
      message: `found ${actual} visible ${actual === 1 ? 'match' : 'matches'} for ${describe}`,
    };
  }
  const extra = hidden > 0 ? ` (and ${hidden} hidden)` : match ? '' : ` (tried: ${tried.join(', ')})`;
  return {
    ok: false,
    message: `expected ${wanted} visible ${step.count === 1 ? 'match' : 'matches'} for ${describe} but found ${actual}${extra}`,
  };
}

/**
 * In the page: the text of the smallest visible element that says every word (case aside; a word
 * may go on: "thank" is in "Thanks", "deliver" in "delivered"), or null, also when that element is
 * much longer than the words (a form holding each word in a label of its own says none of them).
 */
function elementSayingAll(words: string[]): string | null {
  const doc = (globalThis as unknown as { document: { body: SaysElement | null } }).document;
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = words.map((w) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escape(w)}`, 'iu'));
  const says = (text: string) => patterns.every((p) => p.test(text));
  let best: SaysElement | null = null;
  const visit = (el: SaysElement): void => {
    const text = el.innerText ?? '';
    if (!says(text)) return;
    best = el;
    for (const child of Array.from(el.children)) visit(child);
  };
  if (doc.body) visit(doc.body);
  const found = best as SaysElement | null;
  if (!found) return null;
  const text = (found.innerText ?? '').replace(/\s+/g, ' ').trim();
  // One message says them all, close together: not a form or a page that happens to hold each
  // word somewhere ("Pro" in a radio label, "Welcome … on the Free plan" below it).
  const hits: Array<{ at: number; end: number; word: number }> = [];
  patterns.forEach((pattern, word) => {
    const global = new RegExp(pattern.source, 'giu');
    for (const match of text.matchAll(global))
      hits.push({ at: match.index ?? 0, end: (match.index ?? 0) + match[0].length, word });
  });
  hits.sort((a, b) => a.at - b.at);
  const counts = new Array<number>(words.length).fill(0);
  let covered = 0;
  let narrowest = Infinity;
  for (let left = 0, right = 0; right < hits.length; right++) {
    const add = hits[right] as { at: number; end: number; word: number };
    counts[add.word] = (counts[add.word] ?? 0) + 1;
    if (counts[add.word] === 1) covered++;
    while (covered === words.length) {
      const first = hits[left] as { at: number; word: number };
      narrowest = Math.min(narrowest, add.end - first.at);
      counts[first.word] = (counts[first.word] ?? 1) - 1;
      if (counts[first.word] === 0) covered--;
      left++;
    }
  }
  return narrowest <= 1.6 * words.join(' ').length + 10 ? text : null;
}

interface SaysElement {
  innerText?: string;
  children: ArrayLike<SaysElement>;
}
