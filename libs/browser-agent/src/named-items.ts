import { namedItems, type NamedItems } from './element-state-script.js';
import type { Check } from './step-assertions.js';
import type { StepContext } from './step-context.js';
import type { CountComparison, MatchMode } from './step-types.js';
import { COMPARISON_WORDS, countHolds, quote, textMatches } from './text-match.js';

// Items a noun names where no element says the noun ("3 posts", "the first order is Dan Wu"): the
// repeated entries of the page's content that namedItems (element-state-script.ts) finds.

/** A plain noun of one word ("posts", "order"), which may name repeated items. */
export function itemNoun(name: string): boolean {
  return /^[a-z]{3,}$/i.test(name);
}

/**
 * The noun of "the 5th search result", "the second blog post": the last word of a short name of
 * plain words, when it may name repeated items; undefined otherwise.
 */
export function entryNoun(name: string): string | undefined {
  const words = name.trim().split(/\s+/);
  const last = words.at(-1) ?? '';
  return words.length <= 3 && words.every((w) => /^[a-z]+$/i.test(w)) && itemNoun(last) ? last : undefined;
}

/** "posts" → "post", "entries" → "entry", "boxes" → "box"; a singular stays. */
export function singularOf(noun: string): string {
  const word = noun.toLowerCase();
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:sses|xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}

async function read(ctx: StepContext, noun: string): Promise<NamedItems | null> {
  return ctx.page.evaluate(namedItems, singularOf(noun)).catch(() => null);
}

/** "There should be 3 posts": undefined when the page shows no items the noun names. */
export async function countNamedItems(
  ctx: StepContext,
  noun: string,
  count: number,
  comparison: CountComparison,
): Promise<Check | undefined> {
  const items = await read(ctx, noun);
  if (!items) return undefined;
  const found = items.texts.length;
  const holds = countHolds(found, count, comparison);
  const plural = noun.toLowerCase();
  return {
    ok: holds,
    key: String(found),
    vacuous: holds && found === 0,
    message: holds
      ? `found ${found} ${plural} (the ${items.what})`
      : `expected ${COMPARISON_WORDS[comparison]} ${count} ${plural} but found ${found} (the ${items.what})`,
  };
}

/**
 * "The first post is by @ada", "the last order says Dan Wu": the item at that position holds the
 * text ("by" and "from" are how people say who wrote it). Undefined when the page shows no items
 * the noun names.
 */
export async function checkNamedItem(
  ctx: StepContext,
  noun: string,
  position: number,
  expected: string,
  mode: MatchMode,
  negate: boolean,
): Promise<Check | undefined> {
  const items = await read(ctx, noun);
  if (!items) return undefined;
  const { texts } = items;
  const index = position < 0 ? texts.length + position : position - 1;
  const text = texts[index];
  const subject = `the ${position === -1 ? 'last' : ordinalOf(position)} ${singularOf(noun)}`;
  if (text === undefined)
    return {
      ok: false,
      message: `there is no ${subject}: the page shows ${texts.length} (the ${items.what})`,
    };
  const wanted = expected.replace(/^(?:by|from|written by|posted by)\s+/i, '');
  const matched = textMatches(text, wanted, mode === 'equals' ? 'contains' : mode);
  const ok = matched !== negate;
  return {
    ok,
    key: text,
    message: ok
      ? `${subject} (of the ${items.what}) shows ${quote(text)}`
      : `expected ${subject} (of the ${items.what}) ${negate ? 'not ' : ''}to show "${wanted}" but it shows ${quote(text)}`,
  };
}

function ordinalOf(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
