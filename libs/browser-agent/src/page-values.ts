import type { Page } from 'puppeteer-core';
import type { DomDocument, DomElement } from './page-dom.js';
import { StepFailedError } from './run-limits.js';
import { disposeQuietly, findElement, sleep, type StepContext } from './step-context.js';
import type { ReadValueStep } from './step-types.js';
import { applyTransforms } from './text-transforms.js';

declare const document: DomDocument;

/** `nextElementSibling`, which the page-DOM types leave out. */
type Sibling = DomElement & { nextElementSibling?: DomElement | null };

/** Values read during a run, by name; a job's page lives as long as its run. */
const VALUES = new WeakMap<Page, Map<string, string>>();

/** The value a `readValue` step kept under `name` on this page's run, if any. */
export function keptValue(page: Page, name: string): string | undefined {
  return VALUES.get(page)?.get(name);
}

/** Runs a `readValue` step: reads the value, applies its transforms, keeps it for later steps. */
export async function readValue(ctx: StepContext, step: ReadValueStep): Promise<string> {
  let value: string;
  let from: string;
  if (step.label !== undefined) {
    const label = step.label;
    from = `the cell of "${label}"`;
    ctx.report.target = label;
    for (;;) {
      const read = await ctx.page.evaluate(tableValue, label).catch(() => null);
      if (read !== null) {
        value = read;
        break;
      }
      if (Date.now() >= ctx.deadline)
        throw new StepFailedError(
          `no table row or column (nor a term of a list) is headed "${label}" within the action timeout of ${ctx.limits.actionTimeoutMs} ms`,
        );
      await sleep(100, ctx.signal);
    }
  } else if (step.target) {
    const found = await findElement(ctx, step.target);
    from = found.describe;
    try {
      value = await found.handle.evaluate(shownValue, step.target.name);
    } finally {
      await disposeQuietly(found.handle);
    }
  } else {
    throw new StepFailedError('the step does not say where to read the value from');
  }
  const kept = applyTransforms(value, step.transforms);
  const values = VALUES.get(ctx.page) ?? new Map<string, string>();
  VALUES.set(ctx.page, values);
  values.set(step.name, kept);
  return `read "${kept}" from ${from}${step.name === 'clipboard' ? '' : ` as ${step.name}`}`;
}

/**
 * In the page: the cell a heading names. A row whose first cell (or a header cell) says `label`
 * gives the cell after it; a column headed `label` gives its cell in the first row of data; a
 * `<dt>` gives its `<dd>`. Null when nothing is headed so.
 */
export function tableValue(label: string): string | null {
  const norm = (s: string | null | undefined) =>
    (s ?? '')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim()
      .replace(/:$/, '')
      .toLowerCase();
  const text = (el: DomElement) => (el.innerText ?? el.textContent ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const want = norm(label);
  const cellsOf = (row: DomElement) =>
    Array.from(row.children).filter(
      (c) => /^(?:TD|TH)$/.test(c.tagName) || /cell|header/.test(c.getAttribute('role') ?? ''),
    );
  for (const table of Array.from(document.querySelectorAll('table, [role=table], [role=grid]'))) {
    const rows = Array.from(table.querySelectorAll('tr, [role=row]'));
    for (const row of rows) {
      const cells = cellsOf(row);
      const at = cells.findIndex((c) => norm(text(c)) === want);
      const next = cells[at + 1];
      if (at >= 0 && next && (at === 0 || cells[at]?.tagName === 'TH')) return text(next);
    }
    for (const [index, row] of rows.entries()) {
      const cells = cellsOf(row);
      const at = cells.findIndex((c) => norm(text(c)) === want);
      if (at < 0) continue;
      const data = rows.slice(index + 1).find((r) => cellsOf(r)[at] !== undefined);
      const cell = data ? cellsOf(data)[at] : undefined;
      if (cell) return text(cell);
    }
  }
  for (const term of Array.from(document.querySelectorAll('dt'))) {
    const next = (term as Sibling).nextElementSibling;
    if (norm(text(term)) === want && next) return text(next);
  }
  return null;
}

/**
 * In the page: what an element shows as its value. A field's value (a label's field's); otherwise
 * its text, without the name it was found by when it starts with it ("Order number: A-123"), or
 * the text of what follows it when that is all it says.
 */
export function shownValue(el: DomElement, name: string): string {
  const field = (node: DomElement | null | undefined) =>
    node && /^(?:INPUT|TEXTAREA|SELECT)$/.test(node.tagName) ? node : null;
  const control =
    field(el) ?? (el.tagName === 'LABEL' ? field((el as unknown as { control?: DomElement }).control) : null);
  if (control) return String((control as unknown as { value?: string }).value ?? '');
  if (el.isContentEditable) return (el.innerText ?? '').trim();
  const clean = (s: string | null | undefined) => (s ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const own = clean(el.innerText ?? el.textContent);
  const label = clean(name).toLowerCase();
  if (label && own.toLowerCase().startsWith(label)) {
    const rest = own.slice(label.length).replace(/^[\s:#=–—-]+/, '');
    if (rest) return rest;
    const next = (el as Sibling).nextElementSibling;
    if (next) return clean(next.innerText ?? next.textContent);
  }
  // "Your order number is A-4821.": what the sentence says the value is.
  const at = label ? own.toLowerCase().indexOf(label) : -1;
  if (at >= 0) {
    const said = /^\s*(?:is|was|:|=)\s+(\S(?:.{0,80}?\S)?)[.!]?$/i.exec(own.slice(at + label.length));
    if (said?.[1]) return said[1];
  }
  return own;
}
