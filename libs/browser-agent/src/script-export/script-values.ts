import type { ElementLocator } from '../element-description-script.js';
import type { RecordedAction } from '../recorded-action.js';
import { shownValue, tableValue } from '../page-values.js';
import type { MatchMode, ReadValueStep, ResizeStep, Target, TypeStep } from '../step-types.js';
import { transformExpression } from '../text-transforms.js';
import { escapeRegExp, javaScriptPattern } from '../user-pattern.js';

// What both script formats write the same way: secrets, strings, text and URL patterns, locators.

/** `{{secret.NAME}}` as the environment variable the exported script reads instead. */
export function secretEnvName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return (/^[0-9]/.test(clean) ? `_${clean}` : clean || 'SECRET').toUpperCase();
}

/**
 * A JavaScript expression for a recorded string: a literal, or `process.env.X` where the run typed a
 * secret, so exported scripts never contain a secret's value.
 */
export function jsString(text: string): string {
  const parts = text.split(/(\{\{secret\.[^}]+\}\})/).filter((part) => part !== '');
  if (parts.length === 0) return '""';
  const exprs = parts.map((part) => {
    const secret = /^\{\{secret\.([^}]+)\}\}$/.exec(part);
    return secret ? `(process.env.${secretEnvName(secret[1] ?? '')} ?? '')` : JSON.stringify(part);
  });
  return exprs.join(' + ');
}

/**
 * A `RegExp` built from data: source and flags are JSON strings, so no text from a test (an
 * expected value like `/a/;require('child_process')…//`) can ever become code in the script.
 */
export function regExpExpression(source: string, flags: string): string {
  return `new RegExp(${JSON.stringify(source)}, ${JSON.stringify(flags)})`;
}

/** A regular expression for how the interpreter compares texts (case-insensitive but for equals). */
export function textPattern(expected: string, mode: MatchMode): string {
  const e = escapeRegExp(expected.replace(/\s+/g, ' ').trim());
  switch (mode) {
    case 'equals':
      return regExpExpression(`^\\s*${e}\\s*$`, '');
    case 'contains':
      return regExpExpression(e, 'i');
    case 'startsWith':
      return regExpExpression(`^\\s*${e}`, 'i');
    case 'endsWith':
      return regExpExpression(`${e}\\s*$`, 'i');
    case 'matches': {
      const { source, flags } = javaScriptPattern(expected);
      return regExpExpression(source, flags);
    }
  }
}

export function urlPattern(expected: string, mode: MatchMode, initialUrl: string): string {
  if (mode === 'equals') {
    if (expected.startsWith('/')) {
      const path = escapeRegExp(expected.replace(/\/+$/, ''));
      return regExpExpression(`^[a-z]+:\\/\\/[^/]+${path}\\/?$`, '');
    }
    try {
      const href = escapeRegExp(new URL(expected, initialUrl).href.replace(/\/+$/, ''));
      return regExpExpression(`^${href}\\/?$`, '');
    } catch {
      return JSON.stringify(expected);
    }
  }
  return textPattern(expected, mode);
}

export function absoluteUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** The element of a recorded action, or (for old records) the target as it was named. */
export function locatorOf(action: RecordedAction): ElementLocator | undefined {
  if (action.element) return action.element;
  const target = (action.step as { target?: Target }).target;
  if (!target?.name || target.name.includes('data-agent-ref')) return undefined;
  return target.role ? { role: target.role, name: target.name, css: '' } : { text: target.name, css: '' };
}

/** The locator as a literal, keys in a fixed order (stored JSON may come back reordered). */
export function loc(element: ElementLocator | undefined): string {
  if (!element) return JSON.stringify({ css: 'body' });
  const { role, name, text, css } = element;
  return JSON.stringify({ role, name, text, css });
}

export function scrollExpression(
  direction: 'up' | 'down' | 'top' | 'bottom',
  pixels: number | undefined,
): string {
  if (direction === 'top') return '() => window.scrollTo(0, 0)';
  if (direction === 'bottom') return '() => window.scrollTo(0, document.documentElement.scrollHeight)';
  const by = pixels ?? 'Math.round(window.innerHeight * 0.8)';
  return `() => window.scrollBy(0, ${direction === 'up' ? '-' : ''}${by})`;
}

/** The same scroll inside an element (a text area, a list), for `el.evaluate(…)`. */
export function elementScrollExpression(
  direction: 'up' | 'down' | 'top' | 'bottom',
  pixels: number | undefined,
): string {
  if (direction === 'top') return '(el) => { el.scrollTop = 0; }';
  if (direction === 'bottom') return '(el) => { el.scrollTop = el.scrollHeight; }';
  const by = pixels ?? 'Math.round(el.clientHeight * 0.8)';
  return `(el) => { el.scrollTop += ${direction === 'up' ? '-' : ''}${by}; }`;
}

/** The text a type step writes: its value, or (read earlier in the run) the kept value, transformed. */
export function typedText(step: Pick<TypeStep, 'value' | 'valueFrom' | 'transforms'>): string {
  return step.valueFrom === undefined
    ? jsString(step.value)
    : transformExpression(`values[${JSON.stringify(step.valueFrom)}]`, step.transforms);
}

/** The in-page readers a `readValue` step runs, as source text for an exported script. */
export const TABLE_VALUE_SOURCE = tableValue.toString();
export const SHOWN_VALUE_SOURCE = shownValue.toString();

/** `values[name] = <expr>` with the step's transforms applied. */
export function keepValue(step: Pick<ReadValueStep, 'name' | 'transforms'>, expr: string): string {
  return `values[${JSON.stringify(step.name)}] = ${transformExpression(`(${expr})`, step.transforms)};`;
}

/** How far an exported script drags a resize handle: the interpreter's run measured the element; a script uses fixed steps. */
export function resizeDelta(step: Pick<ResizeStep, 'dimension' | 'grow'>): { dx: number; dy: number } {
  const sign = step.grow ? 1 : -1;
  return { dx: step.dimension === 'height' ? 0 : sign * 80, dy: step.dimension === 'width' ? 0 : sign * 60 };
}
