import { navigationSchemeProblem } from '@suite/egress-policy';
import type { Browser, ElementHandle, KeyInput, Page } from 'puppeteer-core';
import { describeTarget, findOnce, locate } from './element-locator.js';
import {
  checkboxInRow,
  focusedField,
  onlyTextField,
  pageText,
  readElementState,
  scrollElement,
  scrollPage,
  submitButton,
  submitForm,
  type ElementSnapshot,
} from './element-state-script.js';
import { describeKeys } from './key-names.js';
import { awaitCustomElementUpgrades } from './custom-element-upgrades.js';
import { BLOCKED_HEADER } from './egress-proxy.js';
import { NavigationWatcher } from './navigation-watcher.js';
import { networkGuardOf } from './network-guard.js';
import type { DomDocument, DomElement } from './page-dom.js';
import { DetachedElementError, LimitExceededError, StepFailedError } from './run-limits.js';
import {
  describeFound,
  disposeQuietly,
  findElement,
  type FoundElement,
  logTarget,
  sleep,
  type StepContext,
} from './step-context.js';
import type {
  AssertionStep,
  CheckStep,
  ClickStep,
  DragStep,
  ResizeStep,
  PressStep,
  ReadValueStep,
  SelectStep,
  Step,
  TypeStep,
  WaitForElementStep,
  WaitForTextStep,
} from './step-types.js';
import { typeVisibly } from './visible-typing.js';
import type { Point } from './page-pointer.js';
import { upload } from './file-upload.js';
import { isoDate, nativeInputValue } from './date-values.js';
import {
  openMenuPath,
  pickFromCalendar,
  pickShownOption,
  sortColumn,
  stepRangeTo,
  waitForShownOption,
} from './widget-actions.js';
import { focusWithin, monthFirstLocale, selectTextIn } from './widget-script.js';

// Only used inside functions evaluated in the page.
declare const document: DomDocument;

/** Steps `runAction` runs; reading a value (`readValue`) runs in page-values.ts. */
export type ActionStep = Exclude<Step, AssertionStep | ReadValueStep>;

/** How long after an action a navigation it started is still attributed to it. */
const NAVIGATION_GRACE_MS = 150;
/** Input types that keyboard typing cannot fill reliably; their value is set directly. */
const SET_DIRECTLY = /^(?:date|time|datetime-local|month|week|color|range)$/;

/** Runs one action step; resolves with a short description of what happened, throws when it failed. */
export async function runAction(ctx: StepContext, step: ActionStep): Promise<string> {
  switch (step.action) {
    case 'navigate':
      return navigate(ctx, step.url);
    case 'goBack':
    case 'goForward':
      return history(ctx, step.action);
    case 'reload':
      await withNavigationTimeout(ctx, 'reloading the page', () =>
        ctx.page.reload({ waitUntil: 'load', timeout: ctx.limits.navigationTimeoutMs }),
      );
      await settleComponents(ctx);
      return `reloaded ${ctx.page.url()}`;
    case 'click':
      return click(ctx, step);
    case 'type':
      return type(ctx, step);
    case 'clear': {
      const found = await findElement(ctx, step.target, { prefer: 'editable' });
      try {
        await focusField(ctx, found);
        await clearField(ctx, found.handle);
        return `cleared ${found.describe}`;
      } finally {
        await disposeQuietly(found.handle);
      }
    }
    case 'press':
      return press(ctx, step);
    case 'select':
      return select(ctx, step);
    case 'check':
    case 'uncheck':
      return check(ctx, step);
    case 'drag':
      return drag(ctx, step);
    case 'upload':
      return upload(ctx, step);
    case 'resize':
      return resize(ctx, step);
    case 'hover': {
      const found = await findElement(ctx, step.target);
      try {
        await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
        return `hovered over ${found.describe}`;
      } finally {
        await disposeQuietly(found.handle);
      }
    }
    case 'focus': {
      const found = await findElement(ctx, step.target);
      try {
        await found.handle.evaluate(focusWithin);
        return `focused ${found.describe}`;
      } finally {
        await disposeQuietly(found.handle);
      }
    }
    case 'scroll': {
      if (step.target) {
        const found = await findElement(ctx, step.target);
        try {
          const moved = await found.handle.evaluate(scrollElement, {
            direction: step.direction,
            pixels: step.pixels ?? null,
          });
          if (step.direction === 'top' || step.direction === 'bottom')
            return `scrolled ${found.describe} to the ${step.direction}`;
          const by = Math.round(Math.abs(moved.after - moved.before));
          return by === 0
            ? `${found.describe} did not move (already at the ${step.direction === 'down' ? 'bottom' : 'top'})`
            : `scrolled ${found.describe} ${step.direction} ${by} px`;
        } finally {
          await disposeQuietly(found.handle);
        }
      }
      const moved = await ctx.page.evaluate(scrollPage, {
        direction: step.direction,
        pixels: step.pixels ?? null,
      });
      const by = Math.round(Math.abs(moved.after - moved.before));
      if (step.direction === 'top' || step.direction === 'bottom')
        return `scrolled to the ${step.direction} of the page`;
      return by === 0
        ? `the page did not move (already at the ${step.direction === 'down' ? 'bottom' : 'top'})`
        : `scrolled ${step.direction} ${by} px`;
    }
    case 'scrollTo': {
      const found = await findElement(ctx, step.target, { requireVisible: false });
      try {
        await found.handle.scrollIntoView();
        return `scrolled ${found.describe} into view`;
      } finally {
        await disposeQuietly(found.handle);
      }
    }
    case 'submit': {
      const watcher = new NavigationWatcher(ctx.page);
      let form: string | null;
      try {
        form = await ctx.page.evaluate(submitForm);
      } catch (error) {
        watcher.dispose();
        throw error;
      }
      if (form === null) {
        watcher.dispose();
        return submitWithButton(ctx);
      }
      await watcher.settle(NAVIGATION_GRACE_MS, ctx.limits.navigationTimeoutMs);
      return `submitted ${form}`;
    }
    case 'wait':
      await sleep(step.ms, ctx.signal);
      return `waited ${step.ms} ms`;
    case 'waitForText':
      return waitForText(ctx, step);
    case 'waitForElement':
      return waitForElement(ctx, step);
    case 'waitForLoad': {
      const timeout = step.timeoutMs ?? ctx.limits.navigationTimeoutMs;
      await withNavigationTimeout(
        ctx,
        'waiting for the page to load',
        () => ctx.page.waitForFunction(() => document.readyState === 'complete', { timeout }),
        timeout,
      );
      // Pages keep fetching after "load"; a short quiet period is a better "loaded" for people.
      await ctx.page
        .waitForNetworkIdle({ idleTime: 300, timeout: Math.min(3000, timeout) })
        .catch(() => undefined);
      return `the page finished loading (${ctx.page.url()})`;
    }
  }
}

/** Lets lazily loaded web components (Shoelace, Lit…) finish defining before the next action. */
function settleComponents(ctx: StepContext): Promise<void> {
  return awaitCustomElementUpgrades(ctx.page, ctx.deadline - Date.now(), ctx.signal);
}

function timing(ctx: StepContext): { deadline: number; actionTimeoutMs: number } {
  return { deadline: ctx.deadline, actionTimeoutMs: ctx.limits.actionTimeoutMs };
}

/** Resolves "/login" or "?q=1" against the current page, or the run's start URL before any page. */
export function resolveUrl(url: string, current: string, baseUrl: string | undefined): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  const base = /^https?:/i.test(current) ? current : baseUrl;
  if (!base) throw new StepFailedError(`cannot open the relative address "${url}" before any page is open`);
  return new URL(url, base).href;
}

async function withNavigationTimeout<T>(
  ctx: StepContext,
  what: string,
  run: () => Promise<T>,
  limitMs = ctx.limits.navigationTimeoutMs,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new LimitExceededError('navigation timeout', limitMs, `${what} did not finish`);
    }
    throw error;
  }
}

async function navigate(ctx: StepContext, raw: string): Promise<string> {
  const url = resolveUrl(raw, ctx.page.url(), ctx.baseUrl);
  // Checked before any request: file:, chrome:, view-source:, data: … never reach the browser.
  const schemeProblem = navigationSchemeProblem(url);
  if (schemeProblem) throw new StepFailedError(schemeProblem);
  const guard = networkGuardOf(ctx.page);
  const started = Date.now();
  const response = await withNavigationTimeout(ctx, `opening ${url}`, async () => {
    try {
      return await ctx.page.goto(url, { waitUntil: 'load', timeout: ctx.limits.navigationTimeoutMs });
    } catch (error) {
      const blocked = guard?.blockFor(url, started);
      if (blocked) throw new StepFailedError(`could not open ${url}: ${blocked.message}`);
      if (error instanceof Error && error.name !== 'TimeoutError') {
        throw new StepFailedError(`could not open ${url}: ${error.message.replace(/ at https?:\S+$/, '')}`);
      }
      throw error;
    }
  });
  // A plain-HTTP request (or a redirect hop) the proxy refused comes back as its 403.
  const refused = response?.headers()[BLOCKED_HEADER];
  if (refused)
    throw new StepFailedError(`could not open ${url}: ${guard?.blockFor(url, started)?.message ?? refused}`);
  await settleComponents(ctx);
  const status = response?.status();
  return status !== undefined && status >= 400 ? `opened ${url} (HTTP ${status})` : `opened ${url}`;
}

async function history(ctx: StepContext, direction: 'goBack' | 'goForward'): Promise<string> {
  const before = ctx.page.url();
  const options = { waitUntil: 'load' as const, timeout: ctx.limits.navigationTimeoutMs };
  const word = direction === 'goBack' ? 'back' : 'forward';
  await withNavigationTimeout(ctx, `going ${word}`, () =>
    direction === 'goBack' ? ctx.page.goBack(options) : ctx.page.goForward(options),
  );
  if (ctx.page.url() === before) {
    throw new StepFailedError(`there is no page to go ${word} to (still on ${before})`);
  }
  await settleComponents(ctx);
  return `went ${word} to ${ctx.page.url()}`;
}

/** "Submit" on a page without a form: click its one submit-like button, as a person would. */
async function submitWithButton(ctx: StepContext): Promise<string> {
  const handle = (await ctx.page.evaluateHandle(submitButton)).asElement();
  if (!handle)
    throw new StepFailedError('there is no form on the page to submit, nor one button that sends it');
  try {
    const name = await handle.evaluate((el: DomElement) =>
      (el.innerText || el.getAttribute('value') || el.getAttribute('aria-label') || '').trim(),
    );
    const navigated = await followingNavigation(ctx, () =>
      ctx.pointer.clickOn(handle, `the button "${name}"`, timing(ctx)),
    );
    return navigated
      ? `clicked the button "${name}", which opened ${navigated}`
      : `clicked the button "${name}"`;
  } finally {
    await disposeQuietly(handle);
  }
}

/**
 * `known`: the element's state just read by the caller (saves reading it again when it is usable).
 * `relocate`: finds the step's element again. Apps that render with React, Preact or Vue often
 * replace a control instead of updating it (Grid.js's "Next" while its data loads): an element
 * found before that stays disabled for ever, detached from the page, while the one shown is
 * usable. A detached element is found again, in place in `found` (its old handle disposed).
 */
async function waitUntilEnabled(
  ctx: StepContext,
  found: FoundElement,
  what = 'disabled',
  known?: ElementSnapshot,
  relocate?: () => Promise<FoundElement>,
): Promise<void> {
  for (let first = true; ; first = false) {
    const state = first && known ? known : await found.handle.evaluate(readElementState);
    const blocked = what === 'readonly' ? state.disabled || state.readonly : state.disabled;
    if (!blocked) return;
    if (Date.now() >= ctx.deadline) {
      throw new LimitExceededError(
        'action timeout',
        ctx.limits.actionTimeoutMs,
        `${found.describe} stayed ${state.disabled ? 'disabled' : 'read-only'}`,
      );
    }
    await sleep(100, ctx.signal);
    if (relocate && !(await found.handle.evaluate((el: DomElement) => el.isConnected))) {
      const fresh = await relocate();
      await disposeQuietly(found.handle);
      Object.assign(found, fresh);
    }
  }
}

/** Runs `act` and, if it started a navigation, waits for the new page before the next step. */
async function followingNavigation(ctx: StepContext, act: () => Promise<void>): Promise<string | undefined> {
  const watcher = new NavigationWatcher(ctx.page);
  try {
    await act();
  } catch (error) {
    watcher.dispose();
    throw error;
  }
  return watcher.settle(NAVIGATION_GRACE_MS, ctx.limits.navigationTimeoutMs);
}

async function click(ctx: StepContext, step: ClickStep): Promise<string> {
  await settleComponents(ctx);
  const parts = namedParts(step);
  if (parts && (await wholeOrParts(ctx, step, parts)) === 'parts') {
    const done: string[] = [];
    for (const name of parts) done.push(await click(ctx, { ...step, target: { ...step.target, name } }));
    return done.join(', then ');
  }
  if (step.menuPath) await openMenuPath(ctx, step.menuPath, step.target.name);
  const found = await findElement(ctx, step.target);
  try {
    await waitUntilEnabled(ctx, found, 'disabled', undefined, () => findElement(ctx, step.target));
    if (step.sort) return await sortColumn(ctx, found, step.sort);
    if (step.ensure) return await toggleOpen(ctx, found, step.ensure);
    const navigated = await followingNavigation(ctx, () =>
      refinding(ctx, found, step.target, () =>
        ctx.pointer.clickOn(found.handle, found.describe, timing(ctx), {
          button: step.button,
          count: step.clickCount,
        }),
      ),
    );
    const verb =
      step.button === 'right' ? 'right-clicked' : step.clickCount === 2 ? 'double-clicked' : 'clicked';
    return navigated ? `${verb} ${found.describe}, which opened ${navigated}` : `${verb} ${found.describe}`;
  } finally {
    await disposeQuietly(found.handle);
  }
}

/**
 * Runs `act` on `found`; when a re-render replaced the element under it (an autocomplete's list
 * drawn again for the next letter typed), finds the target again and retries, a few times.
 */
async function refinding<T>(
  ctx: StepContext,
  found: FoundElement,
  target: ClickStep['target'],
  act: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await act();
    } catch (error) {
      if (!(error instanceof DetachedElementError) || attempt >= 3) throw error;
      const fresh = await findElement(ctx, target);
      await disposeQuietly(found.handle);
      Object.assign(found, fresh);
    }
  }
}

/**
 * "Expand src": click it unless it is already open, then make sure it opened; a tree whose items
 * open only from the keyboard or their arrow gets the ARIA tree keys (→ opens, ← closes).
 */
async function toggleOpen(
  ctx: StepContext,
  found: FoundElement,
  wanted: 'expanded' | 'collapsed',
): Promise<string> {
  const open = wanted === 'expanded';
  const state = async () => (await found.handle.evaluate(readElementState)).expanded;
  const before = await state();
  if (before === open) return `${found.describe} was already ${wanted}`;
  await followingNavigation(ctx, () => ctx.pointer.clickOn(found.handle, found.describe, timing(ctx)));
  if (before === null) return `clicked ${found.describe}`;
  const settled = async (): Promise<boolean> => {
    const until = Math.min(ctx.deadline, Date.now() + 1000);
    for (;;) {
      if ((await state().catch(() => null)) === open) return true;
      if (Date.now() >= until) return false;
      await sleep(100, ctx.signal);
    }
  };
  if (await settled()) return `${open ? 'expanded' : 'collapsed'} ${found.describe}`;
  await found.handle.evaluate((el: DomElement) => {
    const item = el.closest('[aria-expanded]') ?? el;
    item.focus();
  });
  await ctx.page.keyboard.press(open ? 'ArrowRight' : 'ArrowLeft');
  if (await settled())
    return `${open ? 'expanded' : 'collapsed'} ${found.describe} (with the ${open ? '→' : '←'} key)`;
  throw new StepFailedError(
    `${found.describe} stayed ${open ? 'collapsed' : 'expanded'} after a click and the ${open ? '→' : '←'} key`,
  );
}

/** "Click ONE and THREE": the names of a click on several things, when the words list them. */
function namedParts(step: ClickStep): string[] | undefined {
  const { name, all, nth, near } = step.target;
  if (all || nth !== undefined || near !== undefined || step.menuPath || !/\s(?:and|&)\s|,/.test(name))
    return undefined;
  const parts = name
    .split(/\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length >= 2 && parts.length <= 6 ? parts : undefined;
}

/**
 * Whether the page has the whole name ("Terms and Conditions") or, failing that, each part ("ONE",
 * "THREE"): the whole wins whenever it is there; the parts only when every one of them is.
 */
async function wholeOrParts(
  ctx: StepContext,
  step: ClickStep,
  parts: readonly string[],
): Promise<'whole' | 'parts'> {
  const seen = async (name: string): Promise<boolean> => {
    const outcome = await findOnce(ctx.page, { ...step.target, name });
    await disposeQuietly(outcome.match?.handle);
    await disposeQuietly(outcome.hover);
    return Boolean(outcome.match?.visible);
  };
  while (Date.now() < ctx.deadline) {
    if (await seen(step.target.name)) return 'whole';
    let every = true;
    for (const part of parts) if (every && !(await seen(part))) every = false;
    if (every) return 'parts';
    await sleep(100, ctx.signal);
  }
  return 'whole';
}

async function focusField(ctx: StepContext, found: FoundElement, known?: ElementSnapshot): Promise<void> {
  await waitUntilEnabled(ctx, found, 'readonly', known);
  await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
  const focused = await found.handle.evaluate(readElementState);
  if (!focused.focused) await found.handle.focus();
}

async function clearField(ctx: StepContext, handle: ElementHandle): Promise<void> {
  await ctx.page.keyboard.down('Control');
  await ctx.page.keyboard.press('a');
  await ctx.page.keyboard.up('Control');
  await ctx.page.keyboard.press('Backspace');
  const state = await handle.evaluate(readElementState);
  if (state.value !== '') await setValueDirectly(handle, '');
}

/** Sets a field's value the way frameworks notice: through the native setter, then input/change. */
async function setValueDirectly(handle: ElementHandle, value: string): Promise<void> {
  await handle.evaluate((el: DomElement, next: string) => {
    const proto = Object.getPrototypeOf(el) as object;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) setter.call(el, next);
    else (el as unknown as { value: string }).value = next;
    const EventCtor = (globalThis as unknown as { Event: new (type: string, init: object) => unknown }).Event;
    el.dispatchEvent(new EventCtor('input', { bubbles: true }));
    el.dispatchEvent(new EventCtor('change', { bubbles: true }));
  }, value);
}

/** A text field has the caret in the page or in one of its frames (the keyboard types into that one). */
async function someFrameHasFocusedField(page: Page): Promise<boolean> {
  for (const frame of page.frames()) {
    const field = await frame.evaluateHandle(focusedField).catch(() => undefined);
    const has = field?.asElement() != null;
    await field?.dispose().catch(() => undefined);
    if (has) return true;
  }
  return false;
}

/** Clicks into the page's one text field; false when it shows none or several. */
/** What people call a date picker's open calendar. */
const CALENDAR_RE = /^(?:the\s+)?(?:calendar|date ?picker|datepicker|picker|date picker popup)$/i;

async function clickOnlyTextField(ctx: StepContext): Promise<boolean> {
  const field = (
    await ctx.page.evaluateHandle(onlyTextField).catch(() => null)
  )?.asElement() as ElementHandle | null;
  if (!field) return false;
  try {
    await ctx.pointer.clickOn(field, 'the only text field', timing(ctx));
    return someFrameHasFocusedField(ctx.page);
  } finally {
    await disposeQuietly(field);
  }
}

async function type(ctx: StepContext, step: TypeStep): Promise<string> {
  if (step.find !== undefined) return replaceText(ctx, step, step.find);
  if (!step.target) {
    if (step.replace) {
      const field = (await ctx.page.evaluateHandle(focusedField)).asElement() as ElementHandle | null;
      if (!field) throw new StepFailedError('no text field has the caret, so there is no text to change');
      try {
        // An exported script fills this field (which replaces its text).
        ctx.report.element = await describeFound(field);
        await clearField(ctx, field);
      } finally {
        await disposeQuietly(field);
      }
    }
    // Keys typed with nothing to take them vanish: a person would see nothing appear, so the step
    // fails; unless the text is entered with Enter ("Write "Go to gym" and do enter") on a page
    // that shows one text field only, where a person would click and type.
    else if (
      !(await someFrameHasFocusedField(ctx.page)) &&
      !(step.submit === true && (await clickOnlyTextField(ctx)))
    )
      throw new StepFailedError(
        'no text field has the caret, so there is nowhere to type (say where, e.g. Type "…" into the Name field)',
      );
    await typeVisibly(ctx.page, step.value, ctx.typingDelayMs);
    const done = step.replace
      ? `replaced the focused field's text with ${step.value.length} characters`
      : `typed ${step.value.length} characters into the focused element`;
    // "Write "Go to gym" and do enter".
    if (!step.submit) return done;
    const navigated = await followingNavigation(ctx, () => ctx.page.keyboard.press('Enter'));
    return navigated ? `${done} and pressed Enter, which opened ${navigated}` : `${done} and pressed Enter`;
  }
  // "Pick March 15, 2024 from the calendar": the day in the open date picker.
  if (!step.target.role && CALENDAR_RE.test(step.target.name)) {
    const picked = await pickFromCalendar(ctx, step.value);
    if (picked) return picked;
  }
  const found = await findElement(ctx, step.target, { prefer: 'editable' });
  try {
    return await typeIntoFound(ctx, step, found, true);
  } finally {
    await disposeQuietly(found.handle);
  }
}

/**
 * Types the step's value into the element found for it. An element that takes no typing may still
 * name the field a person means: the radio group it heads ("Plan: Team"), or the one field it
 * labels from beside or around it (a "Volume" paragraph over its slider, a table column's header
 * holding its filter box); that field takes the value instead (`governs`: looked for once).
 */
async function typeIntoFound(
  ctx: StepContext,
  step: TypeStep,
  found: FoundElement,
  governs: boolean,
): Promise<string> {
  {
    const state = await found.handle.evaluate(readElementState);
    if (state.isSelect) return await selectNative(ctx, found, step.value, state);
    // A date field that takes no typing (flatpickr's default): open its calendar and pick the day.
    if (state.tag === 'input' && state.readonly && !state.disabled && isoDate(step.value, true)) {
      await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
      const picked = await pickFromCalendar(ctx, step.value);
      if (picked) return `${picked} of ${found.describe}`;
    }
    if (!state.editable) {
      const stepped = await stepRangeTo(ctx, found, step.value);
      if (stepped) return stepped;
      const edited = /^(?:button|a|input|select|option)$/.test(state.tag)
        ? undefined
        : await editInPlace(ctx, found, step.value);
      if (edited) return edited;
      if (governs) {
        const radio = (
          await found.handle.evaluateHandle(radioInGroup, step.value)
        ).asElement() as ElementHandle | null;
        if (radio) {
          try {
            await ctx.pointer.clickOn(radio, `"${step.value}"`, timing(ctx));
            return `chose "${step.value}" in ${found.describe}`;
          } finally {
            await disposeQuietly(radio);
          }
        }
        const field = (await found.handle.evaluateHandle(fieldNamedBy)).asElement() as ElementHandle | null;
        if (field) {
          try {
            return await typeIntoFound(ctx, step, { ...found, handle: field }, false);
          } finally {
            await disposeQuietly(field);
          }
        }
      }
      throw new StepFailedError(`${found.describe} is a <${state.tag}>, not a field that can be typed into`);
    }
    await focusField(ctx, found, state);
    if (SET_DIRECTLY.test(state.type)) {
      return await setNativeValue(ctx, found, state.type, step.value);
    } else {
      await clearField(ctx, found.handle);
      await typeVisibly(ctx.page, step.value, ctx.typingDelayMs);
    }
    const typed = state.isPassword
      ? `typed ${step.value.length} characters into ${found.describe}`
      : `typed "${step.value}" into ${found.describe}`;
    if (!step.submit) return typed;
    const navigated = await followingNavigation(ctx, () => ctx.page.keyboard.press('Enter'));
    return navigated ? `${typed} and pressed Enter, which opened ${navigated}` : `${typed} and pressed Enter`;
  }
}

/**
 * In the page: the one field `el` names without being its label: the first field among the next
 * two elements after it ("<p>Volume</p><div role=slider>"), else the one field of the smallest
 * container around it (up to three levels) that holds exactly one.
 */
function fieldNamedBy(el: DomElement): DomElement | null {
  const FIELD =
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, select, [role=slider], [role=spinbutton], [role=textbox], [role=combobox], [contenteditable=""], [contenteditable=true]';
  const fieldIn = (node: DomElement | null): DomElement | null =>
    !node ? null : node.matches(FIELD) ? node : node.querySelector(FIELD);
  let next = el.nextElementSibling;
  for (let i = 0; next && i < 2; i++, next = next.nextElementSibling) {
    const field = fieldIn(next);
    if (field) return field;
  }
  for (let scope = el.parentElement, up = 0; scope && up < 3; scope = scope.parentElement, up++) {
    const fields = Array.from(scope.querySelectorAll(FIELD));
    if (fields.length === 1) return fields[0] ?? null;
    if (fields.length > 1) return null;
  }
  return null;
}

/**
 * Date, time, colour and range inputs take their value in the browser's own form (2011-10-11,
 * 20:04): what the person wrote is read as a date or time first, and the step fails when the field
 * did not take it rather than leaving it empty or snapped to another value.
 */
async function setNativeValue(
  ctx: StepContext,
  found: FoundElement,
  type: string,
  wanted: string,
): Promise<string> {
  const monthFirst = await ctx.page.evaluate(monthFirstLocale);
  const value = nativeInputValue(type, wanted, monthFirst);
  if (value === undefined)
    throw new StepFailedError(
      `${found.describe} is a ${type} field, and "${wanted}" is not a ${type === 'time' ? 'time' : 'date'} it can take`,
    );
  await setValueDirectly(found.handle, value);
  const after = (await found.handle.evaluate(readElementState)).value;
  const same = type === 'range' || type === 'number' ? Number(after) === Number(value) : after === value;
  if (!same)
    throw new StepFailedError(
      `${found.describe} did not take "${wanted}" (it holds ${after === '' ? 'nothing' : `"${after}"`})`,
    );
  return value === wanted
    ? `set ${found.describe} to "${value}"`
    : `set ${found.describe} to "${wanted}" (${value})`;
}

/**
 * "Replace 'Hello World' with 'Hi'": in the field named, the one with the caret, or the page's only
 * editor: the text is selected, as a person drags over it, and typed over.
 */
async function replaceText(ctx: StepContext, step: TypeStep, find: string): Promise<string> {
  let found: FoundElement | undefined;
  let handle: ElementHandle | null = null;
  if (step.target) {
    // "The editor" of many editable parts: the part that holds the text.
    const target = step.target.name ? step.target : { ...step.target, holding: find };
    found = await findElement(ctx, target, { prefer: 'editable' });
  } else {
    // The field with the caret when it holds the text; else the page's editor.
    handle = (await ctx.page.evaluateHandle(focusedField)).asElement() as ElementHandle | null;
    const holds = handle
      ? await handle.evaluate((el: DomElement, text: string) => {
          const value = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? el.value : el.textContent;
          return (value ?? '').toLowerCase().includes(text.toLowerCase());
        }, find)
      : false;
    if (!holds) {
      await disposeQuietly(handle ?? undefined);
      handle = null;
      found = await findElement(ctx, { name: '', role: 'editor', holding: find });
    }
  }
  const field = (found?.handle ?? handle) as ElementHandle;
  const describe = found?.describe ?? 'the focused field';
  // An exported script edits this field.
  if (!found) ctx.report.element = await describeFound(field);
  try {
    const before = (await field.evaluate(readElementState)).value;
    if (!(await field.evaluate(selectTextIn, find)))
      throw new StepFailedError(
        `${describe} does not contain "${find}" (its text: "${before.slice(0, 80)}")`,
      );
    await typeVisibly(ctx.page, step.value, ctx.typingDelayMs);
    const after = (await field.evaluate(readElementState)).value;
    if (!after.includes(step.value))
      throw new StepFailedError(
        `${describe} did not take "${step.value}" (its text: "${after.slice(0, 80)}")`,
      );
    return `replaced "${find}" with "${step.value}" in ${describe}`;
  } finally {
    await disposeQuietly(field);
  }
}

/**
 * "Change 'Buy milk' to 'Buy bread'" on text that is edited in place (a to-do's label): double-click
 * it, as a person does, and type into the field that takes the caret. Undefined when none does.
 */
async function editInPlace(
  ctx: StepContext,
  found: FoundElement,
  value: string,
): Promise<string | undefined> {
  await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx), { button: 'left', count: 2 });
  const until = Math.min(ctx.deadline, Date.now() + 1000);
  for (;;) {
    const field = (await ctx.page.evaluateHandle(focusedField)).asElement() as ElementHandle | null;
    if (field) {
      try {
        await clearField(ctx, field);
        await typeVisibly(ctx.page, value, ctx.typingDelayMs);
        return `double-clicked ${found.describe} and typed "${value}" into the field that opened`;
      } finally {
        await disposeQuietly(field);
      }
    }
    if (Date.now() >= until) return undefined;
    await sleep(100, ctx.signal);
  }
}

async function press(ctx: StepContext, step: PressStep): Promise<string> {
  let found: FoundElement | undefined;
  if (step.target) {
    found = await findElement(ctx, step.target);
    await found.handle.evaluate(focusWithin);
  }
  try {
    const keys = step.keys as KeyInput[];
    const modifiers = keys.slice(0, -1);
    const key = keys[keys.length - 1] as KeyInput;
    const navigated = await followingNavigation(ctx, async () => {
      for (let i = 0; i < step.repeat; i++) {
        for (const modifier of modifiers) await ctx.page.keyboard.down(modifier);
        await ctx.page.keyboard.press(key);
        for (const modifier of [...modifiers].reverse()) await ctx.page.keyboard.up(modifier);
      }
    });
    const what = `pressed ${describeKeys(step.keys)}${step.repeat > 1 ? ` ${step.repeat} times` : ''}${found ? ` in ${found.describe}` : ''}`;
    return navigated ? `${what}, which opened ${navigated}` : what;
  } finally {
    await disposeQuietly(found?.handle);
  }
}

/** "Pick Berlin from the suggestions": the list a combobox opened, whatever opened it. */
const SUGGESTIONS_RE =
  /^(?:suggestions?|autocomplete(?: (?:list|suggestions|results))?|(?:search )?results|completions|matches|list of suggestions)$/i;

async function select(ctx: StepContext, step: SelectStep): Promise<string> {
  if (!step.target.role && SUGGESTIONS_RE.test(step.target.name)) {
    const picked = await pickShownOption(ctx, null, step.option, 'the page');
    return `picked "${picked}" from the suggestions`;
  }
  // "Select the text "ipsum" in the editor", "highlight the text in the paragraph": text, not an option.
  if (step.target.role === 'editor' || step.option === '') return selectText(ctx, step);
  const target = { ...step.target, holding: step.option };
  const found = await findElement(ctx, target, { prefer: 'selectable' });
  try {
    const state = await found.handle.evaluate(readElementState);
    if (state.isSelect) return await selectNative(ctx, found, step.option, state);
    // "Choose Yes for 'Do you have a pet?'": a group of radio buttons named by its question.
    const radio = (
      await found.handle.evaluateHandle(radioInGroup, step.option)
    ).asElement() as ElementHandle | null;
    if (radio) {
      try {
        await ctx.pointer.clickOn(radio, `the radio button "${step.option}"`, timing(ctx));
        return `chose "${step.option}" in ${found.describe}`;
      } finally {
        await disposeQuietly(radio);
      }
    }
    // A custom dropdown: open it, then click the option by name in the list it opened; a combobox
    // that lists nothing until typed into gets the option's text typed first.
    await waitUntilEnabled(ctx, found, 'disabled', state, () =>
      findElement(ctx, target, { prefer: 'selectable' }),
    );
    // A list still open from the last pick (a multi-select keeps it open): pick from it, since a
    // click on its trigger would close it.
    const open = await waitForShownOption(ctx, found.handle, step.option, 0);
    if (open.option) {
      await disposeQuietly(open.option);
      const picked = await pickShownOption(ctx, found.handle, step.option, found.describe);
      return `selected "${picked}" in ${found.describe}`;
    }
    await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
    const opened = await waitForShownOption(ctx, found.handle, step.option, 1500);
    await disposeQuietly(opened.option ?? undefined);
    if (!opened.option && state.editable) {
      await clearField(ctx, found.handle);
      await typeVisibly(ctx.page, step.option, ctx.typingDelayMs);
    } else if (!opened.option) {
      // Some lists are not list-like at all: any visible element with the option's text.
      const loose = await findOnce(ctx.page, { name: step.option });
      if (loose.match?.visible) {
        try {
          await ctx.pointer.clickOn(loose.match.handle, `the option "${step.option}"`, timing(ctx));
        } finally {
          await disposeQuietly(loose.match.handle);
        }
        return `selected "${step.option}" in ${found.describe}`;
      }
      await disposeQuietly(loose.match?.handle);
    }
    const picked = await pickShownOption(ctx, found.handle, step.option, found.describe);
    return `selected "${picked}" in ${found.describe}`;
  } finally {
    await disposeQuietly(found.handle);
  }
}

/**
 * Presses on the element, moves in small steps (sortable lists and drag libraries follow the mouse
 * move by move) and lets go over the drop place: another element, or the item now at a position of
 * the element's own list (over its upper part when moving up, its lower part when moving down, so
 * the list puts the element there).
 */
async function drag(ctx: StepContext, step: DragStep, attempt = 1): Promise<string> {
  const found = await findElement(ctx, step.target);
  const report = { ...ctx.report };
  let place: ElementHandle | null = null;
  let placeName: string;
  try {
    if (step.to) {
      const drop = await findElement(ctx, step.to);
      place = drop.handle;
      placeName = drop.describe;
      Object.assign(ctx.report, report);
    } else {
      const position = step.toPosition ?? 1;
      place = (
        await found.handle.evaluateHandle((el: DomElement, n: number) => {
          const items = Array.from(el.parentElement?.children ?? []).filter((c) => c.tagName === el.tagName);
          return items[n > 0 ? n - 1 : items.length + n] ?? null;
        }, position)
      ).asElement() as ElementHandle | null;
      placeName = position === -1 ? 'the last place' : `place ${position}`;
      if (!place) throw new StepFailedError(`${found.describe}'s list has no ${placeName}`);
      if (await found.handle.evaluate((el: DomElement, other: DomElement) => el === other, place))
        return `${found.describe} is already at ${placeName}`;
    }
    const before = await found.handle.evaluate(
      (el: DomElement, other: DomElement) => Boolean(el.compareDocumentPosition(other) & 2),
      place,
    );
    const watch = await watchChanges(ctx.page, found.handle);
    const start = await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
    const box = await place.boundingBox();
    if (!box) throw new StepFailedError(`${placeName} has no size on the page to drop onto`);
    const end = {
      x: box.x + box.width / 2,
      y: step.to ? box.y + box.height / 2 : box.y + box.height * (before ? 0.25 : 0.75),
    };
    const native = await found.handle.evaluate((el: DomElement) => Boolean(el.closest('[draggable="true"]')));
    if (!native || !(await nativeDrag(ctx.page, start, end))) {
      await ctx.page.mouse.down();
      // A first small move starts the drag (libraries wait for a few pixels), then the way there.
      await ctx.pointer.moveTo({ x: start.x + 3, y: start.y + 3 });
      for (let i = 1; i <= DRAG_MOVES; i++)
        await ctx.pointer.moveTo({
          x: start.x + ((end.x - start.x) * i) / DRAG_MOVES,
          y: start.y + ((end.y - start.y) * i) / DRAG_MOVES,
        });
      await ctx.page.mouse.up();
    }
    // A drag the page ignored must not pass as done (a list that did not reorder, a card not moved).
    if (!(await watch.changed(DRAG_EFFECT_WAIT_MS)))
      throw new StepFailedError(
        `dragged ${found.describe} to ${placeName}, but the page did not change: nothing took the drop`,
      );
    if (!step.to) {
      const position = step.toPosition ?? 1;
      const at = await placeOf(found.handle, position, DRAG_EFFECT_WAIT_MS);
      // A list that reorders while the drag passes may stop one place short: a person drags again.
      if (at !== undefined && at !== position && attempt === 1) return await drag(ctx, step, 2);
      if (at !== undefined && at !== position)
        throw new StepFailedError(
          `dragged ${found.describe} to ${placeName}, but it is now at place ${at} of its list`,
        );
    }
    return `dragged ${found.describe} to ${placeName}`;
  } finally {
    await disposeQuietly(found.handle);
    await disposeQuietly(place ?? undefined);
  }
}
/**
 * Drags the element's resize handle (its bottom-right corner, where a textarea or a `resize: both`
 * box has it) the way asked, as a person does, and fails when the size did not change that way.
 */
async function resize(ctx: StepContext, step: ResizeStep): Promise<string> {
  const found = await findElement(ctx, step.target);
  try {
    const before = await found.handle.boundingBox();
    if (!before) throw new StepFailedError(`${found.describe} has no size on the page`);
    const corner = { x: before.x + before.width - 3, y: before.y + before.height - 3 };
    const sign = step.grow ? 1 : -1;
    const dx = step.dimension === 'height' ? 0 : sign * Math.max(20, Math.round(before.width * 0.4));
    const dy = step.dimension === 'width' ? 0 : sign * Math.max(20, Math.round(before.height * 0.6));
    await ctx.pointer.moveTo(corner);
    await ctx.page.mouse.down();
    for (let i = 1; i <= DRAG_MOVES; i++)
      await ctx.pointer.moveTo({ x: corner.x + (dx * i) / DRAG_MOVES, y: corner.y + (dy * i) / DRAG_MOVES });
    await ctx.page.mouse.up();
    const after = await found.handle.boundingBox();
    const changed = (from: number, to: number) => (step.grow ? to > from + 1 : to < from - 1);
    const width = after !== null && changed(before.width, after.width);
    const height = after !== null && changed(before.height, after.height);
    const ok = step.dimension === 'width' ? width : step.dimension === 'height' ? height : width || height;
    const way = `${step.grow ? 'larger' : 'smaller'}${step.dimension === 'both' ? '' : ` in ${step.dimension}`}`;
    if (!ok || !after)
      throw new StepFailedError(
        `dragged the corner of ${found.describe}, but it did not get ${way} (it cannot be resized there)`,
      );
    return `resized ${found.describe} from ${Math.round(before.width)}×${Math.round(before.height)} to ${Math.round(after.width)}×${Math.round(after.height)}`;
  } finally {
    await disposeQuietly(found.handle);
  }
}

const DRAG_MOVES = 10;
const DRAG_EFFECT_WAIT_MS = 1000;

/**
 * The element's place in its list (1-based) once it is `wanted` (-1: the last), waiting up to `ms`
 * for a list that animates; undefined when the element left the page (the list drew new ones).
 */
async function placeOf(handle: ElementHandle, wanted: number, ms: number): Promise<number | undefined> {
  const read = () =>
    handle
      .evaluate((el: DomElement, n: number) => {
        if (!el.isConnected || !el.parentElement) return undefined;
        const items = Array.from(el.parentElement.children).filter((c) => c.tagName === el.tagName);
        const at = items.indexOf(el) + 1;
        return n === -1 && at === items.length ? -1 : at;
      }, wanted)
      .catch(() => undefined);
  const until = Date.now() + ms;
  let at = await read();
  while (at !== undefined && at !== wanted && Date.now() < until) {
    await sleep(50);
    at = await read();
  }
  return at;
}

/**
 * HTML5 drag and drop (`draggable="true"`, dragstart/dragover/drop handlers): Chromium starts no
 * native drag from synthetic mouse input, so the drag is intercepted at its start and its payload
 * carried over the drop place with the browser's own drag events, as a person's drag would. False
 * when the page started no drag (the mouse path is tried instead).
 */
async function nativeDrag(page: Page, start: Point, end: Point): Promise<boolean> {
  // The browser carries one drag at a time: tabs of one browser take turns.
  const browser = page.browser();
  const before = nativeDrags.get(browser) ?? Promise.resolve(false);
  const mine = before.then(
    () => nativeDragAlone(page, start, end),
    () => nativeDragAlone(page, start, end),
  );
  nativeDrags.set(browser, mine);
  return mine;
}
const nativeDrags = new WeakMap<Browser, Promise<boolean>>();

async function nativeDragAlone(page: Page, start: Point, end: Point): Promise<boolean> {
  await page.setDragInterception(true);
  try {
    const started = page.mouse.drag(start, end);
    const data = await Promise.race([started, sleep(NATIVE_DRAG_START_MS).then(() => undefined)]);
    if (!data) {
      await page.mouse.up();
      return false;
    }
    // Over the way there, as a hand moves: lists that reorder on dragover see each item passed.
    await page.mouse.dragEnter(start, data);
    for (let i = 1; i <= NATIVE_DRAG_MOVES; i++) {
      await sleep(NATIVE_DRAG_MOVE_MS);
      const t = i / NATIVE_DRAG_MOVES;
      await page.mouse.dragOver(
        { x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t },
        data,
      );
    }
    await sleep(NATIVE_DRAG_MOVE_MS);
    await page.mouse.dragOver(end, data);
    await page.mouse.drop(end, data);
    await page.mouse.up();
    return true;
  } finally {
    await page.setDragInterception(false);
  }
}
const NATIVE_DRAG_START_MS = 1000;
const NATIVE_DRAG_MOVES = 5;
const NATIVE_DRAG_MOVE_MS = 40;

/**
 * Watches what a drag changes from now on: elements added, moved or removed, text changed, or the
 * dragged element itself moved by its style (a draggable box). A class or style toggled by a press
 * alone is no effect. `changed` waits up to `ms` for one.
 */
async function watchChanges(
  page: Page,
  dragged: ElementHandle,
): Promise<{ changed(ms: number): Promise<boolean> }> {
  const key = `__dragChanges${Math.random().toString(36).slice(2)}`;
  await dragged.evaluate((el: DomElement, name: string) => {
    const box = el.getBoundingClientRect();
    const state = {
      count: 0,
      moved: () => {
        const now = el.getBoundingClientRect();
        return Math.abs(now.left - box.left) + Math.abs(now.top - box.top) > 5;
      },
    };
    const Observer = (
      globalThis as unknown as {
        MutationObserver: new (callback: (records: unknown[]) => void) => {
          observe(target: unknown, options: object): void;
          disconnect(): void;
        };
      }
    ).MutationObserver;
    const observer = new Observer((records) => {
      state.count += records.length;
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    // Watched for this one drag only: the observer and its global go once it has been judged.
    const stop = () => {
      observer.disconnect();
      delete (globalThis as unknown as Record<string, unknown>)[name];
    };
    (globalThis as unknown as Record<string, unknown>)[name] = { state, stop };
  }, key);
  return {
    changed: async (ms) => {
      const seen = await page
        .waitForFunction(
          (name: string) => {
            const watch = (
              globalThis as unknown as Record<
                string,
                { state: { count: number; moved(): boolean } } | undefined
              >
            )[name];
            return watch !== undefined && (watch.state.count > 0 || watch.state.moved());
          },
          { timeout: ms, polling: 50 },
          key,
        )
        .then(
          () => true,
          () => false,
        );
      await page
        .evaluate((name: string) => {
          (globalThis as unknown as Record<string, { stop(): void } | undefined>)[name]?.stop();
        }, key)
        .catch(() => undefined);
      return seen;
    },
  };
}

/** In the page: the radio button labelled `wanted` in the group around `el` (a question, a legend), or null. */
function radioInGroup(el: DomElement, wanted: string): DomElement | null {
  const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const want = norm(wanted);
  let scope: DomElement | null = el;
  for (let up = 0; scope && up < 4; up++, scope = scope.parentElement) {
    const radios = Array.from(scope.querySelectorAll('input[type=radio], [role=radio]'));
    if (radios.length === 0) continue;
    const named = radios.find((radio) => {
      const label =
        radio.labels?.[0]?.innerText ??
        radio.getAttribute('aria-label') ??
        radio.closest('label')?.innerText ??
        radio.textContent;
      return norm(label) === want || norm(radio.value) === want;
    });
    return named ?? null;
  }
  return null;
}

async function selectText(ctx: StepContext, step: SelectStep): Promise<string> {
  const found = await findElement(ctx, step.target);
  try {
    await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
    const wanted =
      step.option ||
      (await found.handle.evaluate((el: DomElement) =>
        (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA'
          ? (el.value ?? '')
          : (el.textContent ?? '')
        ).trim(),
      ));
    if (!wanted || !(await found.handle.evaluate(selectTextIn, wanted)))
      throw new StepFailedError(
        step.option
          ? `${found.describe} does not show "${step.option}", so it cannot be selected`
          : `${found.describe} holds no text to select`,
      );
    return step.option === ''
      ? `selected all the text in ${found.describe} ("${wanted.replace(/\s+/g, ' ').slice(0, 60)}")`
      : `selected "${wanted}" in ${found.describe}`;
  } finally {
    await disposeQuietly(found.handle);
  }
}

async function selectNative(
  ctx: StepContext,
  found: FoundElement,
  wanted: string,
  known?: ElementSnapshot,
): Promise<string> {
  await waitUntilEnabled(ctx, found, 'disabled', known);
  const options = await found.handle.evaluate((el: DomElement) =>
    Array.from(el.options ?? []).map((option) => ({
      value: option.value,
      label: (option.label || option.text).replace(/\s+/g, ' ').trim(),
      disabled: Boolean(option.disabled),
    })),
  );
  const lower = wanted.toLowerCase().trim();
  const choice =
    options.find((o) => o.label.toLowerCase() === lower) ??
    options.find((o) => o.value.toLowerCase() === lower) ??
    options.find((o) => o.label.toLowerCase().includes(lower));
  // "Select Ab, Kl from the scroll list": several options of a list that takes several.
  const several = wanted
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
    .map((part) => part.toLowerCase().trim())
    .filter(Boolean);
  if (
    !choice &&
    several.length > 1 &&
    (await found.handle.evaluate((el: DomElement) => Boolean(el.multiple)))
  ) {
    const picked = several.map(
      (part) =>
        options.find((o) => o.label.toLowerCase() === part) ??
        options.find((o) => o.value.toLowerCase() === part),
    );
    const missing = several.filter((_, i) => !picked[i]);
    if (missing.length > 0)
      throw new StepFailedError(
        `${found.describe} has no option ${missing.map((m) => `"${m}"`).join(', ')} (its options: ${options.map((o) => `"${o.label}"`).join(', ')})`,
      );
    const disabled = picked.find((o) => o?.disabled);
    if (disabled)
      throw new StepFailedError(`the option "${disabled.label}" in ${found.describe} is disabled`);
    await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
    await found.handle.select(...picked.map((o) => o?.value ?? ''));
    return `selected ${picked.map((o) => `"${o?.label}"`).join(', ')} in ${found.describe}`;
  }
  if (!choice) {
    const listed = options.map((o) => `"${o.label}"`).join(', ');
    throw new StepFailedError(
      `${found.describe} has no option "${wanted}" (its options: ${listed || 'none'})`,
    );
  }
  if (choice.disabled)
    throw new StepFailedError(`the option "${choice.label}" in ${found.describe} is disabled`);
  // Native dropdowns open outside the page (nothing to see in a recording); point at it, then pick.
  await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
  await found.handle.select(choice.value);
  return `selected "${choice.label}" in ${found.describe}`;
}

/** In the page: whether a toggle button is on (aria-pressed, an "active" class), or null if it says neither. */
function toggledOn(el: DomElement): boolean | null {
  const pressed = el.getAttribute('aria-pressed');
  if (pressed === 'true' || pressed === 'false') return pressed === 'true';
  const classes = el.getAttribute('class') ?? '';
  if (/(?:^|[\s_-])(?:active|pressed|selected|on)(?:$|\s)/i.test(classes)) return true;
  // A toolbar's buttons (Trix, Quill, TinyMCE): a toggle that is off says nothing; count it as off.
  return el.closest('[role=toolbar], trix-toolbar, .ql-toolbar, [class*="toolbar"]') ? false : null;
}

/**
 * The checkbox a check step means: the element named, or, when that is only text ("Check 'Buy
 * milk'" on a list whose labels are not tied to their checkboxes), the one checkbox in its row.
 */
async function findCheckable(ctx: StepContext, step: CheckStep): Promise<FoundElement> {
  const found = await findElement(ctx, step.target, { prefer: 'checkable' });
  // A component may still be upgrading (its shadow root, with the checkbox, not there yet): look
  // again for a moment.
  const until = Math.min(ctx.deadline, Date.now() + 2000);
  let inRow: ElementHandle | null;
  for (;;) {
    const state = await found.handle.evaluate(readElementState);
    if (state.checkable && state.checked !== null) return found;
    inRow = (await found.handle.evaluateHandle(checkboxInRow)).asElement() as ElementHandle | null;
    if (inRow || Date.now() >= until) break;
    await sleep(100, ctx.signal);
  }
  if (!inRow) return found;
  await disposeQuietly(found.handle);
  ctx.report.strategy = `${ctx.report.strategy ?? 'text'}, then the checkbox in its row`;
  return { ...found, handle: inRow, describe: `the checkbox of ${found.describe}` };
}

async function check(ctx: StepContext, step: CheckStep): Promise<string> {
  const wanted = step.action === 'check';
  const found = await findCheckable(ctx, step);
  try {
    const before = await found.handle.evaluate(readElementState);
    // "Turn on the bullet list", "switch off Bold": a toolbar's toggle button is on when it says
    // it is pressed (aria-pressed) or draws itself active; clicked only when not already so.
    if ((!before.checkable || before.checked === null) && before.tag === 'button') {
      const on = await found.handle.evaluate(toggledOn);
      if (on !== null) {
        if (on === wanted) return `${found.describe} was already ${wanted ? 'on' : 'off'}`;
        await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
        return `turned ${wanted ? 'on' : 'off'} ${found.describe}`;
      }
    }
    if (!before.checkable || before.checked === null) {
      throw new StepFailedError(
        `${found.describe} is a <${before.tag}>, not a checkbox, radio button or switch`,
      );
    }
    if (before.checked === wanted) return `${found.describe} was already ${wanted ? 'checked' : 'unchecked'}`;
    if (!wanted && before.type === 'radio') {
      throw new StepFailedError(
        `${found.describe} is a radio button; choose another option instead of unchecking it`,
      );
    }
    await waitUntilEnabled(ctx, found, 'disabled', before);
    await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
    const settleBy = Date.now() + 1000;
    for (;;) {
      const after = await found.handle.evaluate(readElementState);
      if (after.checked === wanted) return `${wanted ? 'checked' : 'unchecked'} ${found.describe}`;
      if (Date.now() >= settleBy) {
        throw new StepFailedError(`clicking ${found.describe} did not ${wanted ? 'check' : 'uncheck'} it`);
      }
      await sleep(50, ctx.signal);
    }
  } finally {
    await disposeQuietly(found.handle);
  }
}

function waitLimit(ctx: StepContext, timeoutMs: number | undefined): { ms: number; name: string } {
  return timeoutMs === undefined
    ? { ms: ctx.limits.actionTimeoutMs, name: `the action timeout of ${ctx.limits.actionTimeoutMs} ms` }
    : { ms: timeoutMs, name: `${timeoutMs} ms` };
}

async function waitForText(ctx: StepContext, step: WaitForTextStep): Promise<string> {
  const limit = waitLimit(ctx, step.timeoutMs);
  const deadline = Date.now() + limit.ms;
  const wanted = step.expected.replace(/\s+/g, ' ').trim().toLowerCase();
  for (;;) {
    const text = await safePageText(ctx.page);
    const present = text !== undefined && text.toLowerCase().includes(wanted);
    if (text !== undefined && present === (step.state === 'visible')) {
      return step.state === 'visible' ? `"${step.expected}" appeared` : `"${step.expected}" is gone`;
    }
    if (Date.now() >= deadline) {
      throw new StepFailedError(
        step.state === 'visible'
          ? `"${step.expected}" did not appear within ${limit.name}`
          : `"${step.expected}" was still on the page after ${limit.name}`,
      );
    }
    await sleep(100, ctx.signal);
  }
}

async function waitForElement(ctx: StepContext, step: WaitForElementStep): Promise<string> {
  const limit = waitLimit(ctx, step.timeoutMs);
  const describe = describeTarget(step.target);
  ctx.report.target = logTarget(step.target);
  if (step.state === 'visible') {
    const found = await locate(ctx.page, step.target, {
      timeoutMs: limit.ms,
      limit: limit.name,
      signal: ctx.signal,
    });
    ctx.report.strategy = found.strategy;
    ctx.report.candidates = found.count;
    await disposeQuietly(found.handle);
    return `${describe} appeared`;
  }
  const deadline = Date.now() + limit.ms;
  for (;;) {
    const { match } = await findOnce(ctx.page, step.target);
    await disposeQuietly(match?.handle);
    if (!match?.visible) return `${describe} is gone`;
    if (Date.now() >= deadline)
      throw new StepFailedError(`${describe} was still visible after ${limit.name}`);
    await sleep(100, ctx.signal);
  }
}

/**
 * Page text, with the text of its frames after it (a person sees an `<iframe>`'s text as part of
 * the page), or undefined while a navigation has the page between documents.
 */
export async function safePageText(page: Page): Promise<string | undefined> {
  let text: string;
  try {
    text = await page.evaluate(pageText);
  } catch {
    return undefined;
  }
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || frame.detached) continue;
    const inner = await frame.evaluate(pageText).catch(() => '');
    if (inner) text = `${text} ${inner}`;
  }
  return text;
}
