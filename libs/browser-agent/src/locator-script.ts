import type { DomDocument, DomElement, DomNode, DomWindow } from './page-dom.js';

// Evaluated inside the page, so everything it needs lives inside the function: Puppeteer sends the
// function's source text, not its closure.
declare const document: DomDocument;
declare const window: DomWindow;

export interface PageQuery {
  name: string;
  /** ARIA roles that satisfy the target's role hint, or null when the user named no role. */
  roles: string[] | null;
  /** Without a role hint, which kind of element to favour among several matches. */
  prefer: 'editable' | 'checkable' | 'selectable' | null;
  nth: number | null;
  /** Element id used by the drawn cursor, which must never be a match. */
  ignoreId: string;
}

export interface PageMatch {
  strategy: string | null;
  elements: DomElement[];
  visibleCount: number;
  element: DomElement | null;
  visible: boolean;
  tried: string[];
}

/** Finds the elements a person means by `query.name`, trying strategies in a fixed order. */
export function findInPage(query: PageQuery): PageMatch {
  const ELEMENT_NODE = 1;
  const TEXT_NODE = 3;
  const normalize = (text: string | null | undefined): string =>
    (text ?? '')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim()
      .toLowerCase();
  const want = normalize(query.name);
  const body = document.body ?? document.documentElement;
  const everything = Array.from(body.querySelectorAll('*')).filter(
    (el) =>
      el.id !== query.ignoreId &&
      !/^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD|META|LINK|TITLE)$/.test(el.tagName),
  );

  const implicitRole = (el: DomElement): string | null => {
    const explicit = el.getAttribute('role');
    if (explicit && explicit.trim()) return explicit.trim().split(/\s+/)[0]?.toLowerCase() ?? null;
    const tag = el.tagName.toLowerCase();
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : null;
      case 'button':
      case 'summary':
        return 'button';
      case 'select':
        return el.multiple || (el.size ?? 0) > 1 ? 'listbox' : 'combobox';
      case 'textarea':
        return 'textbox';
      case 'option':
        return 'option';
      case 'img':
        return el.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'li':
        return 'listitem';
      case 'ul':
      case 'ol':
        return 'list';
      case 'tr':
        return 'row';
      case 'td':
        return 'cell';
      case 'th':
        return 'columnheader';
      case 'table':
        return 'table';
      case 'dialog':
        return 'dialog';
      case 'nav':
        return 'navigation';
      case 'progress':
        return 'progressbar';
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return 'heading';
      case 'input': {
        const type = (el.getAttribute('type') ?? 'text').toLowerCase();
        if (type === 'hidden') return null;
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (/^(?:button|submit|reset|image)$/.test(type)) return 'button';
        if (type === 'range') return 'slider';
        if (type === 'number') return 'spinbutton';
        if (el.hasAttribute('list')) return 'combobox';
        if (type === 'search') return 'searchbox';
        return 'textbox';
      }
      default:
        return el.isContentEditable && el.getAttribute('contenteditable') !== null ? 'textbox' : null;
    }
  };

  const textOf = (node: DomNode): string => {
    if (node.nodeType === TEXT_NODE) return node.textContent ?? '';
    if (node.nodeType !== ELEMENT_NODE) return '';
    const el = node as DomElement;
    if (/^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName) || el.id === query.ignoreId) return '';
    if (el.tagName === 'IMG') return ` ${el.getAttribute('alt') ?? ''} `;
    if (el.tagName === 'INPUT' && /^(?:submit|button|reset)$/i.test(el.type ?? ''))
      return ` ${el.value ?? ''} `;
    let out = '';
    for (const child of Array.from(el.childNodes)) out += textOf(child);
    return /^(?:DIV|P|LI|TR|TD|TH|BR|H[1-6]|SECTION|ARTICLE|HEADER|FOOTER|LABEL|BUTTON|OPTION)$/.test(
      el.tagName,
    )
      ? ` ${out} `
      : out;
  };

  const NAME_FROM_CONTENT = new Set([
    'button',
    'link',
    'heading',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'cell',
    'columnheader',
    'rowheader',
    'gridcell',
    'row',
    'listitem',
    'checkbox',
    'radio',
    'switch',
    'treeitem',
    'tooltip',
  ]);

  const labelText = (el: DomElement): string => {
    const labels = el.labels ? Array.from(el.labels) : [];
    return labels.map((label) => textOf(label)).join(' ');
  };

  const nameOf = (el: DomElement, role: string | null): string => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const text = labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .map((ref) => (ref ? textOf(ref) : ''))
        .join(' ');
      if (normalize(text)) return text;
    }
    const aria = el.getAttribute('aria-label');
    if (aria && aria.trim()) return aria;
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
      const type = (el.type ?? '').toLowerCase();
      if (/^(?:submit|button|reset)$/.test(type)) return el.value || (type === 'submit' ? 'Submit' : '');
      if (type === 'image') return el.getAttribute('alt') ?? '';
      const fromLabel = labelText(el);
      if (normalize(fromLabel)) return fromLabel;
      return el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '';
    }
    if (tag === 'IMG') return el.getAttribute('alt') ?? el.getAttribute('title') ?? '';
    if (role && NAME_FROM_CONTENT.has(role)) {
      const content = textOf(el);
      if (normalize(content)) return content;
    }
    return el.getAttribute('title') ?? '';
  };

  const selfVisible = (el: DomElement): boolean => {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) return false;
    const style = window.getComputedStyle(el);
    return style.visibility !== 'hidden' && style.visibility !== 'collapse';
  };
  // Custom-styled checkboxes hide the input and show its label; the label is what people see and click.
  const isVisible = (el: DomElement): boolean =>
    selfVisible(el) || (el.labels ? Array.from(el.labels).some(selfVisible) : false);

  const INTERACTIVE = new Set([
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'combobox',
    'listbox',
    'textbox',
    'searchbox',
    'spinbutton',
    'slider',
    'treeitem',
  ]);
  const roleSet = query.roles ? new Set(query.roles) : null;
  const roleMatches = (el: DomElement): boolean => !roleSet || roleSet.has(implicitRole(el) ?? '');

  /** Text hits land on the innermost element; the thing a person means is usually its control. */
  const promote = (el: DomElement): DomElement | null => {
    for (let node: DomElement | null = el; node && node !== body; node = node.parentElement) {
      if (node.tagName === 'LABEL' && node.control) {
        if (roleMatches(node.control)) return node.control;
      }
      const role = implicitRole(node);
      if (roleSet ? roleSet.has(role ?? '') : role !== null && INTERACTIVE.has(role)) return node;
    }
    return roleSet ? null : el;
  };

  const unique = (list: Array<DomElement | null | undefined>): DomElement[] => {
    const seen = new Set<DomElement>();
    const out: DomElement[] = [];
    for (const el of list) {
      if (el && !seen.has(el) && el.id !== query.ignoreId) {
        seen.add(el);
        out.push(el);
      }
    }
    return out;
  };

  const matches = (text: string | null | undefined, mode: 'exact' | 'contains'): boolean => {
    const value = normalize(text);
    if (!value) return false;
    return mode === 'exact' ? value === want : value.includes(want);
  };

  const innermost = (list: DomElement[]): DomElement[] => {
    const set = new Set(list);
    return list.filter((el) => !Array.from(el.children).some((child) => set.has(child)));
  };

  const byRoleAndName = (mode: 'exact' | 'contains'): DomElement[] =>
    everything.filter((el) => {
      const role = implicitRole(el);
      if (!roleSet || !roleSet.has(role ?? '')) return false;
      return want === '' ? true : matches(nameOf(el, role), mode);
    });

  const byLabel = (mode: 'exact' | 'contains'): DomElement[] => {
    const controls: Array<DomElement | null> = [];
    for (const label of Array.from(document.querySelectorAll('label'))) {
      if (matches(textOf(label), mode)) controls.push(label.control ?? null);
    }
    for (const el of Array.from(document.querySelectorAll('[aria-labelledby]'))) {
      const text = (el.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .map((ref) => (ref ? textOf(ref) : ''))
        .join(' ');
      if (matches(text, mode)) controls.push(el);
    }
    return unique(controls).filter(roleMatches);
  };

  const byAttribute = (attribute: string, selector: string, mode: 'exact' | 'contains'): DomElement[] =>
    Array.from(document.querySelectorAll(selector)).filter(
      (el) => matches(el.getAttribute(attribute), mode) && roleMatches(el),
    );

  // Visible text: innerText leaves out hidden descendants (a closed menu's items are not its text).
  const visibleText = (el: DomElement): string =>
    el.tagName === 'INPUT' ? textOf(el) : (el.innerText ?? textOf(el));

  const byText = (mode: 'exact' | 'contains'): DomElement[] => {
    const hits = everything.filter((el) => matches(visibleText(el), mode));
    const shown = hits.filter(isVisible);
    return unique(innermost(shown.length > 0 ? shown : hits).map(promote));
  };

  const byIdentifier = (): DomElement[] => {
    const words = want.split(/[\s_-]+/).filter(Boolean);
    if (words.length === 0) return [];
    const camel = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
    const variants = new Set([want, words.join('-'), words.join('_'), words.join(''), camel.toLowerCase()]);
    const attributes = ['id', 'name', 'data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'];
    return everything.filter(
      (el) =>
        (attributes.some((attribute) => variants.has((el.getAttribute(attribute) ?? '').toLowerCase())) ||
          (el.getAttribute('class') ?? '')
            .toLowerCase()
            .split(/\s+/)
            .some((token) => variants.has(token))) &&
        roleMatches(el),
    );
  };

  const byCss = (): DomElement[] => {
    try {
      return Array.from(document.querySelectorAll(query.name)).filter(
        (el) => el.id !== query.ignoreId && roleMatches(el),
      );
    } catch {
      return [];
    }
  };

  // Role + accessible name needs a role: without one, the label/placeholder/text strategies below
  // say more precisely how the element was found, and a name alone matches too much.
  const byRole: Array<[string, () => DomElement[]]> = roleSet
    ? [['role+name', () => byRoleAndName('exact')]]
    : [];
  const byRolePartial: Array<[string, () => DomElement[]]> = roleSet
    ? [['role+name (partial)', () => byRoleAndName('contains')]]
    : [];
  const strategies: Array<[string, () => DomElement[]]> =
    want === ''
      ? [['role', () => byRoleAndName('exact')]]
      : [
          ...byRole,
          ['label', () => byLabel('exact')],
          ['placeholder', () => byAttribute('placeholder', '[placeholder]', 'exact')],
          ['aria-label', () => byAttribute('aria-label', '[aria-label]', 'exact')],
          ['title', () => byAttribute('title', '[title]', 'exact')],
          ['alt', () => byAttribute('alt', 'img[alt], input[type=image][alt], area[alt]', 'exact')],
          ['text', () => byText('exact')],
          ...byRolePartial,
          ['label (partial)', () => byLabel('contains')],
          ['placeholder (partial)', () => byAttribute('placeholder', '[placeholder]', 'contains')],
          ['aria-label (partial)', () => byAttribute('aria-label', '[aria-label]', 'contains')],
          ['title (partial)', () => byAttribute('title', '[title]', 'contains')],
          [
            'alt (partial)',
            () => byAttribute('alt', 'img[alt], input[type=image][alt], area[alt]', 'contains'),
          ],
          ['text (partial)', () => byText('contains')],
          ['id/name/test id', byIdentifier],
          ['css', byCss],
        ];

  const favoured = (el: DomElement): boolean => {
    if (!query.prefer) return false;
    const role = implicitRole(el) ?? '';
    if (query.prefer === 'editable') return /^(?:textbox|searchbox|spinbutton|combobox)$/.test(role);
    if (query.prefer === 'checkable')
      return /^(?:checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role);
    return /^(?:combobox|listbox)$/.test(role);
  };

  const tried: string[] = [];
  for (const [strategy, run] of strategies) {
    tried.push(strategy);
    const found = unique(run());
    if (found.length === 0) continue;
    const visibility = new Map(found.map((el) => [el, isVisible(el)] as const));
    // Visible beats hidden, the kind of element the action needs beats others, and a control beats
    // plain text ("click Sign in" means the button, not the heading above it); then document order.
    const interactive = (el: DomElement) => INTERACTIVE.has(implicitRole(el) ?? '');
    const ranked = found
      .map((el, order) => ({
        el,
        order,
        score: (visibility.get(el) ? 4 : 0) + (favoured(el) ? 2 : 0) + (interactive(el) ? 1 : 0),
      }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .map((entry) => entry.el);
    const visibleOnes = ranked.filter((el) => visibility.get(el));
    const pool = visibleOnes.length > 0 ? visibleOnes : ranked;
    let element: DomElement | null = pool[0] ?? null;
    if (query.nth !== null) {
      const inOrder = [...pool].sort((a, b) => found.indexOf(a) - found.indexOf(b));
      element = (query.nth === -1 ? inOrder[inOrder.length - 1] : inOrder[query.nth - 1]) ?? null;
    }
    return {
      strategy,
      elements: ranked,
      visibleCount: visibleOnes.length,
      element,
      visible: element ? Boolean(visibility.get(element)) : false,
      tried,
    };
  }
  return { strategy: null, elements: [], visibleCount: 0, element: null, visible: false, tried };
}
