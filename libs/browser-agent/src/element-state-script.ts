import type { DomDocument, DomElement, DomNode, DomWindow } from './page-dom.js';

// Evaluated inside the page: each function must be self-contained.
declare const document: DomDocument;
declare const window: DomWindow;

export interface ElementSnapshot {
  tag: string;
  type: string;
  visible: boolean;
  disabled: boolean;
  readonly: boolean;
  editable: boolean;
  checkable: boolean;
  /** null when the element has no checked state. */
  checked: boolean | null;
  /** Open or closed (a tree item, an accordion header, a `<details>`); null when it is neither. */
  expanded: boolean | null;
  /** Drawn in bold (weight 600 or more) or in italics, as a rich-text editor formats it. */
  bold: boolean;
  italic: boolean;
  focused: boolean;
  isField: boolean;
  isSelect: boolean;
  isPassword: boolean;
  value: string;
  text: string;
}

/** Everything the runner asks about an element, read in one round trip. */
export function readElementState(el: DomElement, wanted?: string): ElementSnapshot {
  // A panel collapsing to nothing (an accordion's, height → 0 with overflow hidden) hides what it
  // holds before the page marks it hidden: what it clips away is not shown.
  const clippedAway = (node: DomElement): boolean => {
    for (let up = node.parentElement, depth = 0; up && depth < 8; up = up.parentElement, depth++) {
      const box = up.getBoundingClientRect();
      if (box.width > 1 && box.height > 1) continue;
      const style = window.getComputedStyle(up);
      if ((style.overflowX ?? 'visible') !== 'visible' || (style.overflowY ?? 'visible') !== 'visible')
        return true;
    }
    return false;
  };
  const selfVisible = (node: DomElement): boolean => {
    if (!node.isConnected) return false;
    if (node.checkVisibility && !node.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return false;
    const rect = node.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && !clippedAway(node);
  };
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const role = (el.getAttribute('role') ?? '').toLowerCase();
  const isSelect = tag === 'select';
  const isField =
    tag === 'textarea' ||
    isSelect ||
    (tag === 'input' && !/^(?:checkbox|radio|button|submit|reset|image|hidden)$/.test(type));
  const disabled =
    Boolean(el.disabled) ||
    // aria-disabled holds for the element and what it contains (jQuery UI marks the menu's <li>,
    // the role=menuitem <div> inside it is what a person names).
    Boolean(el.closest('[aria-disabled="true"]')) ||
    Boolean(el.closest('fieldset[disabled]') && /^(?:input|select|textarea|button)$/.test(tag));
  const readonly = Boolean(el.readOnly) || el.getAttribute('aria-readonly') === 'true';
  const nativeCheckable = tag === 'input' && (type === 'checkbox' || type === 'radio');
  const ariaChecked =
    el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
  // A component whose role and state live in ElementInternals (Material's md-radio) shows no ARIA
  // attributes; its `checked` property says what it draws.
  const componentChecked =
    tag.includes('-') && ariaChecked === null && typeof el.checked === 'boolean' ? el.checked : null;
  const checkable =
    nativeCheckable ||
    tag === 'option' ||
    ariaChecked !== null ||
    componentChecked !== null ||
    /^(?:checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role);
  const checked = nativeCheckable
    ? Boolean(el.checked)
    : componentChecked !== null
      ? componentChecked
      : tag === 'option'
        ? Boolean((el as DomElement & { selected?: boolean }).selected)
        : ariaChecked !== null
          ? ariaChecked === 'true'
          : null;
  // Expanded: its own aria-expanded, the tree item or header it sits in, or the <details> whose
  // summary it is; a component (sl-tree-item, sl-details) may only keep it in a property.
  const expandedOf = (): boolean | null => {
    const own = el.closest('[aria-expanded]');
    if (own) return own.getAttribute('aria-expanded') === 'true';
    const summary = el.closest('summary');
    const details = summary?.parentElement;
    if (details && details.tagName === 'DETAILS')
      return Boolean((details as DomElement & { open?: boolean }).open);
    for (let node: DomElement | null = el; node; node = node.parentElement) {
      const withState = node as DomElement & { expanded?: unknown; open?: unknown };
      if (node.tagName.includes('-') && typeof withState.expanded === 'boolean') return withState.expanded;
      if (node.tagName.includes('-') && typeof withState.open === 'boolean') return withState.open;
    }
    return null;
  };
  const expanded = expandedOf();
  // Bold or italic is a property of the words: the element around the text named ("Important"
  // in an editor's paragraph is its <strong>), else the element itself.
  const styledAt = (): DomElement => {
    const want = (wanted ?? '').toLowerCase().trim();
    if (!want) return el;
    const stack: DomNode[] = [el];
    while (stack.length > 0) {
      const node = stack.pop() as DomNode;
      if (node.nodeType === 3 && (node.textContent ?? '').toLowerCase().includes(want))
        return node.parentElement ?? el;
      stack.push(...Array.from(node.childNodes).reverse());
    }
    return el;
  };
  const words = styledAt();
  const style = window.getComputedStyle(words) as unknown as { fontWeight?: string; fontStyle?: string };
  const bold = Number(style.fontWeight ?? '400') >= 600 || Boolean(words.closest('b, strong'));
  const italic = /italic|oblique/.test(style.fontStyle ?? '') || Boolean(words.closest('i, em'));
  // Focus inside a shadow root shows on the document as its host; follow it down.
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  let focused = false;
  for (let node = active; node && !focused; node = node.parentElement ?? node.parentNode?.host ?? null) {
    focused = node === el;
  }
  let value = '';
  if (isSelect) {
    value = Array.from(el.selectedOptions ?? [])
      .map((option) => option.label || option.text)
      .join(', ');
  } else if (isField) {
    value = el.value ?? '';
  } else if (el.isContentEditable) {
    value = el.innerText ?? '';
  }
  const labelsVisible = el.labels ? Array.from(el.labels).some(selfVisible) : false;
  // A native control a component hides inside its shadow root shows as the component does.
  const host = /^(?:input|textarea|select)$/.test(tag) ? el.getRootNode().host : undefined;
  const hostVisible = host !== undefined && selfVisible(host);
  // A transparent checkbox or radio laid over the picture of one: a click on its spot reaches it.
  const clearOverDrawing = (): boolean => {
    if (!nativeCheckable || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width < 8 || rect.height < 8) return false;
    return el.getRootNode().elementFromPoint?.(rect.left + rect.width / 2, rect.top + rect.height / 2) === el;
  };
  // innerText leaves out what a component's slots show; read the flattened tree then.
  const flatText = (node: DomNode): string => {
    if (node.nodeType === 3) return node.textContent ?? '';
    if (node.nodeType !== 1) return '';
    const element = node as DomElement;
    if (/^(?:SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/.test(element.tagName)) return '';
    const assigned =
      element.tagName === 'SLOT' && element.assignedNodes ? element.assignedNodes({ flatten: true }) : [];
    const children =
      assigned.length > 0
        ? assigned
        : element.shadowRoot
          ? element.shadowRoot.childNodes
          : element.childNodes;
    const inner = Array.from(children).map(flatText).join('');
    return /^(?:DIV|P|LI|TD|TH|BR|H[1-6]|LABEL|BUTTON)$/.test(element.tagName) ? ` ${inner} ` : inner;
  };
  const squeezed = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim();
  const shown = squeezed(el.innerText ?? el.textContent ?? '');
  return {
    tag,
    type,
    visible: selfVisible(el) || labelsVisible || hostVisible || clearOverDrawing(),
    disabled,
    readonly,
    editable: (isField && !isSelect) || Boolean(el.isContentEditable),
    checkable,
    checked,
    expanded,
    bold,
    italic,
    focused,
    isField,
    isSelect,
    isPassword: type === 'password',
    value,
    text: shown || squeezed(flatText(el)),
  };
}

/**
 * The element to aim the mouse at: the element itself, or, for a visually hidden checkbox or radio
 * (a common custom-styled control), its visible label.
 */
export function pointerProxy(el: DomElement): DomElement {
  const selfVisible = (node: DomElement): boolean => {
    if (node.checkVisibility && !node.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return false;
    const rect = node.getBoundingClientRect();
    return rect.width > 1 && rect.height > 1;
  };
  // A row-wide container named by its text (a tree item's <li>, a list entry) is clicked on its
  // words, as a person does: the handler often sits on the text's own element, not the row.
  const CONTROL = /^(?:A|BUTTON|INPUT|SELECT|TEXTAREA|LABEL|SUMMARY|OPTION)$/;
  const textOf = (node: DomElement) => (node.innerText ?? '').replace(/\s+/g, ' ').trim();
  const onWords = (node: DomElement, depth: number): DomElement => {
    if (depth > 4 || CONTROL.test(node.tagName) || node.isContentEditable || node.shadowRoot) return node;
    const own = Array.from(node.childNodes).some(
      (child) => child.nodeType === 3 && (child.textContent ?? '').trim(),
    );
    const text = textOf(node);
    if (own || !text) return node;
    const carriers = Array.from(node.children).filter((child) => selfVisible(child) && textOf(child));
    const only = carriers.length === 1 ? carriers[0] : undefined;
    return only && textOf(only) === text ? onWords(only, depth + 1) : node;
  };
  // An entry of a list (a search result, an article card) holding one link: the link is what
  // opens it (a grid's row, which selects on click, is left alone).
  if (/^(?:LI|ARTICLE)$/.test(el.tagName) || /^(?:listitem|article)$/.test(el.getAttribute('role') ?? '')) {
    const links = Array.from(el.querySelectorAll('a[href]')).filter(selfVisible);
    const controls = el.querySelectorAll(
      'button, input, select, textarea, [role="button"], [role="checkbox"]',
    );
    if (links.length === 1 && controls.length === 0) return links[0] as DomElement;
  }
  if (selfVisible(el)) return onWords(el, 0);
  const label = el.labels ? Array.from(el.labels).find(selfVisible) : undefined;
  if (label) return label;
  // A native control a component draws over: aim at the component.
  const host = /^(?:INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ? el.getRootNode().host : undefined;
  return host && selfVisible(host) ? host : el;
}

/**
 * A popup that came over `el` (a session warning, a newsletter box: a dialog or a fixed or absolute
 * layer at the point, not holding `el`) and the control in it that only closes it (Close, ×,
 * Cancel, No thanks, Not now, Maybe later, Dismiss, Skip), or null. Never a control that confirms,
 * accepts or leaves. Main frame only.
 */
export function popupCloser(el: DomElement, x: number, y: number): DomElement | null {
  if (window.frameElement) return null;
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  const squeeze = (text: string | null | undefined) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const CLOSE =
    /^(?:close|×|✕|✖|x|dismiss|cancel|no,? thanks|no thank you|not now|maybe later|later|skip|close (?:this )?(?:popup|dialog|window|message))$/i;
  let popup: DomElement | null = null;
  for (let node: DomElement | null = hit; node && node !== document.body; node = node.parentElement) {
    if (node.contains(el)) break;
    const role = node.getAttribute('role') ?? '';
    const position = (window.getComputedStyle(node) as unknown as { position?: string }).position ?? '';
    if (
      node.tagName === 'DIALOG' ||
      /^(?:dialog|alertdialog)$/.test(role) ||
      position === 'fixed' ||
      position === 'absolute'
    )
      popup = node;
  }
  if (!popup) return null;
  const shown = (node: DomElement) => {
    const rect = node.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const controls = Array.from(
    popup.querySelectorAll(
      'button, a, [role=button], input[type=button], input[type=submit], [aria-label], [title]',
    ),
  ).filter(shown);
  return (
    controls.find((node) =>
      [node.innerText, node.value, node.getAttribute('aria-label'), node.getAttribute('title')].some((text) =>
        CLOSE.test(squeeze(text)),
      ),
    ) ?? null
  );
}

/**
 * Null when a click at (x, y) (page coordinates) reaches `el`; otherwise a short description of what
 * is on top. Works inside `<iframe>`s (the point is moved into the frame) and open shadow roots (the
 * hit is followed into them; containment is checked across their boundaries).
 */
export function coveringElement(el: DomElement, x: number, y: number): string | null {
  let localX = x;
  let localY = y;
  for (let frameWindow = window; frameWindow.frameElement; frameWindow = frameWindow.parent) {
    const frame = frameWindow.frameElement;
    const box = frame.getBoundingClientRect();
    const style = frameWindow.parent.getComputedStyle(frame) as unknown as Record<string, string>;
    localX -=
      box.left +
      (parseFloat(style.borderLeftWidth ?? '0') || 0) +
      (parseFloat(style.paddingLeft ?? '0') || 0);
    localY -=
      box.top + (parseFloat(style.borderTopWidth ?? '0') || 0) + (parseFloat(style.paddingTop ?? '0') || 0);
  }
  let hit = document.elementFromPoint(localX, localY);
  while (hit?.shadowRoot?.elementFromPoint) {
    const inner = hit.shadowRoot.elementFromPoint(localX, localY);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return null;
  const holds = (outer: DomElement, inner: DomElement): boolean => {
    for (
      let node: DomElement | null = inner;
      node;
      node = node.parentElement ?? node.parentNode?.host ?? null
    )
      if (node === outer) return true;
    return false;
  };
  if (holds(el, hit) || holds(hit, el)) return null;
  for (const label of Array.from(el.labels ?? [])) {
    if (holds(label, hit)) return null;
  }
  const control = hit.closest('label')?.control;
  if (control && control === el) return null;
  const id = hit.id ? `#${hit.id}` : '';
  const cls = (hit.getAttribute('class') ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((c) => `.${c}`)
    .join('');
  const text = (hit.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return `<${hit.tagName.toLowerCase()}${id}${cls}>${text ? ` "${text}"` : ''}`;
}

/** Visible text of the whole page (open shadow roots included), whitespace collapsed. */
export function pageText(): string {
  const body = document.body;
  if (!body) return '';
  const clean = (text: string | null | undefined) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  let text = clean(body.innerText ?? body.textContent);
  const visit = (root: { querySelectorAll(selector: string): ArrayLike<DomElement> }): void => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const shadow = el.shadowRoot;
      if (!shadow) continue;
      for (const child of Array.from(shadow.childNodes)) {
        const part = child.nodeType === 1 ? clean((child as DomElement).innerText) : '';
        if (part && !text.includes(part)) text = `${text} ${part}`;
      }
      visit(shadow);
    }
  };
  visit(document);
  return text;
}

/**
 * The texts of the innermost shown elements that hold `needle` (case-blind), each whitespace
 * collapsed: where a message stands, to tell "says X" from "says X and more" (at most 40).
 */
export function textsHolding(needle: string): string[] {
  const want = needle
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .toLowerCase();
  const holds = (el: DomElement): boolean =>
    (el.textContent ?? '')
      .replace(/[\s\u00a0]+/g, ' ')
      .toLowerCase()
      .includes(want);
  const found: string[] = [];
  const visit = (root: { querySelectorAll(selector: string): ArrayLike<DomElement> }): void => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (found.length >= 40) return;
      if (el.shadowRoot) visit(el.shadowRoot);
      if (/^(?:SCRIPT|STYLE|TEMPLATE|NOSCRIPT|HEAD|TITLE)$/.test(el.tagName) || !holds(el)) continue;
      if (Array.from(el.children ?? []).some((child) => holds(child))) continue;
      const shown = (el.innerText ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
      if (shown) found.push(shown);
    }
  };
  visit(document);
  return found;
}

export function scrollPage(how: { direction: 'up' | 'down' | 'top' | 'bottom'; pixels: number | null }): {
  before: number;
  after: number;
} {
  const before = window.scrollY;
  const height = Math.max(
    document.documentElement.getBoundingClientRect().height,
    document.body?.getBoundingClientRect().height ?? 0,
  );
  if (how.direction === 'top') window.scrollTo({ top: 0, behavior: 'instant' });
  else if (how.direction === 'bottom') window.scrollTo({ top: height, behavior: 'instant' });
  else {
    const amount = how.pixels ?? Math.round(window.innerHeight * 0.8);
    window.scrollBy({ top: how.direction === 'up' ? -amount : amount, behavior: 'instant' });
  }
  return { before, after: window.scrollY };
}

/** Scrolls an element's own content (a text area, a list), as `scrollPage` does the page's. */
export function scrollElement(
  el: DomElement & { scrollTop: number; readonly scrollHeight: number; readonly clientHeight: number },
  how: { direction: 'up' | 'down' | 'top' | 'bottom'; pixels: number | null },
): { before: number; after: number } {
  const before = el.scrollTop;
  if (how.direction === 'top') el.scrollTop = 0;
  else if (how.direction === 'bottom') el.scrollTop = el.scrollHeight;
  else {
    const amount = how.pixels ?? Math.round(el.clientHeight * 0.8);
    el.scrollTop += how.direction === 'up' ? -amount : amount;
  }
  return { before, after: el.scrollTop };
}

/** Submits the form that has focus, or the only/first form on the page. */
export function submitForm(): string | null {
  const active = document.activeElement;
  const form = active?.form ?? active?.closest('form') ?? document.querySelector('form');
  if (!form) return null;
  form.requestSubmit?.();
  return form.getAttribute('id') ?? form.getAttribute('name') ?? form.getAttribute('action') ?? 'form';
}

/**
 * "There are 2 items", "I should see 2 todos": the shown list items of the page's content, leaving
 * out navigation, menus, tabs, headers and footers (TodoMVC's filters are list items of its footer).
 * Null when the page has no such item (the caller counts every list item then).
 */
export function contentListItemCount(): number | null {
  const outside =
    'nav, header, footer, [role=navigation], [role=menu], [role=menubar], [role=tablist], [role=banner], [role=contentinfo]';
  const items = Array.from(document.querySelectorAll('li, [role=listitem]')).filter(
    (el) => !el.closest(outside) && (!el.checkVisibility || el.checkVisibility()),
  );
  return items.length > 0 ? items.length : null;
}

/**
 * On a page without a form ("submit" in an app that handles its button in script): the one shown
 * button whose words say it sends (Submit, Send, Save, OK, Done, Apply, Continue, Confirm); null
 * when there is none or more than one.
 */
export function submitButton(): DomElement | null {
  const words = /^(?:submit|send|save|ok|done|apply|continue|confirm|go)\b/i;
  const shown = Array.from(
    document.querySelectorAll('button, input[type=submit], input[type=button], [role=button]'),
  ).filter((el) => {
    const text = (el.innerText || el.getAttribute('value') || el.getAttribute('aria-label') || '').trim();
    return words.test(text) && (!el.checkVisibility || el.checkVisibility()) && !el.disabled;
  });
  return shown.length === 1 ? (shown[0] ?? null) : null;
}

/**
 * The one checkbox (or switch) in the row an element sits in: a to-do's label is often not tied to
 * its checkbox, yet "check 'Buy milk'" and "'Buy milk' is checked" mean that checkbox. Looks inside
 * the element, then up to its list item, table row or card (across shadow boundaries); null when
 * there is none or more than one.
 */
export function checkboxInRow(el: DomElement): DomElement | null {
  const SELECTOR = 'input[type=checkbox], [role=checkbox], [role=switch]';
  const within = (node: DomElement): DomElement[] => {
    const found = Array.from(node.querySelectorAll(SELECTOR));
    for (const inner of Array.from(node.querySelectorAll('*'))) {
      if (inner.shadowRoot) found.push(...Array.from(inner.shadowRoot.querySelectorAll(SELECTOR)));
    }
    if (node.shadowRoot) found.push(...Array.from(node.shadowRoot.querySelectorAll(SELECTOR)));
    return found;
  };
  const squeeze = (text: string | undefined) => (text ?? '').replace(/\s+/g, '');
  const own = squeeze(el.innerText);
  for (
    let node: DomElement | null = el;
    node && node !== document.body;
    node = node.parentElement ?? node.parentNode?.host ?? null
  ) {
    const role = node.getAttribute('role') ?? '';
    const row = /^(?:LI|TR|ARTICLE)$/.test(node.tagName) || /^(?:row|listitem|article)$/.test(role);
    const found = within(node);
    if (found.length > 0) {
      // Only a checkbox that belongs to this text: in its row, or in a container that shows
      // nothing else (not the form around another, labelled checkbox).
      const alone = node === el || row || squeeze(node.innerText).replace(own, '').length <= 2;
      return found.length === 1 && alone ? (found[0] ?? null) : null;
    }
    if (row) return null;
  }
  return null;
}

/** The element with the caret (followed into shadow roots) when it is a text field; else null. */
export function focusedField(): DomElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (!active) return null;
  const type = (active.getAttribute('type') ?? '').toLowerCase();
  const field =
    active.tagName === 'TEXTAREA' ||
    (active.tagName === 'INPUT' &&
      !/^(?:checkbox|radio|button|submit|reset|image|hidden|file|range|color)$/.test(type)) ||
    Boolean(active.isContentEditable);
  return field && !active.disabled && !active.readOnly ? active : null;
}

/** The one text field the page shows (a to-do app's new-item box), or null when there are none or several. */
export function onlyTextField(): DomElement | null {
  const fields = Array.from(
    document.querySelectorAll('input, textarea, [contenteditable=""], [contenteditable=true]'),
  ).filter((el) => {
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (
      el.tagName === 'INPUT' &&
      /^(?:checkbox|radio|button|submit|reset|image|hidden|file|range|color)$/.test(type)
    )
      return false;
    if (el.parentElement?.closest('[contenteditable=""], [contenteditable=true]')) return false;
    return !el.disabled && !el.readOnly && (!el.checkVisibility || el.checkVisibility());
  });
  return fields.length === 1 ? (fields[0] ?? null) : null;
}

/** The items a noun names on the page ("3 posts", "the first order") and how they were found. */
export interface NamedItems {
  /** Each item's text as shown. */
  texts: string[];
  /** With `position`: the item at that position (1-based, -1 the last), by its link if it has one. */
  picked?: DomElement | null;
  /** "articles", "rows of the table", "elements marked "post"". */
  what: string;
}

/**
 * "There should be 3 posts", "the first post is by @ada" where no element says "post": the
 * repeated items of the page's content the noun (given in the singular) names. Siblings of one kind
 * (tag and classes) form a group; a group whose classes, id or test id hold the noun ("post",
 * "post-card", "blogPost") wins; else the one group of items a person counts as entries (articles,
 * list items, table body rows), when it is the only one. Null when the page leaves it open.
 */
export function namedItems(singular: string, position?: number): NamedItems | null {
  const outside =
    'nav, footer, [role=navigation], [role=menu], [role=menubar], [role=tablist], [role=banner], [role=contentinfo], [role=tree], select, datalist';
  const shown = (el: DomElement): boolean => !el.checkVisibility || el.checkVisibility();
  // A container is usually named in the plural ("posts") and is not an item.
  const mentions = (el: DomElement): boolean =>
    [el.id, el.getAttribute('class'), el.getAttribute('data-testid')]
      .filter(Boolean)
      .join(' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[\s_-]+/)
      .includes(singular);
  const entry = (el: DomElement): boolean =>
    /^(?:ARTICLE|LI)$/.test(el.tagName) ||
    (el.tagName === 'TR' && el.parentElement?.tagName === 'TBODY' && el.querySelector('td') !== null) ||
    /^(?:article|listitem)$/.test(el.getAttribute('role') ?? '') ||
    (el.getAttribute('role') === 'row' && el.querySelector('[role=cell],[role=gridcell]') !== null);
  const byParent = new Map<DomElement, Map<string, DomElement[]>>();
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const parent = el.parentElement;
    if (!parent || el.closest(outside) || !(el.textContent ?? '').trim()) continue;
    if (/^(?:SCRIPT|STYLE|TEMPLATE|OPTION|BR|HR)$/.test(el.tagName)) continue;
    const kind = `${el.tagName} ${(el.getAttribute('class') ?? '').split(/\s+/).sort().join(' ')}`;
    const byKind = byParent.get(parent) ?? new Map<string, DomElement[]>();
    byParent.set(parent, byKind);
    byKind.set(kind, [...(byKind.get(kind) ?? []), el]);
  }
  const groups: { items: DomElement[]; marked: boolean }[] = [];
  for (const byKind of byParent.values())
    for (const items of byKind.values()) {
      const visible = items.filter(shown);
      const first = visible[0];
      if (!first) continue;
      const marked = visible.some(mentions);
      if (marked || entry(first)) groups.push({ items: visible, marked });
    }
  const inside = (inner: DomElement[], outer: DomElement[]): boolean =>
    outer.some((el) => inner[0] !== undefined && el !== inner[0] && el.contains(inner[0]));
  // The outermost groups: a marked "post" holding a marked "post-title" counts once.
  const pick = (candidates: typeof groups) =>
    candidates.filter((g) => !candidates.some((o) => o !== g && inside(g.items, o.items)));
  const marked = pick(groups.filter((g) => g.marked));
  const chosen = marked.length > 0 ? marked : pick(groups.filter((g) => !g.marked));
  if (chosen.length !== 1) return null;
  const items = (chosen[0] as (typeof groups)[number]).items;
  const first = items[0] as DomElement;
  const what =
    marked.length > 0
      ? `elements marked "${singular}"`
      : first.tagName === 'TR' || first.getAttribute('role') === 'row'
        ? 'rows of the table'
        : first.tagName === 'LI' || first.getAttribute('role') === 'listitem'
          ? 'items of the list'
          : 'articles';
  const at =
    position === undefined ? undefined : position < 0 ? items[items.length + position] : items[position - 1];
  return {
    texts: items.map((el) => (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim()),
    what,
    ...(position === undefined ? {} : { picked: at ? (at.querySelector('a[href]') ?? at) : null }),
  };
}
