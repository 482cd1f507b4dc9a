import type { ElementHandle } from 'puppeteer-core';
import { findOnce } from './element-locator.js';
import { StepFailedError } from './run-limits.js';
import { disposeQuietly, findElement, type FoundElement, sleep, type StepContext } from './step-context.js';
import { readCalendar } from './calendar-script.js';
import { isoDate } from './date-values.js';
import { columnSortOrder, focusWithin, monthFirstLocale, rangeState, shownOption } from './widget-script.js';

// Actions on the widgets of component libraries: pick from an open list, move a slider or spinner
// by its keys, walk a menu path, sort a column. Each fails with what the page showed instead.

function timing(ctx: StepContext): { deadline: number; actionTimeoutMs: number } {
  return { deadline: ctx.deadline, actionTimeoutMs: ctx.limits.actionTimeoutMs };
}

/** Waits (up to `waitMs`, within the step's deadline) for an open list to show `name`. */
export async function waitForShownOption(
  ctx: StepContext,
  trigger: ElementHandle | null,
  name: string,
  waitMs: number,
): Promise<{ option: ElementHandle | null; shown: string[] }> {
  const until = Math.min(ctx.deadline, Date.now() + waitMs);
  for (;;) {
    const result = await ctx.page.evaluateHandle(shownOption, trigger, name);
    try {
      const shown = await result.evaluate((found) => found.shown);
      const option = (await result.getProperty('option')).asElement() as ElementHandle | null;
      if (option || Date.now() >= until) return { option, shown };
    } finally {
      await disposeQuietly(result as unknown as ElementHandle);
    }
    await sleep(100, ctx.signal);
  }
}

/** Clicks the option `name` in the list open now ("pick Berlin from the suggestions"). */
export async function pickShownOption(
  ctx: StepContext,
  trigger: ElementHandle | null,
  name: string,
  where: string,
): Promise<string> {
  const { option, shown } = await waitForShownOption(ctx, trigger, name, ctx.deadline - Date.now());
  if (!option) {
    throw new StepFailedError(
      `${where} shows no option "${name}" (${shown.length > 0 ? `shown: ${shown.map((s) => `"${s}"`).join(', ')}` : 'no list is open'})`,
    );
  }
  try {
    const label = ((await option.evaluate((el) => el.textContent ?? '')) || name).replace(/\s+/g, ' ').trim();
    await ctx.pointer.clickOn(option, `the option "${label}"`, timing(ctx));
    return label;
  } finally {
    await disposeQuietly(option);
  }
}

/**
 * "Set the slider to 30", "Select -3 with the spinner" on a widget drawn without a native input
 * (role slider or spinbutton): focus it and press arrow keys until it says that value. Undefined
 * when the element is no such widget.
 */
export async function stepRangeTo(
  ctx: StepContext,
  found: FoundElement,
  value: string,
): Promise<string | undefined> {
  const wanted = Number(value.trim());
  const first = await found.handle.evaluate(rangeState);
  if (first.native || !/^(?:slider|spinbutton)$/.test(first.role)) return undefined;
  if (!Number.isFinite(wanted)) throw new StepFailedError(`${found.describe} takes a number, not "${value}"`);
  if (Number.isNaN(first.now))
    throw new StepFailedError(`${found.describe} does not say its value (no aria-valuenow)`);
  if (wanted < first.min || wanted > first.max)
    throw new StepFailedError(
      `${found.describe} goes from ${first.min} to ${first.max}; ${wanted} is outside that range`,
    );
  await found.handle.evaluate(focusWithin);
  let now = first.now;
  let direction = 0;
  for (let presses = 0; now !== wanted; presses++) {
    const up = wanted > now;
    if (direction !== 0 && (up ? 1 : -1) !== direction)
      throw new StepFailedError(
        `${found.describe} moves in steps and cannot be set to ${wanted} (it passed from ${now})`,
      );
    direction = up ? 1 : -1;
    if (presses >= 1000 || Date.now() >= ctx.deadline)
      throw new StepFailedError(`${found.describe} stopped at ${now} on its way to ${wanted}`);
    await ctx.page.keyboard.press(up ? 'ArrowUp' : 'ArrowDown');
    const next = (await found.handle.evaluate(rangeState)).now;
    if (next === now)
      throw new StepFailedError(`${found.describe} stopped at ${now} on its way to ${wanted}`);
    now = next;
  }
  return `set ${found.describe} to ${wanted}`;
}

/**
 * "Open File > Export > PDF": each level is pointed at (menus open their sub-menu on hover) and
 * clicked when hovering showed nothing new; the caller clicks the last item.
 */
export async function openMenuPath(ctx: StepContext, path: readonly string[], last: string): Promise<void> {
  for (let i = 0; i < path.length; i++) {
    const name = path[i] as string;
    const next = path[i + 1] ?? last;
    const found = await findElement(ctx, { name });
    try {
      if (i === 0) await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
      else await ctx.pointer.moveOnto(found.handle, found.describe, timing(ctx));
      if (await appears(ctx, next, 800)) continue;
      // Hover opened nothing (or the click closed it again): click it.
      await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
      if (i === 0 && !(await appears(ctx, next, 800)))
        await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
    } finally {
      await disposeQuietly(found.handle);
    }
  }
}

async function appears(ctx: StepContext, name: string, waitMs: number): Promise<boolean> {
  const until = Math.min(ctx.deadline, Date.now() + waitMs);
  for (;;) {
    const { match } = await findOnce(ctx.page, { name });
    const visible = Boolean(match?.visible);
    await disposeQuietly(match?.handle);
    if (visible || Date.now() >= until) return visible;
    await sleep(100, ctx.signal);
  }
}

/** "Sort by Name descending": clicks the column header until the column reads that way. */
export async function sortColumn(
  ctx: StepContext,
  found: FoundElement,
  order: 'ascending' | 'descending',
): Promise<string> {
  const seen: string[] = [];
  for (let clicks = 0; ; clicks++) {
    // A grid may re-render after a click: give the order a moment to show.
    const until = Math.min(ctx.deadline, Date.now() + (clicks === 0 ? 0 : 1000));
    let now = await found.handle.evaluate(columnSortOrder);
    while (now !== order && Date.now() < until) {
      await sleep(100, ctx.signal);
      now = await found.handle.evaluate(columnSortOrder);
    }
    if (now === order)
      return `sorted by ${found.describe} (${order}) after ${clicks} click${clicks === 1 ? '' : 's'}`;
    seen.push(now ?? 'unsorted');
    if (clicks >= 3)
      throw new StepFailedError(
        `clicking ${found.describe} ${clicks} times never sorted it ${order} (it read: ${seen.join(', ')})`,
      );
    await ctx.pointer.clickOn(found.handle, found.describe, timing(ctx));
  }
}

/**
 * "Pick March 15, 2024 from the calendar": in the date picker's open calendar, pages month by month
 * toward the date and clicks its day. Undefined when `text` is no date.
 */
export async function pickFromCalendar(ctx: StepContext, text: string): Promise<string | undefined> {
  const iso = isoDate(text, await ctx.page.evaluate(monthFirstLocale).catch(() => true));
  if (!iso) return undefined;
  let problem = 'no calendar is open';
  for (let moves = 0; moves <= 120;) {
    const read = await ctx.page.evaluateHandle(readCalendar, iso);
    try {
      const found = (await read.getProperty('found')).asElement() as ElementHandle | null;
      if (found) {
        await ctx.pointer.clickOn(found, `${text} in the calendar`, timing(ctx));
        await disposeQuietly(found);
        return `picked ${text} (${iso}) in the calendar`;
      }
      const move = (await read.getProperty('move')).asElement() as ElementHandle | null;
      if (move) {
        const shown = String(await (await read.getProperty('shown')).jsonValue());
        await ctx.pointer.clickOn(move, `the calendar's arrow (it showed ${shown})`, timing(ctx));
        await disposeQuietly(move);
        moves++;
        continue;
      }
      problem = String(await (await read.getProperty('problem')).jsonValue());
    } finally {
      await read.dispose().catch(() => undefined);
    }
    if (Date.now() >= ctx.deadline) break;
    await sleep(100, ctx.signal);
  }
  throw new StepFailedError(`cannot pick ${text} in a calendar: ${problem}`);
}
