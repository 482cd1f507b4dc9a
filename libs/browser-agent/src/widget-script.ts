import type { DomDocument, DomElement, DomRoot, DomWindow } from './page-dom.js';

// Evaluated inside the page: everything it needs lives inside each function.
declare const document: DomDocument;
declare const window: DomWindow;

export interface ShownOptions {
  /** The option to click, or null. */
  option: DomElement | null;
  /** What the open list shows, for the message when the wanted option is not there. */
  shown: string[];
}

/**
 * The option named `wanted` in a list that is open now: a listbox's options, a menu's items, or
 * the plain items (`li`, `.option`, `.item`) of a popup, whatever the library. Exact text first,
 * then the start of it, then part of it; never an element inside `trigger` unless the list is there.
 */
export function shownOption(trigger: DomElement | null, wanted: string): ShownOptions {
  const normalize = (text: string | null | undefined) =>
    (text ?? '')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim()
      .toLowerCase();
  const want = normalize(wanted);
  const roots: DomRoot[] = [];
  const collect = (root: DomRoot): void => {
    roots.push(root);
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) collect(el.shadowRoot);
  };
  collect(document as unknown as DomRoot);
  const visible = (el: DomElement): boolean => {
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 1 && rect.height > 1 && window.getComputedStyle(el).visibility !== 'hidden';
  };
  const SELECTOR =
    '[role=option], [role=menuitem], [role=menuitemradio], [role=treeitem], li, [class*=option], [class*=item], [class*=suggestion], [class*=result]';
  // Lists a trigger says it controls come first: the popup it opened.
  const controlled = new Set<DomElement>();
  for (const attribute of ['aria-controls', 'aria-owns']) {
    for (const id of (trigger?.getAttribute(attribute) ?? '').split(/\s+/).filter(Boolean)) {
      const list = document.getElementById(id);
      if (list) controlled.add(list);
    }
  }
  const inControlled = (el: DomElement): boolean => {
    for (const list of controlled) if (list.contains(el)) return true;
    return false;
  };
  const candidates = roots
    .flatMap((root) => Array.from(root.querySelectorAll(SELECTOR)))
    .filter(
      (el) =>
        visible(el) &&
        el.getAttribute('aria-disabled') !== 'true' &&
        !(trigger && trigger !== el && trigger.contains(el) && !inControlled(el)) &&
        !/^(?:UL|OL|SELECT|INPUT|BUTTON)$/.test(el.tagName),
    );
  const textOf = (el: DomElement) => normalize(el.innerText ?? el.textContent);
  // The innermost candidate holding the text: an option's wrapper holds it too.
  const innermost = (list: DomElement[]) =>
    list.filter((el) => !list.some((o) => o !== el && el.contains(o)));
  const ranked = (test: (text: string) => boolean) => {
    const hits = innermost(candidates.filter((el) => test(textOf(el))));
    return hits.sort((a, b) => Number(inControlled(b)) - Number(inControlled(a)));
  };
  // "Ant…ua": an option that starts with the first part and ends with the second.
  const [head = '', tail] = want.split('…');
  const option =
    (tail !== undefined
      ? ranked((t) => t.length >= head.length + tail.length && t.startsWith(head) && t.endsWith(tail))[0]
      : undefined) ??
    ranked((t) => t === want)[0] ??
    ranked((t) => t.startsWith(want))[0] ??
    (want.length >= 2 ? ranked((t) => t.includes(want))[0] : undefined) ??
    null;
  const shown = [
    ...new Set(innermost(candidates).map((el) => (el.innerText ?? '').replace(/\s+/g, ' ').trim())),
  ]
    .filter((t) => t && t.length <= 60)
    .slice(0, 8);
  return { option, shown };
}

export interface RangeState {
  role: string;
  now: number;
  min: number;
  max: number;
  native: boolean;
}

/**
 * A slider's or spinner's value as ARIA (or the native input) states it; for a slider drawn
 * without ARIA, as its handle's ARIA or jQuery UI's widget (which keeps it in script) states it.
 */
export function rangeState(el: DomElement): RangeState {
  const role = (el.getAttribute('role') ?? '').toLowerCase();
  const native = el.tagName === 'INPUT';
  if (!native && !role) {
    const inner = el.querySelector('[role=slider]');
    if (inner) return rangeState(inner);
    type Widget = { slider(method: string, option?: string): unknown };
    const jquery = (globalThis as unknown as { jQuery?: (el: DomElement) => Widget }).jQuery;
    if (jquery && / ui-slider /.test(` ${el.getAttribute('class') ?? ''} `)) {
      const widget = jquery(el);
      return {
        role: 'slider',
        native: false,
        now: Number(widget.slider('value')),
        min: Number(widget.slider('option', 'min')),
        max: Number(widget.slider('option', 'max')),
      };
    }
  }
  const read = (attribute: string, fallback: number) => {
    const raw = el.getAttribute(attribute);
    return raw === null || raw === '' ? fallback : Number(raw);
  };
  return {
    role,
    native,
    now: native ? Number(el.value) : read('aria-valuenow', NaN),
    min: read(native ? 'min' : 'aria-valuemin', -Infinity),
    max: read(native ? 'max' : 'aria-valuemax', Infinity),
  };
}

/** Whether the browser writes dates month first (en-US: 10/11/2011 is October 11th). */
export function monthFirstLocale(): boolean {
  const parts = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric' })
    .formatToParts(new Date(2011, 9, 11))
    .map((part) => part.type);
  return parts.indexOf('month') < parts.indexOf('day');
}

/**
 * How the column under `header` is sorted now: its aria-sort, a class saying asc/desc, or else the
 * order of the column's data cells (numbers as numbers); null when none of them says.
 */
export function columnSortOrder(header: DomElement): 'ascending' | 'descending' | null {
  let th: DomElement | null = header;
  while (th && !/^(?:TH|TD)$/.test(th.tagName) && th.getAttribute('role') !== 'columnheader')
    th = th.parentElement;
  const cell = th ?? header;
  for (let node: DomElement | null = header; node && node !== cell.parentElement; node = node.parentElement) {
    const aria = node.getAttribute('aria-sort');
    if (aria === 'ascending' || aria === 'descending') return aria;
    const cls = ` ${(node.getAttribute('class') ?? '').toLowerCase()} `;
    if (/[\s_-](?:asc|ascending|sorted-asc|sort-up)[\s_-]/.test(cls)) return 'ascending';
    if (/[\s_-](?:desc|descending|sorted-desc|sort-down)[\s_-]/.test(cls)) return 'descending';
  }
  const row = cell.parentElement;
  const table = cell.closest('table, [role=grid], [role=table], [role=treegrid]');
  if (!row || !table) return null;
  const column = Array.from(row.children).indexOf(cell);
  const rows = Array.from(table.querySelectorAll('tr, [role=row]')).filter(
    (r) => r !== row && !r.closest('thead') && r.children.length > column,
  );
  const values = rows.map((r) => (r.children[column]?.textContent ?? '').replace(/\s+/g, ' ').trim());
  if (values.length < 2) return null;
  const numeric = values.every((v) => v !== '' && !Number.isNaN(Number(v.replace(/[^0-9.eE+-]/g, ''))));
  const compare = (a: string, b: string) =>
    numeric
      ? Number(a.replace(/[^0-9.eE+-]/g, '')) - Number(b.replace(/[^0-9.eE+-]/g, ''))
      : a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
  const pairs = values.slice(1).map((v, i) => compare(values[i] as string, v));
  if (pairs.every((d) => d === 0)) return null;
  if (pairs.every((d) => d <= 0)) return 'ascending';
  if (pairs.every((d) => d >= 0)) return 'descending';
  return null;
}

/**
 * Selects the first occurrence of `text` in a field or an editable region (case-insensitive when
 * no exact one), as a person drags over it; false when it is not there.
 */
export function selectTextIn(el: DomElement, text: string): boolean {
  const field = el as DomElement & {
    setSelectionRange?: (start: number, end: number) => void;
    focus(): void;
  };
  if (/^(?:INPUT|TEXTAREA)$/.test(el.tagName) && field.setSelectionRange) {
    const value = el.value ?? '';
    let at = value.indexOf(text);
    if (at === -1) at = value.toLowerCase().indexOf(text.toLowerCase());
    if (at === -1) return false;
    field.focus();
    field.setSelectionRange(at, at + text.length);
    return true;
  }
  interface TextNode {
    textContent: string | null;
    nodeType: number;
  }
  const nodes: TextNode[] = [];
  const walk = (node: { childNodes: ArrayLike<unknown> }) => {
    for (const child of Array.from(node.childNodes) as Array<TextNode & { childNodes: ArrayLike<unknown> }>) {
      if (child.nodeType === 3) nodes.push(child);
      else if (child.nodeType === 1) walk(child);
    }
  };
  walk(el as unknown as { childNodes: ArrayLike<unknown> });
  const whole = nodes.map((n) => n.textContent ?? '').join('');
  let at = whole.indexOf(text);
  if (at === -1) at = whole.toLowerCase().indexOf(text.toLowerCase());
  if (at === -1) return false;
  const locate = (offset: number, end: boolean): [TextNode, number] | undefined => {
    let passed = 0;
    for (const node of nodes) {
      const length = (node.textContent ?? '').length;
      if (offset < passed + length || (end && offset === passed + length)) return [node, offset - passed];
      passed += length;
    }
    return undefined;
  };
  const start = locate(at, false);
  const finish = locate(at + text.length, true);
  if (!start || !finish) return false;
  field.focus();
  const doc = document as unknown as {
    createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void };
    getSelection(): { removeAllRanges(): void; addRange(r: unknown): void } | null;
  };
  const range = doc.createRange();
  range.setStart(start[0], start[1]);
  range.setEnd(finish[0], finish[1]);
  const selection = doc.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return true;
}

/**
 * Gives the keyboard to `el`, or to the first control inside it when it takes none itself (a
 * slider's handle in its track, a widget's input in its box).
 */
export function focusWithin(el: DomElement): void {
  const focusable = (node: DomElement): boolean =>
    node.matches('input, select, textarea, button, a[href], [contenteditable=""], [contenteditable=true]') ||
    (node.hasAttribute('tabindex') && node.getAttribute('tabindex') !== '-1');
  const inner = focusable(el)
    ? el
    : el.querySelector(
        '[role=slider], [role=spinbutton], input, select, textarea, button, [tabindex]:not([tabindex="-1"])',
      );
  (inner ?? el).focus();
}
