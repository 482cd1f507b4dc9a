import type { Page } from 'puppeteer-core';
import type { DomWindow } from './page-dom.js';
import type { AssertionStep } from './step-types.js';

// Evaluated inside the page.
declare const window: DomWindow & Record<string, unknown>;
declare const document: unknown;
declare const MutationObserver: new (callback: (records: unknown[]) => void) => {
  observe(target: unknown, options: Record<string, boolean>): void;
};

/**
 * How long after an action a list or table may still change on its own: filters that wait for
 * typing to pause (debounce) commonly wait 250–500 ms (ag-grid's text filter 500, Tabulator's header
 * filter 300, Grid.js's search 250), then render.
 */
export const ACTION_SETTLE_MS = 650;
/** Two reads this far apart, with no DOM change between them, must agree. */
export const STABLE_MS = 120;
/** An answer that is "nothing there" (0 rows, an empty table) must hold this long: data may still be loading. */
export const VACUOUS_STABLE_MS = 450;
/** A page that never stops changing (a ticking clock): the same answer this long is settled. */
export const CHURN_STABLE_MS = 1200;

const lastActions = new WeakMap<Page, number>();

/** Called when an action step on `page` ends: assertions about lists and tables wait out its effects. */
export function noteActionDone(page: Page): void {
  lastActions.set(page, Date.now());
  // Watch the page from now on, so the first check after the action knows whether it is at rest;
  // and start the page's own settle timer (see `markActionEnd`).
  void Promise.resolve()
    .then(() => page.evaluate(mutationCount))
    .then(() => page.evaluate(markActionEnd, ACTION_SETTLE_MS))
    .catch(() => undefined);
}

/**
 * In the page: a timer of `ms` from the action's end. The page runs its timers in the order they
 * fall due, so when it has fired, every timer the action itself started for less than that (an
 * error shown 300 ms after a click, a debounced filter) has fired too, however late a loaded
 * machine runs them: the wall clock alone would let a "not shown" pass read before them.
 */
export function markActionEnd(ms: number): void {
  const state = { done: false };
  window.__suiteActionSettle = state;
  setTimeout(() => {
    state.done = true;
  }, ms);
}

/** In the page: true once the timer `markActionEnd` started has fired (or none was started). */
export function actionTimerFired(): boolean {
  const state = window.__suiteActionSettle as { done: boolean } | undefined;
  return state === undefined || state.done;
}

/** Assertions whose pass could be read from a page still changing: counts, tables, "not" and "hidden" ones. */
export function needsSettling(step: AssertionStep): boolean {
  switch (step.action) {
    case 'assertCount':
    case 'assertTable':
      return true;
    case 'assertText':
    case 'assertElementText':
      return step.negate;
    case 'assertState':
      return step.state === 'hidden';
    default:
      return false;
  }
}

/** How many DOM changes the page has seen since this was first asked (a counter in the page). */
export function mutationCount(): number {
  const KEY = '__suiteSettleMutations';
  let state = window[KEY] as { count: number } | undefined;
  if (!state) {
    // `last`: when the page last changed (or, before any change, when watching began).
    const created = { count: 0, last: performance.now() };
    state = created;
    new MutationObserver((records) => {
      created.count += records.length;
      created.last = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    window[KEY] = created;
  }
  return state.count;
}

/** How long a page must stay unchanged, right after an action, for a shown thing to count as shown. */
export const AT_REST_MS = 30;
/** How much longer a pass read on a still-animating page waits for the animation to end. */
export const MOTION_GRACE_MS = 2_000;

/**
 * In the page: true when nothing changes for `ms` (no DOM mutation, no finite CSS animation or
 * transition running): an accordion still closing, a list still filling, is not at rest. It sets
 * up the same watcher as `mutationCount` when none runs yet (each is evaluated in the page on its
 * own, so neither can call the other).
 */
export function atRest(ms: number): Promise<boolean> {
  const KEY = '__suiteSettleMutations';
  const fresh = window[KEY] === undefined;
  if (fresh) {
    const created = { count: 0, last: performance.now() };
    new MutationObserver((records) => {
      created.count += records.length;
      created.last = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    window[KEY] = created;
  }
  const state = window[KEY] as { count: number; last: number };
  const moving = (): boolean => {
    const doc = document as {
      getAnimations?: () => Array<{
        playState: string;
        effect?: { getTiming?: () => { iterations?: number } } | null;
      }>;
    };
    // jQuery's own animations (jQuery UI's accordion, slideUp/fadeOut) run on timers, not as Web
    // Animations: its queue of running timers says it is moving.
    const jq = (window as { jQuery?: { timers?: unknown[] } }).jQuery;
    if ((jq?.timers?.length ?? 0) > 0) return true;
    return (doc.getAnimations?.() ?? []).some(
      (a) => a.playState === 'running' && Number.isFinite(a.effect?.getTiming?.().iterations ?? 1),
    );
  };
  // Watched since before this moment and unchanged for `ms` already: at rest now.
  if (!fresh && performance.now() - state.last >= ms && !moving()) return Promise.resolve(true);
  const before = state.count;
  return new Promise((resolve) => {
    setTimeout(() => resolve(state.count === before && !moving()), ms);
  });
}

interface Held {
  key: string;
  since: number;
  /** When the current quiet stretch (same answer, no DOM change) began. */
  quietSince: number;
  mutations: number;
}

/**
 * Tracks one assertion's passing reads: `settled` says when a pass may be reported, which is when
 * the same answer was read twice a short interval apart with no DOM change between, after the
 * effects of the last action had time to show (or the answer held a long while on a busy page).
 */
export class SettleTracker {
  private held: Held | undefined;

  /**
   * `light`: for assertions that a pass cannot be read early from (something is shown): right
   * after an action only, a pass stands once the page is at rest (`atRest`); on a page still moving
   * (an accordion closing shows its panel) the answer must be read twice with the page quiet
   * between, without waiting out a filter's debounce.
   */
  constructor(
    private readonly page: Page,
    private readonly light = false,
    /** Nothing to wait for: the first passing read stands (the URL, the title). */
    private readonly immediate = false,
  ) {}

  /** A failing read: the next pass starts a new streak. */
  reset(): void {
    this.held = undefined;
  }

  /** A passing read with its answer; true when the pass can be reported. */
  async settled(key: string, vacuous: boolean): Promise<boolean> {
    if (this.immediate) return true;
    if (this.light && !this.held) {
      const acted = lastActions.get(this.page);
      if (acted === undefined) return true;
      // A page at rest (no DOM change, no transition running) for a few frames confirms the pass at
      // once; one still moving is read again as below. That holds long after the action too: on a
      // loaded machine an accordion may still be closing a second later, showing what it hides.
      if (await this.page.evaluate(atRest, AT_REST_MS).catch(() => false)) return true;
    }
    const mutations = await this.page.evaluate(mutationCount).catch(() => -1);
    const now = Date.now();
    const held = this.held;
    if (!held || held.key !== key || mutations < 0) {
      this.held = { key, since: now, quietSince: now, mutations };
      return false;
    }
    if (held.mutations !== mutations) {
      held.mutations = mutations;
      held.quietSince = now;
    }
    const acted = lastActions.get(this.page);
    if (!this.light && acted !== undefined && !(await this.actionSettled())) return false;
    const quiet = now - held.quietSince >= (vacuous ? VACUOUS_STABLE_MS : STABLE_MS);
    if (now - held.since >= CHURN_STABLE_MS) return true;
    // Quiet between two reads is not rest while an animation runs: on a loaded machine its frames
    // can come further apart than the quiet window.
    return quiet && (!this.light || (await this.page.evaluate(atRest, 0).catch(() => true)));
  }

  /**
   * At the deadline, a pass not yet confirmed: true when it may stand. A shown-element pass on a
   * page still animating (an accordion closing) is held up to MOTION_GRACE_MS more, once.
   */
  async standsAtDeadline(): Promise<boolean> {
    if (!(await this.actionSettled())) return false;
    if (!this.light || this.graceUsed) return true;
    if (await this.page.evaluate(atRest, 0).catch(() => true)) return true;
    this.graceUsed = true;
    return false;
  }
  private graceUsed = false;

  /** When the next read should come: soon while a pass is being confirmed. */
  nextReadMs(defaultMs: number): number {
    if (!this.held) return defaultMs;
    if (this.light) return STABLE_MS;
    const acted = lastActions.get(this.page);
    const untilSettled = acted === undefined ? 0 : ACTION_SETTLE_MS - (Date.now() - acted);
    return Math.max(STABLE_MS, Math.min(defaultMs, untilSettled));
  }

  /** True once the last action on the page is long enough ago for a debounced filter to have run. */
  async actionSettled(): Promise<boolean> {
    if (this.light && this.held) return true;
    const acted = lastActions.get(this.page);
    if (acted === undefined) return true;
    if (Date.now() - acted < ACTION_SETTLE_MS) return false;
    return this.page.evaluate(actionTimerFired).catch(() => true);
  }
}
