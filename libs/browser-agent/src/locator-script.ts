import type { DomDocument, DomElement, DomNode, DomRoot, DomWindow } from './page-dom.js';

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
  /**
   * Text the target sits next to ("the checkbox next to 'Buy milk'"): only matches inside the
   * smallest container (list item, table row, card) holding that text count, or null.
   */
  near: string | null;
  /** The row (list item, table row of data) the target is in, by position; -1 is the last. */
  inRow: number | null;
  /** An option the element must offer to beat other matches (see `Target.holding`), or null. */
  holding?: string | null;
  /** Element id used by the drawn cursor, which must never be a match. */
  ignoreId: string;
  /**
   * The step's own sentence: a task page that prints the instruction ("Find Ada in the contact
   * book and click their phone number") holds the words of the target in it, and that text is
   * never the control. The innermost element showing it is left out, with what it holds.
   */
  shownInstruction?: string | null;
  /**
   * The kind of widget the target role names when no name can say it ("the editor", "the slider"):
   * 'editor', 'slider', 'spinbutton', 'searchbox'; null to read it from the name, if at all.
   */
  kind?: string | null;
  /** A colour word the element must be drawn in ("the red box"), or null. */
  color?: string | null;
}

export interface PageMatch {
  strategy: string | null;
  elements: DomElement[];
  visibleCount: number;
  /**
   * Visible matches as good as the best one (same kind, same place in the ranking); links to one
   * address count once, since following either does the same.
   */
  tied: number;
  element: DomElement | null;
  visible: boolean;
  tried: string[];
  /**
   * Where hovering might reveal the target: the row holding the `near` text when nothing matched in
   * it, or the row of a hidden match (buttons many apps show only while their row is hovered).
   */
  hover: DomElement | null;
  /** With `near`: rows holding that text; none means the text is not on the page. */
  nearRows: number;
  /** When nothing matched: the closest elements seen, as "button "Remove" (in "Walk the dog")". */
  closest: string[];
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
  const instruction = normalize(query.shownInstruction);
  let instructionBox: DomElement | null = null;
  if (instruction.length >= 12 && normalize(body.textContent).includes(instruction)) {
    instructionBox = body;
    for (let descended = true; descended;) {
      descended = false;
      for (const child of Array.from(instructionBox.children))
        if (normalize(child.textContent).includes(instruction)) {
          instructionBox = child;
          descended = true;
          break;
        }
    }
    // A control whose own words are the step ("Click here to continue", a custom element's "Read
    // the terms" button) is what the step means, not an instruction about it.
    let control = instructionBox === body;
    for (
      let node: DomElement | null = instructionBox;
      node && node !== body && !control;
      node = node.parentElement
    )
      control =
        node.tagName.includes('-') ||
        node.matches(
          'a, button, input, select, textarea, label, summary, [role], [onclick], [tabindex], [contenteditable]',
        ) ||
        (window.getComputedStyle(node) as unknown as { cursor?: string }).cursor === 'pointer';
    if (control) instructionBox = null;
  }
  /** The drawn cursor, and the instruction a task page shows (see `shownInstruction`). */
  const ignored = (el: DomElement): boolean =>
    el.id === query.ignoreId || (instructionBox !== null && instructionBox.contains(el));
  // Open shadow roots are searched like the document: Web Components keep their controls there.
  const roots: DomRoot[] = [];
  const collectRoots = (root: DomRoot): void => {
    roots.push(root);
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) collectRoots(el.shadowRoot);
  };
  collectRoots(document as unknown as DomRoot);
  const queryAll = (selector: string): DomElement[] =>
    roots.flatMap((root) => Array.from(root.querySelectorAll(selector)));
  /** The parent across shadow boundaries (a shadow root's child goes up to its host). */
  const parentOf = (node: DomElement): DomElement | null =>
    node.parentElement ?? (node.parentNode as DomNode | null)?.host ?? null;
  /** Containment across shadow boundaries; `contains` stops at them. */
  const holds = (outer: DomElement, inner: DomElement): boolean => {
    for (let node: DomElement | null = inner; node; node = parentOf(node)) if (node === outer) return true;
    return false;
  };
  /** `outer` shows `inner` on screen: containment through the slots `inner` is put into, too. */
  const shows = (outer: DomElement, inner: DomElement): boolean => {
    for (
      let node: DomElement | null = inner;
      node;
      node = (node as DomElement & { assignedSlot?: DomElement | null }).assignedSlot ?? parentOf(node)
    )
      if (node === outer) return true;
    return false;
  };
  const byId = (from: DomElement, id: string): DomElement | null => {
    const root = from.getRootNode();
    return (root.getElementById ? root.getElementById(id) : null) ?? document.getElementById(id);
  };
  const everything = queryAll('*').filter(
    (el) =>
      !ignored(el) &&
      el !== body &&
      !/^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD|META|LINK|TITLE|HTML|BODY)$/.test(el.tagName),
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
        // The suggestions an autocomplete draws as a plain list (jQuery UI's, typeaheads) are options.
        return el.closest('[class*="autocomplete"], [class*="suggest"], [class*="typeahead"]')
          ? 'option'
          : 'listitem';
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
        if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
        // A slider drawn without ARIA (jQuery UI's): a "slider" box holding its handle.
        if (
          /(?:^|\s)(?:ui-slider|slider|range-slider)(?:\s|$)/.test(el.getAttribute('class') ?? '') &&
          el.querySelector('.ui-slider-handle, [class*="handle"], [class*="thumb"], [tabindex]') !== null
        )
          return 'slider';
        return null;
    }
  };

  // Text that behaves as a control is one to a person: a role-less span or div with a click
  // handler, a keyboard stop (tabindex) or the pointing-hand cursor (the outermost element showing
  // it: its children inherit the cursor).
  const cursors = new Map<DomElement, string>();
  const cursorOf = (el: DomElement): string => {
    let cursor = cursors.get(el);
    if (cursor === undefined) {
      cursor = (window.getComputedStyle(el) as { cursor?: string }).cursor ?? '';
      cursors.set(el, cursor);
    }
    return cursor;
  };
  const behaving = new Map<DomElement, boolean>();
  const behavesAsControl = (el: DomElement): boolean => {
    const known = behaving.get(el);
    if (known !== undefined) return known;
    let result = false;
    if (
      !el.getAttribute('role') &&
      !/^(?:A|BUTTON|INPUT|SELECT|TEXTAREA|LABEL|OPTION|SUMMARY|BODY|HTML|SVG|PATH|USE|IMG|FORM|UL|OL|TABLE|TBODY|THEAD|TR|MAIN|NAV|SECTION|HEADER|FOOTER)$/i.test(
        el.tagName,
      ) &&
      !el.isContentEditable
    ) {
      const tabindex = el.getAttribute('tabindex');
      if (el.hasAttribute('onclick') || typeof (el as { onclick?: unknown }).onclick === 'function')
        result = true;
      else if (tabindex !== null && Number(tabindex) >= 0) result = true;
      else if (cursorOf(el) === 'pointer') {
        const parent = parentOf(el);
        result = !parent || cursorOf(parent) !== 'pointer';
      }
    }
    behaving.set(el, result);
    return result;
  };
  /** The role a person gives the element: its ARIA role, or "button" for text that behaves as one. */
  const roleFor = (el: DomElement): string | null =>
    implicitRole(el) ?? (behavesAsControl(el) ? 'button' : null);

  const textOf = (node: DomNode): string => {
    if (node.nodeType === TEXT_NODE) return node.textContent ?? '';
    if (node.nodeType !== ELEMENT_NODE) return '';
    const el = node as DomElement;
    if (/^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName) || ignored(el)) return '';
    if (el.tagName === 'IMG') return ` ${el.getAttribute('alt') ?? ''} `;
    if (el.tagName === 'INPUT' && /^(?:submit|button|reset)$/i.test(el.type ?? ''))
      return ` ${el.value ?? ''} `;
    let out = '';
    // A component's text is what it renders: its shadow root, with each <slot> showing what was
    // put into it (or its fallback content).
    const assigned = el.tagName === 'SLOT' && el.assignedNodes ? el.assignedNodes({ flatten: true }) : [];
    const children =
      assigned.length > 0 ? assigned : el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
    for (const child of Array.from(children)) out += textOf(child);
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
        .map((id) => byId(el, id))
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
      const own = el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '';
      // A form-associated component labels itself, not the control inside it.
      const host = own ? undefined : el.getRootNode().host;
      if (host) {
        // A custom element's labels are its ElementInternals' (not readable here): the <label>
        // around it, or one pointing at its id, names it.
        const around =
          host.closest('label') ??
          (host.id
            ? (Array.from(host.getRootNode().querySelectorAll('label[for]')).find(
                (label) => label.getAttribute('for') === host.id,
              ) ?? null)
            : null);
        return (
          labelText(host) ||
          host.getAttribute('aria-label') ||
          (around ? textOf(around) : '') ||
          host.getAttribute('title') ||
          ''
        );
      }
      return own;
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
  /**
   * A transparent checkbox or radio laid over the picture of one (TodoMVC's row toggles: the input
   * at opacity 0 over the circle its neighbouring label draws): a click on that spot reaches it.
   */
  const clearOverDrawing = (el: DomElement): boolean => {
    if (el.tagName !== 'INPUT' || !/^(?:checkbox|radio)$/i.test(el.type ?? '') || !el.isConnected)
      return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width < 8 || rect.height < 8) return false;
    const root = el.getRootNode();
    const hit = root.elementFromPoint?.(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit === el;
  };
  /** The component drawing a native control kept inside its shadow root (Material's fields, checkboxes). */
  const controlHost = (el: DomElement): DomElement | undefined =>
    /^(?:INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ? el.getRootNode().host : undefined;
  // Custom-styled checkboxes hide the input and show its label; the label is what people see and click.
  // A component may hide its native control (opacity 0) and draw the control itself: it shows as
  // the component does.
  const isVisible = (el: DomElement): boolean => {
    if (selfVisible(el) || (el.labels ? Array.from(el.labels).some(selfVisible) : false)) return true;
    const host = controlHost(el);
    return (host !== undefined && selfVisible(host)) || clearOverDrawing(el);
  };

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
  /**
   * "The Help link" may be a span that behaves as one, "the Mute button" an entry of a drop-down
   * list drawn as list items: it counts when nothing with the role does.
   */
  const wantsControl = roleSet !== null && (roleSet.has('button') || roleSet.has('link'));
  const behavingMatches = (el: DomElement): boolean => {
    if (!wantsControl) return false;
    const role = implicitRole(el);
    return (role === null || role === 'listitem') && behavesAsControl(el);
  };

  /** Text hits land on the innermost element; the thing a person means is usually its control. */
  const promote = (el: DomElement): DomElement | null => {
    for (let node: DomElement | null = el; node && node !== body; node = parentOf(node)) {
      if (node.tagName === 'LABEL' && node.control) {
        if (roleMatches(node.control)) return node.control;
      }
      const role = implicitRole(node);
      if (roleSet ? roleSet.has(role ?? '') : role !== null && INTERACTIVE.has(role)) return node;
    }
    if (wantsControl)
      for (let node: DomElement | null = el; node && node !== body; node = parentOf(node))
        if (behavingMatches(node)) return node;
    return roleSet ? null : el;
  };

  const unique = (list: Array<DomElement | null | undefined>): DomElement[] => {
    const seen = new Set<DomElement>();
    const out: DomElement[] = [];
    for (const el of list) {
      if (el && !seen.has(el) && !ignored(el)) {
        seen.add(el);
        out.push(el);
      }
    }
    return out;
  };

  const matches = (text: string | null | undefined, mode: 'exact' | 'contains'): boolean => {
    const value = normalize(text);
    if (!value) return false;
    if (mode === 'exact') return value === want;
    return containsName(value);
  };
  // A partial match holds the name as whole words ("x" is not in "box", "Log" not in "Login"), and
  // not as a quotation: text that quotes the name ('Click on the "Yes" button', an instruction shown
  // on the page) talks about the control, it is not the control.
  const containsName = (value: string): boolean => {
    if (!want) return false;
    const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
    for (let at = value.indexOf(want); at !== -1; at = value.indexOf(want, at + 1)) {
      const before = value[at - 1];
      const after = value[at + want.length];
      const bounded =
        !(isWordChar(before) && isWordChar(want[0])) &&
        !(isWordChar(after) && isWordChar(want[want.length - 1]));
      const quoted =
        before !== undefined && after !== undefined && /["'“”‘’«»]/.test(before) && /["'“”‘’«»]/.test(after);
      if (bounded && !quoted) return true;
    }
    return false;
  };

  const innermost = (list: DomElement[]): DomElement[] => {
    const set = new Set(list);
    const outer = new Set<DomElement>();
    for (const el of list) {
      for (let node = parentOf(el); node; node = parentOf(node)) {
        if (set.has(node)) outer.add(node);
      }
    }
    return list.filter((el) => !outer.has(el));
  };

  // A component that is a checkbox (role on its host) draws a native one in its shadow root: one
  // control, not two.
  const outermostAcrossShadows = (list: DomElement[]): DomElement[] => {
    const set = new Set(list);
    return list.filter((el) => {
      const root = el.getRootNode();
      for (let node = parentOf(el); node; node = parentOf(node)) {
        if (set.has(node) && node.getRootNode() !== root) return false;
      }
      return true;
    });
  };
  const byRoleAndName = (mode: 'exact' | 'contains'): DomElement[] => {
    const named = (el: DomElement, role: string | null) =>
      want === '' ? true : matches(nameOf(el, role), mode);
    const withRole = everything.filter((el) => {
      const role = implicitRole(el);
      return roleSet !== null && roleSet.has(role ?? '') && named(el, role);
    });
    if (withRole.length > 0 || !wantsControl) return outermostAcrossShadows(withRole);
    return everything.filter((el) => behavingMatches(el) && named(el, 'button'));
  };

  // A <label> written without `for` and without its field inside (<label>Username</label><input>)
  // still labels the field that follows it, to a person: the next form field after it in the same
  // parent, unless another label comes first.
  const FIELD = /^(?:INPUT|SELECT|TEXTAREA)$/;
  const besideLabel = (label: DomElement): DomElement | null => {
    if (label.getAttribute('for')) return null;
    for (let node = label.nextElementSibling; node; node = node.nextElementSibling) {
      if (node.tagName === 'LABEL') return null;
      if (FIELD.test(node.tagName)) return (node as DomElement).type === 'hidden' ? null : node;
      const inside = node.querySelector('input:not([type=hidden]), select, textarea');
      if (inside) return inside;
    }
    return null;
  };
  const byLabel = (mode: 'exact' | 'contains'): DomElement[] => {
    const controls: Array<DomElement | null> = [];
    for (const label of queryAll('label')) {
      if (matches(textOf(label), mode)) controls.push(label.control ?? besideLabel(label));
    }
    for (const el of queryAll('[aria-labelledby]')) {
      const text = (el.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map((id) => byId(el, id))
        .map((ref) => (ref ? textOf(ref) : ''))
        .join(' ');
      if (matches(text, mode)) controls.push(el);
    }
    const found = unique(controls).filter(roleMatches);
    // A combobox and the list it opens share their label: the combobox is what the label names.
    const opened = new Set(
      found.flatMap((el) => (el.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean)),
    );
    const controlsOnly = found.filter((el) => !el.id || !opened.has(el.id));
    return controlsOnly.length > 0 ? controlsOnly : found;
  };

  const byAttribute = (attribute: string, selector: string, mode: 'exact' | 'contains'): DomElement[] =>
    queryAll(selector).filter((el) => matches(el.getAttribute(attribute), mode) && roleMatches(el));

  // Visible text: innerText leaves out hidden descendants (a closed menu's items are not its text).
  const visibleText = (el: DomElement): string =>
    el.tagName === 'INPUT' || (instructionBox !== null && el.contains(instructionBox))
      ? textOf(el)
      : (el.innerText ?? textOf(el));

  const byText = (mode: 'exact' | 'contains'): DomElement[] => {
    const hits = everything.filter((el) => matches(visibleText(el), mode));
    const shown = hits.filter(isVisible);
    return unique(innermost(shown.length > 0 ? shown : hits).map(promote));
  };

  // "Their phone number", "the email": a link or button that shows a value, after the caption
  // that says what it is (<li>Phone: <a>(212) 555-0117</a></li>). The caption is the name, or its
  // first words ("phone" of "phone number").
  const byCaption = (): DomElement[] =>
    everything.filter((el) => {
      if (!/^(?:link|button)$/.test(roleFor(el) ?? '') || !roleMatches(el)) return false;
      let before = '';
      for (let node = el.previousSibling ?? null; node; node = node.previousSibling ?? null) {
        before = textOf(node) + before;
        if (normalize(before).length > 40) return false;
      }
      const caption = normalize(before).replace(/\s*[:：]$/, '');
      if (!caption || !/[:：]\s*$/.test(before) || caption.split(' ').length > 3) return false;
      return want === caption || want.startsWith(`${caption} `);
    });

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
      return queryAll(query.name).filter((el) => !ignored(el) && roleMatches(el));
    } catch {
      return [];
    }
  };

  // Icons and names people use for the same control: "delete" finds a "Remove" button, a "×", a
  // trash icon or a button whose class says "destroy".
  const SYNONYMS: string[][] = [
    ['delete', 'remove', 'destroy', 'trash', 'bin', 'discard', 'erase', '×', '✕', '✖', '🗑', '🗑️', 'x'],
    ['close', 'dismiss', 'cancel', '×', '✕', '✖', 'x'],
    ['edit', 'modify', 'rename', 'pencil', '✎', '✏', '✏️'],
    ['menu', 'hamburger', 'burger', 'navigation', 'nav', '☰', '≡'],
    ['expand', 'collapse', 'chevron', 'caret', 'arrow', 'toggle', 'more', '›', '⌄', '▾', '▸', '▼', '▶'],
    ['search', 'magnifier', 'magnifying', 'find', '🔍'],
    ['settings', 'preferences', 'gear', 'cog', '⚙', '⚙️'],
    ['add', 'plus', 'new', 'create', '+', '＋'],
    ['favorite', 'favourite', 'star', 'like', 'heart', '★', '☆', '♥', '❤'],
    ['save', 'disk', 'floppy', '💾'],
  ];
  const wantWords = want
    .replace(/\b(?:icon|button|btn|the|a|an)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const synonyms = new Set<string>();
  let xMark = false;
  // "The x" of a dialog or a chip is its close (or remove) mark, never its Cancel button.
  if (wantWords.length === 1 && /^(?:x|×|✕|✖)$/.test(wantWords[0] ?? '')) {
    xMark = true;
    for (const w of ['x', '×', '✕', '✖', 'close', 'dismiss', 'remove', 'delete', 'destroy', 'trash'])
      synonyms.add(w);
  } else if (wantWords.length === 1) {
    for (const group of SYNONYMS)
      if (group.includes(wantWords[0] ?? '')) for (const w of group) synonyms.add(w);
  }
  const wordsOf = (text: string | null | undefined): string[] =>
    normalize(text)
      .split(/[\s_\-:/.#]+|(?=[A-Z])/)
      .filter(Boolean);
  const iconSays = (el: DomElement): boolean => {
    const own = normalize(el.innerText ?? textOf(el));
    // An x shows a cross, not a word: a "Delete" button is not one.
    if (xMark && own && !/^(?:x|×|✕|✖|close|dismiss)$/.test(own)) return false;
    if (own && synonyms.has(own)) return true;
    const marks = [
      el.getAttribute('aria-label'),
      el.getAttribute('title'),
      el.getAttribute('class'),
      el.id,
      el.getAttribute('name'),
      el.getAttribute('data-testid'),
      el.getAttribute('data-icon'),
      el.getAttribute('icon'),
      el.getAttribute('name'),
    ];
    for (const icon of Array.from(el.querySelectorAll('svg, i, img, use, [class*=icon], [data-icon]'))) {
      marks.push(
        icon.getAttribute('class'),
        icon.getAttribute('aria-label'),
        icon.getAttribute('data-icon'),
        icon.getAttribute('href'),
        icon.getAttribute('xlink:href'),
        icon.getAttribute('alt'),
        icon.getAttribute('name'),
        icon.tagName === 'I' || /icon/i.test(icon.tagName) ? (icon.textContent ?? '') : '',
      );
    }
    return marks.some((mark) => wordsOf(mark).some((word) => synonyms.has(word) && word.length > 1));
  };
  const bySynonym = (): DomElement[] => {
    if (synonyms.size === 0) return [];
    const hits = everything.filter(
      (el) =>
        (roleSet ? roleMatches(el) || behavingMatches(el) : INTERACTIVE.has(roleFor(el) ?? '')) &&
        iconSays(el),
    );
    return unique(innermost(hits));
  };

  /** "The price of 'Blue mug'": the cell in the column headed "Price" (only with `near`). */
  const CELL_ROLES = /^(?:cell|gridcell|columnheader|rowheader)$/;
  const cellsOf = (row: DomElement): DomElement[] =>
    Array.from(row.children).filter((cell) => CELL_ROLES.test(implicitRole(cell) ?? ''));
  const byColumn = (): DomElement[] => {
    if (query.near === null || !want) return [];
    const out: DomElement[] = [];
    for (const header of everything.filter((el) => implicitRole(el) === 'columnheader')) {
      if (normalize(textOf(header)) !== want) continue;
      const headerRow = parentOf(header);
      if (!headerRow) continue;
      const column = cellsOf(headerRow).indexOf(header);
      for (const row of everything.filter((el) => implicitRole(el) === 'row' && el !== headerRow)) {
        const cell = cellsOf(row)[column];
        if (cell && roleMatches(cell)) out.push(cell);
      }
    }
    return out;
  };

  // Widgets named by what they are, not by a label: "the comment editor", "the slider", "the
  // spinner", "the search box", "the dropdown". A qualifier ("comment") must show in the widget's
  // marks or its surroundings, unless the page has only one such widget.
  const KIND_NOUNS: Array<[RegExp, string]> = [
    [/^(?:(.+?)\s+)?(?:rich[- ]?text\s+|text\s+|wysiwyg\s+|content\s+|html\s+)?editor$/, 'editor'],
    [/^(?:(.+?)\s+)?(?:range\s+)?slider$/, 'slider'],
    [/^(?:(.+?)\s+)?(?:spinner|spin\s?button|stepper|number\s+(?:field|input|box))$/, 'spinbutton'],
    [/^(?:(.+?)\s+)?search(?:\s+(?:box|field|bar|input))?$/, 'searchbox'],
    [/^(?:(.+?)\s+)?(?:dropdown|drop-down|drop down|select|select box|list|options|choices)$/, 'select'],
    [/^(?:(.+?)\s+)?date(?:\s+(?:field|input|box|picker))?$/, 'date'],
    // "The departure calendar": the date field it belongs to ("the calendar" alone is the open one).
    [/^(.+?)\s+(?:calendar|datepicker|date\s+picker)$/, 'date'],
    [/^(?:(.+?)\s+)?time(?:\s+(?:field|input|box|picker))?$/, 'time'],
  ];
  const kindQuery = ((): { kind: string; qualifier: string } | null => {
    if (query.kind) return { kind: query.kind, qualifier: want };
    for (const [pattern, kind] of KIND_NOUNS) {
      const match = pattern.exec(want);
      if (match) return { kind, qualifier: match[1] ?? '' };
    }
    return null;
  })();
  const marksOf = (el: DomElement): string => {
    const own = [
      nameOf(el, implicitRole(el)),
      el.getAttribute('placeholder'),
      el.getAttribute('data-placeholder'),
      el.getAttribute('aria-label'),
      el.getAttribute('title'),
      el.getAttribute('name'),
      el.id,
      el.getAttribute('class'),
    ];
    for (let node = parentOf(el), up = 0; node && node !== body && up < 5; node = parentOf(node), up++)
      own.push(
        node.id,
        node.getAttribute('class'),
        node.getAttribute('aria-label'),
        node.getAttribute('role'),
      );
    return normalize(own.filter(Boolean).join(' ').replace(/[_-]+/g, ' '));
  };
  const ofKind = (el: DomElement, kind: string): boolean => {
    const role = implicitRole(el) ?? '';
    switch (kind) {
      case 'editor': {
        if (el.tagName === 'TEXTAREA') return true;
        if (role === 'textbox' && el.getAttribute('aria-multiline') === 'true') return true;
        const parent = parentOf(el);
        return Boolean(el.isContentEditable) && !(parent?.isContentEditable ?? false);
      }
      case 'slider':
        return role === 'slider';
      case 'spinbutton':
        return role === 'spinbutton';
      case 'searchbox':
        return (
          role === 'searchbox' ||
          (/^(?:textbox|combobox)$/.test(role) &&
            el.tagName !== 'TEXTAREA' &&
            /search|query|filter/.test(marksOf(el)))
        );
      case 'select':
        return (
          /^(?:combobox|listbox)$/.test(role) ||
          el.getAttribute('aria-haspopup') === 'listbox' ||
          (behavesAsControl(el) &&
            /select|dropdown|drop-down|picker|combo/.test(
              `${el.getAttribute('class') ?? ''} ${el.id} ${parentOf(el)?.getAttribute('class') ?? ''}`.toLowerCase(),
            ))
        );
      // "As the date", "the time": a date or time input, or a text field that says it holds one
      // (a date picker's input).
      case 'date':
        return (
          (el.tagName === 'INPUT' && /^(?:date|datetime-local)$/.test(el.type ?? '')) ||
          (/^(?:textbox|combobox)$/.test(role) &&
            el.tagName === 'INPUT' &&
            /date|calendar|birthday|\bdob\b|\bday\b/.test(marksOf(el)))
        );
      case 'time':
        return (
          (el.tagName === 'INPUT' && el.type === 'time') ||
          (/^(?:textbox|combobox)$/.test(role) &&
            el.tagName === 'INPUT' &&
            /time|clock|hour/.test(marksOf(el)))
        );
      default:
        return false;
    }
  };
  const byKind = (): DomElement[] => {
    if (!kindQuery) return [];
    const candidates = outermostAcrossShadows(everything.filter((el) => ofKind(el, kindQuery.kind)));
    const words = kindQuery.qualifier
      .split(/\s+/)
      .filter((w) => w.length > 1 && !/^(?:the|a|an|main|this|that)$/.test(w));
    if (words.length === 0) return candidates;
    const qualified = candidates.filter((el) => {
      const marks = marksOf(el);
      return words.every((w) => marks.includes(w));
    });
    if (qualified.length > 0) return qualified;
    const shown = candidates.filter(isVisible);
    return shown.length === 1 ? shown : [];
  };

  // A toolbar button named by what its icon shows or its tooltip says ("the bullet list button",
  // "Bold"): every word of the name is among the words of its class, value, title, tooltip or icon.
  const ICON_WORDS: Record<string, string[]> = {
    bullet: ['bullet', 'bullets', 'bulleted', 'unordered', 'ul', 'disc'],
    numbered: ['numbered', 'number', 'ordered', 'ol', 'numbers'],
    bold: ['bold', 'strong'],
    italic: ['italic', 'italics', 'em', 'emphasis'],
    underline: ['underline', 'underlined'],
    strikethrough: ['strikethrough', 'strike'],
    link: ['link', 'hyperlink', 'anchor'],
    list: ['list', 'lists', 'ul', 'ol'],
    image: ['image', 'picture', 'photo', 'img'],
    quote: ['quote', 'blockquote'],
    code: ['code', 'codeblock'],
    undo: ['undo'],
    redo: ['redo'],
  };
  const byIconWords = (): DomElement[] => {
    const words = want
      .replace(/\b(?:icon|button|btn|the|a|an|tool|toolbar)\b/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 1);
    if (words.length === 0) return [];
    const hits = everything.filter((el) => {
      if (!(roleSet ? roleMatches(el) || behavingMatches(el) : INTERACTIVE.has(roleFor(el) ?? '')))
        return false;
      const marks: Array<string | null | undefined> = [
        el.getAttribute('class'),
        el.getAttribute('value'),
        el.getAttribute('title'),
        el.getAttribute('aria-label'),
        el.getAttribute('data-tooltip'),
        el.getAttribute('data-tip'),
        el.getAttribute('data-title'),
        el.getAttribute('data-original-title'),
        el.getAttribute('data-bs-original-title'),
        el.getAttribute('data-command'),
        el.getAttribute('data-action'),
        el.getAttribute('name'),
        el.id,
      ];
      const parent = parentOf(el);
      if (parent) marks.push(parent.getAttribute('title'), parent.getAttribute('data-tooltip'));
      // A picker's opener is named by the picker around it (Quill's `ql-color ql-picker` › label).
      if (
        parent &&
        /picker|dropdown/i.test(parent.getAttribute('class') ?? '') &&
        /label|toggle|trigger/i.test(el.getAttribute('class') ?? '')
      )
        marks.push(parent.getAttribute('class'));
      for (const id of (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)) {
        const tip = byId(el, id);
        if (tip) marks.push(textOf(tip));
      }
      for (const icon of Array.from(
        el.querySelectorAll('svg, i, img, use, title, [class*=icon], [data-icon]'),
      ))
        marks.push(
          icon.getAttribute('class'),
          icon.getAttribute('data-icon'),
          icon.getAttribute('href'),
          icon.getAttribute('xlink:href'),
          icon.getAttribute('alt'),
          icon.tagName === 'title' || icon.tagName === 'TITLE' ? icon.textContent : null,
        );
      const said = new Set(
        marks
          .filter((mark): mark is string => Boolean(mark))
          .flatMap((mark) =>
            mark
              .replace(/([a-z])([A-Z])/g, '$1 $2')
              .toLowerCase()
              .split(/[^a-z0-9]+/),
          ),
      );
      return words.every((word) => (ICON_WORDS[word] ?? [word]).some((form) => said.has(form)));
    });
    return unique(innermost(hits));
  };

  // Role + accessible name needs a role: without one, the label/placeholder/text strategies below
  // say more precisely how the element was found, and a name alone matches too much.
  const byRole: Array<[string, () => DomElement[]]> = roleSet
    ? [['role+name', () => byRoleAndName('exact')]]
    : [];
  const byRolePartial: Array<[string, () => DomElement[]]> = roleSet
    ? [['role+name (partial)', () => byRoleAndName('contains')]]
    : [];
  // "The items", "the second item": list entries, not a menu of links (a to-do app's filters are a
  // list of links too).
  const onlyALink = (el: DomElement): boolean => {
    if (implicitRole(el) !== 'listitem') return false;
    const links = Array.from(el.querySelectorAll('a[href], [role=link]'));
    const controls = Array.from(el.querySelectorAll('input, button, select, textarea, [role=checkbox]'));
    return (
      links.length === 1 &&
      controls.length === 0 &&
      normalize(textOf(el)) === normalize(textOf(links[0] as DomElement))
    );
  };
  // Apps that draw their lists with <div>s: the items are the largest group of visible siblings
  // that look alike (same tag and first class) and hold text, leaving out menus of plain links.
  const repeatedRows = (): DomElement[] => {
    const groups = new Map<DomNode, Map<string, DomElement[]>>();
    for (const el of everything) {
      if (
        NOT_ROWS.test(el.tagName.toUpperCase()) ||
        /^(?:P|PRE|BLOCKQUOTE|SECTION|MAIN|HEADER|FOOTER|NAV)$/.test(el.tagName) ||
        !normalize(el.innerText)
      )
        continue;
      const parent = (el.parentElement ?? el.parentNode) as DomNode | null;
      if (!parent) continue;
      const bySignature = groups.get(parent) ?? new Map<string, DomElement[]>();
      groups.set(parent, bySignature);
      const members = bySignature.get(signature(el)) ?? [];
      bySignature.set(signature(el), [...members, el]);
    }
    let best: DomElement[] = [];
    for (const bySignature of groups.values()) {
      for (const members of bySignature.values()) {
        const shown = members.filter(isVisible);
        const plainLinks = shown.every(
          (el) =>
            el.querySelectorAll('input, button, select, textarea').length === 0 &&
            el.querySelectorAll('a[href]').length === 1,
        );
        if (shown.length >= 2 && shown.length > best.length && !plainLinks) best = shown;
      }
    }
    return best;
  };
  const byRoleOnly = (): DomElement[] => {
    const all = byRoleAndName('exact');
    const entries = all.filter((el) => !onlyALink(el));
    // "The textbox", "the text field", "the text input": a one-line field; a text area is called
    // that, or an editor, or by its label.
    if (roleSet?.has('textbox') && !roleSet.has('editor')) {
      const oneLine = entries.filter(
        (el) =>
          el.tagName === 'INPUT' ||
          (implicitRole(el) === 'textbox' &&
            el.getAttribute('aria-multiline') !== 'true' &&
            el.tagName !== 'TEXTAREA' &&
            !el.isContentEditable),
      );
      if (oneLine.length > 0 && oneLine.length < entries.length) return oneLine;
    }
    if (entries.length === 0 && roleSet?.has('listitem')) {
      const rows = repeatedRows();
      if (rows.length > 0) return rows;
    }
    return entries.length > 0 ? entries : all;
  };
  // "The red box", "the green button": the colour an element is drawn in (its own background, an
  // SVG shape's fill, else its text), named by the nearest colour word.
  /** A computed colour's channels (0–1), lightness and saturation, or null when it is (nearly) transparent. */
  const colorParts = (rgb: string) => {
    const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+))?/.exec(rgb);
    if (!m || (m[4] !== undefined && Number(m[4]) < 0.3)) return null;
    const [r, g, b] = [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const l = (max + min) / 2;
    const d = max - min;
    return { r, g, b, max, d, l, sat: d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1)) };
  };
  const colorWord = (rgb: string): string | null => {
    const parts = colorParts(rgb);
    if (!parts) return null;
    const { r, g, b, max, d, l, sat } = parts;
    if (l > 0.92) return 'white';
    if (l < 0.12) return 'black';
    if (sat < 0.18) return 'gray';
    const sector = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    const h = (sector * 60 + 360) % 360;
    if (h < 15 || h >= 345) return l > 0.75 ? 'pink' : 'red';
    if (h < 40) return l < 0.35 ? 'brown' : 'orange';
    if (h < 70) return 'yellow';
    if (h < 165) return 'green';
    if (h < 195) return 'cyan';
    if (h < 255) return 'blue';
    if (h < 290) return 'purple';
    return 'pink';
  };
  const SAME_COLOR: Record<string, string[]> = {
    grey: ['gray'],
    violet: ['purple'],
    magenta: ['pink', 'purple'],
    teal: ['cyan', 'green', 'blue'],
    turquoise: ['cyan'],
    aqua: ['cyan'],
    navy: ['blue'],
    lime: ['green'],
    gold: ['yellow', 'orange'],
    silver: ['gray'],
    maroon: ['red', 'brown'],
  };
  const wantedColors = query.color
    ? (SAME_COLOR[query.color.toLowerCase()] ?? [query.color.toLowerCase()])
    : [];
  const drawnIn = (el: DomElement): boolean => {
    const style = window.getComputedStyle(el) as unknown as {
      backgroundColor?: string;
      fill?: string;
      color?: string;
    };
    const svg = /^(?:rect|circle|ellipse|path|polygon|svg)$/i.test(el.tagName);
    const own = colorWord((svg ? style.fill : style.backgroundColor) ?? '');
    if (own) return wantedColors.includes(own);
    const inner = el.firstElementChild
      ? colorWord(
          (window.getComputedStyle(el.firstElementChild) as unknown as { backgroundColor?: string })
            .backgroundColor ?? '',
        )
      : null;
    if (inner) return wantedColors.includes(inner);
    const text = colorWord(style.color ?? '');
    return text !== null && text !== 'black' && wantedColors.includes(text);
  };
  // "A triangle", "the small circle": a shape drawn without words (SVG shapes, or an empty box with
  // a background), told by its geometry.
  const SHAPE_RE = /^(?:(large|big|small|tiny)\s+)?(circle|triangle|square|rectangle|shape)s?$/;
  const byShape = (): DomElement[] => {
    const asked = SHAPE_RE.exec(want);
    if (!asked?.[2]) return [];
    const shapeOf = (el: DomElement): string | null => {
      const tag = el.tagName.toLowerCase();
      const rect = el.getBoundingClientRect();
      const even = Math.abs(rect.width - rect.height) <= Math.max(2, 0.1 * Math.max(rect.width, rect.height));
      if (tag === 'circle' || tag === 'ellipse') return 'circle';
      if (tag === 'polygon') {
        const points =
          (el.getAttribute('points') ?? '')
            .trim()
            .split(/[\s,]+/)
            .filter(Boolean).length / 2;
        return points === 3
          ? 'triangle'
          : points === 4 && even
            ? 'square'
            : points === 4
              ? 'rectangle'
              : null;
      }
      if (tag === 'rect') return even ? 'square' : 'rectangle';
      if (!/^(?:div|span|i|b)$/.test(tag) || normalize(textOf(el)) || el.children.length > 0) return null;
      if (rect.width < 4 || rect.height < 4) return null;
      const style = window.getComputedStyle(el) as unknown as {
        backgroundColor?: string;
        borderRadius?: string;
      };
      if (!colorWord(style.backgroundColor ?? '')) return null;
      const radius = parseFloat(style.borderRadius ?? '0') || 0;
      if (even && (radius >= rect.width / 2 - 1 || /50%/.test(style.borderRadius ?? ''))) return 'circle';
      return even ? 'square' : 'rectangle';
    };
    const shaped = everything.filter((el) => {
      const shape = isVisible(el) ? shapeOf(el) : null;
      return shape !== null && (asked[2] === 'shape' || shape === asked[2]);
    });
    if (!asked[1] || shaped.length < 2) return shaped;
    const area = (el: DomElement) => {
      const rect = el.getBoundingClientRect();
      return rect.width * rect.height;
    };
    const sizes = shaped.map(area).sort((a, b) => a - b);
    const middle = sizes[Math.floor(sizes.length / 2)] ?? 0;
    return shaped.filter((el) => (/large|big/.test(asked[1] ?? '') ? area(el) > middle : area(el) < middle));
  };
  /** How far a colour is from the plain one its word names: 0 for full saturation at mid lightness. */
  const colorDistance = (rgb: string): number => {
    const parts = colorParts(rgb);
    return parts ? Math.abs(parts.l - 0.5) + (1 - parts.sat) : 2;
  };
  // Of a palette's shades of one colour ("the red box" among five reds), the plainest one.
  const byColor = (): DomElement[] => {
    const fillOf = (el: DomElement): string => {
      const style = window.getComputedStyle(el) as unknown as { backgroundColor?: string; fill?: string };
      return (
        (/^(?:rect|circle|ellipse|path|polygon)$/i.test(el.tagName) ? style.fill : style.backgroundColor) ??
        ''
      );
    };
    const hits = innermost(
      everything.filter((el) => {
        if (el === body || el.tagName === 'HTML' || !isVisible(el)) return false;
        const own = colorWord(fillOf(el));
        return own !== null && wantedColors.includes(own);
      }),
    );
    const best = Math.min(...hits.map((el) => colorDistance(fillOf(el))));
    return hits.filter((el) => colorDistance(fillOf(el)) <= best + 0.08);
  };
  const strategies: Array<[string, () => DomElement[]]> =
    want === '' && wantedColors.length > 0 && roleSet === null
      ? [['colour', byColor]]
      : want === ''
        ? query.kind
          ? [['kind', byKind]]
          : [['role', byRoleOnly]]
        : [
            ...(query.near !== null ? ([['column', byColumn]] as Array<[string, () => DomElement[]]>) : []),
            ...byRole,
            ['label', () => byLabel('exact')],
            ...(kindQuery ? ([['kind', byKind]] as Array<[string, () => DomElement[]]>) : []),
            // Editors that draw their placeholder from data-placeholder (Quill, many contenteditables).
            [
              'placeholder',
              () => [
                ...byAttribute('placeholder', '[placeholder]', 'exact'),
                ...byAttribute('data-placeholder', '[data-placeholder]', 'exact'),
              ],
            ],
            ['aria-label', () => byAttribute('aria-label', '[aria-label]', 'exact')],
            ['title', () => byAttribute('title', '[title]', 'exact')],
            ['alt', () => byAttribute('alt', 'img[alt], input[type=image][alt], area[alt]', 'exact')],
            ['text', () => byText('exact')],
            ...(SHAPE_RE.test(want) ? ([['shape', byShape]] as Array<[string, () => DomElement[]]>) : []),
            ...byRolePartial,
            ['label (partial)', () => byLabel('contains')],
            [
              'placeholder (partial)',
              () => [
                ...byAttribute('placeholder', '[placeholder]', 'contains'),
                ...byAttribute('data-placeholder', '[data-placeholder]', 'contains'),
              ],
            ],
            ['aria-label (partial)', () => byAttribute('aria-label', '[aria-label]', 'contains')],
            ['title (partial)', () => byAttribute('title', '[title]', 'contains')],
            [
              'alt (partial)',
              () => byAttribute('alt', 'img[alt], input[type=image][alt], area[alt]', 'contains'),
            ],
            ['text (partial)', () => byText('contains')],
            ['icon or synonym', bySynonym],
            ['icon words', byIconWords],
            ['caption', byCaption],
            ['id/name/test id', byIdentifier],
            ['css', byCss],
          ];

  // Rows: a list item, a table row, a card. An element is a row when it says so, or when its parent
  // repeats elements like it (a list of <div class="card">).
  const ROW_TAGS = /^(?:LI|TR|ARTICLE|DT|DD|DETAILS|FIELDSET)$/;
  const ROW_ROLES = /^(?:row|listitem|article|option|treeitem|menuitem|menuitemcheckbox|menuitemradio|tab)$/;
  const NOT_ROWS =
    /^(?:SPAN|LABEL|A|BUTTON|INPUT|SELECT|TEXTAREA|B|I|EM|STRONG|SMALL|IMG|SVG|PATH|BR|OPTION|TD|TH|CODE|KBD|SUP|SUB|MARK|S|U|USE|ABBR|TIME|H1|H2|H3|H4|H5|H6|HR)$/;
  const signature = (el: DomElement): string =>
    `${el.tagName}.${(el.getAttribute('class') ?? '').trim().split(/\s+/)[0] ?? ''}`;
  const isRow = (el: DomElement): boolean => {
    if (ROW_TAGS.test(el.tagName) || ROW_ROLES.test(el.getAttribute('role') ?? '')) return true;
    if (NOT_ROWS.test(el.tagName.toUpperCase())) return false;
    const parent = parentOf(el);
    if (!parent || el === body) return false;
    const mine = signature(el);
    const siblings = el.parentElement
      ? Array.from(parent.children)
      : Array.from((el.parentNode as DomNode | null)?.childNodes ?? []).filter(
          (node): node is DomElement => node.nodeType === ELEMENT_NODE,
        );
    return siblings.filter((sibling) => signature(sibling) === mine).length >= 2;
  };
  const rowOf = (el: DomElement): DomElement | null => {
    for (let node: DomElement | null = el; node && node !== body; node = parentOf(node)) {
      if (isRow(node)) return node;
    }
    return null;
  };

  // Where the `near` text is: the innermost visible elements showing it, exact text first.
  const nearWant = normalize(query.near);
  const anchors = ((): DomElement[] => {
    if (query.near === null || !nearWant) return [];
    const showing = (mode: 'exact' | 'contains') =>
      innermost(
        everything.filter((el) => {
          const text = normalize(
            el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? el.value : visibleText(el),
          );
          return mode === 'exact' ? text === nearWant : text.includes(nearWant);
        }),
      ).filter(isVisible);
    const exact = showing('exact');
    return exact.length > 0 ? exact : showing('contains');
  })();
  /** The smallest container around each anchor holding a match, never climbing out of a row. */
  const scoped = (found: DomElement[]): { within: DomElement[]; rows: DomElement[] } => {
    const within: DomElement[] = [];
    const rows: DomElement[] = [];
    for (const anchor of anchors) {
      let row: DomElement | null = null;
      for (let node: DomElement | null = anchor; node && node !== body; node = parentOf(node)) {
        const inside = found.filter((el) => holds(node as DomElement, el));
        if (inside.length > 0) {
          within.push(...inside);
          row = node;
          break;
        }
        if (isRow(node)) {
          row = node;
          break;
        }
      }
      if (row) rows.push(row);
    }
    // "The checkbox for 'Remember me'": a control named by the text counts wherever its label is.
    for (const el of found) {
      const name = normalize(nameOf(el, implicitRole(el)));
      if (name && name === nearWant) within.push(el);
    }
    return { within: unique(within), rows: unique(rows) };
  };

  const favoured = (el: DomElement): boolean => {
    if (!query.prefer) return false;
    const role = implicitRole(el) ?? '';
    if (query.prefer === 'editable') return /^(?:textbox|searchbox|spinbutton|combobox)$/.test(role);
    if (query.prefer === 'checkable')
      return /^(?:checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role);
    return /^(?:combobox|listbox)$/.test(role);
  };
  const POPUP_ROLES = /^(?:listbox|menu|tree|grid|dialog)$/;
  // "Choose 5ft 9in from the dropdown": the dropdown that has that option (its own <option>s, or
  // the options inside it or in the list it controls, drawn or not); else the element that holds
  // that text ("change 1815 to 1816" in "the editor": the editable part showing 1815).
  const offers = (el: DomElement): boolean => {
    const want = normalize(query.holding);
    if (!want) return false;
    const has = (text: string | null | undefined) => {
      const got = normalize(text);
      return got === want || (want.length > 2 && got.includes(want));
    };
    if (Array.from(el.options ?? []).some((option) => has(option.label || option.text))) return true;
    const ids = `${el.getAttribute('aria-controls') ?? ''} ${el.getAttribute('aria-owns') ?? ''}`.trim();
    const lists = ids ? ids.split(/\s+/).map((id) => document.getElementById(id)) : [];
    // A trigger that does not say which list it opens: the list box named by the same label, else
    // the one right after it.
    if (!ids && el.getAttribute('aria-haspopup')) {
      const labels = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
      for (const list of Array.from(document.querySelectorAll('[role="listbox"], [role="menu"]'))) {
        const named = (list.getAttribute('aria-labelledby') ?? '').split(/\s+/);
        if (labels.some((id) => named.includes(id))) lists.push(list);
      }
      const next = el.nextElementSibling;
      if (lists.length === 0 && next && /^(?:listbox|menu)$/.test(next.getAttribute('role') ?? ''))
        lists.push(next);
    }
    for (const root of [el, ...lists]) {
      if (!root) continue;
      for (const option of Array.from(root.querySelectorAll('[role="option"], option, li'))) {
        if (has(option.textContent)) return true;
      }
    }
    // Not a list: the text it holds ("the editor that shows 1815").
    const shown = normalize(el.innerText ?? el.textContent);
    const typed = normalize(el.value);
    return want.length > 0 && (shown.includes(want) || typed.includes(want));
  };
  // "The first row" of a table means its first row of data, not the header.
  const headerRow = (el: DomElement): boolean =>
    implicitRole(el) === 'row' &&
    (el.parentElement?.tagName === 'THEAD' ||
      (cellsOf(el).length > 0 && cellsOf(el).every((cell) => implicitRole(cell) === 'columnheader')));

  // "In the last row": the visible list items or data rows in document order (the outermost, when
  // lists nest), then the one at that position.
  const nthRow = (): DomElement | undefined => {
    if (query.inRow === null) return undefined;
    const rows = everything.filter(
      (el) => /^(?:listitem|row)$/.test(implicitRole(el) ?? '') && !headerRow(el) && isVisible(el),
    );
    const outer = rows.filter((el) => !rows.some((other) => other !== el && shows(other, el)));
    return query.inRow === -1 ? outer[outer.length - 1] : outer[query.inRow - 1];
  };
  const tried: string[] = [];
  let nearRows: DomElement[] = [];
  // A closed panel labelled by its header (an accordion's, aria-labelledby) matches "by label" but
  // is hidden: the header, found by its text later, is what a person means. Kept for the end.
  let hiddenByLabel: [string, () => DomElement[]] | null = null;
  const order = [...strategies];
  for (let index = 0; index < order.length; index++) {
    const [strategy, run] = order[index] as [string, () => DomElement[]];
    tried.push(strategy);
    let found = unique(run());
    if (query.inRow !== null) {
      const row = nthRow();
      found = row ? found.filter((el) => el !== row && shows(row, el)) : [];
    }
    if (query.near !== null) {
      const { within, rows } = scoped(found);
      if (rows.length > nearRows.length) nearRows = rows;
      found = within;
    }
    if (wantedColors.length > 0 && strategy !== 'colour') found = found.filter(drawnIn);
    if (found.length === 0) continue;
    // "Open the "Name on tag" menu": the name fits the closed popup itself (a hidden listbox or menu
    // labelled by it) and, in part, the control that opens it. The control is what a person means.
    if (found.every((el) => POPUP_ROLES.test(implicitRole(el) ?? '') && !isVisible(el))) {
      const want = normalize(query.name);
      const trigger = everything.find(
        (el) =>
          (el.hasAttribute('aria-haspopup') || el.hasAttribute('aria-expanded')) &&
          !POPUP_ROLES.test(implicitRole(el) ?? '') &&
          want.length > 0 &&
          normalize(nameOf(el, implicitRole(el))).includes(want) &&
          isVisible(el),
      );
      if (trigger) found = [trigger];
    }
    if (
      hiddenByLabel === null &&
      /^label/.test(strategy) &&
      found.length > 0 &&
      !found.some(isVisible) &&
      query.inRow === null &&
      query.near === null
    ) {
      hiddenByLabel = [strategy, () => found];
      order.push(hiddenByLabel);
      continue;
    }
    const visibility = new Map(found.map((el) => [el, isVisible(el)] as const));
    // Visible beats hidden, the kind of element the action needs beats others, and a control beats
    // plain text ("click Sign in" means the button, not the heading above it); then document order.
    const interactive = (el: DomElement) => INTERACTIVE.has(roleFor(el) ?? '');
    // Without a role, a button beats a link of the same name: on a sign-in page "Click 'Sign in'"
    // means the form's button, not the header's link to the page already open.
    const buttonFirst = (el: DomElement) => (roleSet === null && implicitRole(el) === 'button' ? 0.5 : 0);
    // A day of the month before or after in a calendar, a disabled twin: the other one is meant.
    const muted = (el: DomElement) =>
      el.getAttribute('aria-disabled') === 'true' ||
      el.hasAttribute('disabled') ||
      /(?:^|\s|-)(?:other-month|outside|prevMonthDay|nextMonthDay|disabled)(?:$|\s|-)/i.test(
        el.getAttribute('class') ?? '',
      );
    const scoreOf = (el: DomElement) =>
      (favoured(el) ? 2 : 0) +
      (interactive(el) ? 1 : 0) +
      buttonFirst(el) +
      (offers(el) ? 1.5 : 0) -
      (muted(el) ? 0.25 : 0);
    const ranked = found
      .map((el, order) => ({
        el,
        order,
        score: (visibility.get(el) ? 4 : 0) + scoreOf(el),
      }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .map((entry) => entry.el);
    const visibleOnes = ranked.filter((el) => visibility.get(el));
    const topScore = visibleOnes[0] ? scoreOf(visibleOnes[0]) : -1;
    const tiedKeys = new Set(
      visibleOnes
        .filter((el) => scoreOf(el) === topScore)
        .map((el, index) => {
          const href = el.tagName === 'A' ? (el as unknown as { href?: string }).href : undefined;
          return href ? `link ${href}` : `element ${index}`;
        }),
    );
    const pool = visibleOnes.length > 0 ? visibleOnes : ranked;
    let element: DomElement | null = pool[0] ?? null;
    if (query.nth !== null) {
      let inOrder = [...pool].sort((a, b) => found.indexOf(a) - found.indexOf(b));
      const data = inOrder.filter((el) => !headerRow(el));
      if (data.length > 0) inOrder = data;
      element = (query.nth === -1 ? inOrder[inOrder.length - 1] : inOrder[query.nth - 1]) ?? null;
    }
    const visible = element ? Boolean(visibility.get(element)) : false;
    return {
      strategy,
      elements: ranked,
      visibleCount: visibleOnes.length,
      tied: tiedKeys.size,
      element,
      visible,
      tried,
      hover: element && !visible ? rowOf(element) : null,
      nearRows: nearRows.length,
      closest: [],
    };
  }

  // Nothing matched: say what was there, the way the person would name it.
  const closest = ((): string[] => {
    const words = new Set(want.split(/[\s_-]+/).filter((w) => w.length > 1));
    const scored: Array<{ text: string; score: number }> = [];
    for (const el of everything) {
      const role = roleFor(el);
      if (!role || !INTERACTIVE.has(role) || !isVisible(el)) continue;
      const shown = nameOf(el, role)
        .replace(/[\s\u00a0]+/g, ' ')
        .trim()
        .slice(0, 60);
      const name = shown.toLowerCase();
      let score = 0;
      if (roleSet?.has(role)) score += 2;
      if (name && want && (name.includes(want) || want.includes(name))) score += 3;
      for (const word of name.split(/\s+/)) if (words.has(word)) score += 2;
      if (query.near !== null && nearRows.some((row) => holds(row, el))) score += 4;
      if (kindQuery && ofKind(el, kindQuery.kind)) score += 3;
      if (name && synonyms.has(name)) score += 2;
      // Nothing alike: the page's controls still tell the person what is there.
      if (score === 0 && (kindQuery || xMark)) score = 0.1;
      if (score === 0) continue;
      const row = rowOf(el);
      const rowText = row
        ? (row.innerText ?? textOf(row))
            .replace(/[\s\u00a0]+/g, ' ')
            .trim()
            .slice(0, 40)
        : '';
      const where = rowText && rowText.toLowerCase() !== name ? ` (in "${rowText}")` : '';
      scored.push({ text: `${role}${shown ? ` "${shown}"` : ' without a name'}${where}`, score });
    }
    return [
      ...new Set(
        scored
          .map((entry, order) => ({ ...entry, order }))
          .sort((a, b) => b.score - a.score || a.order - b.order)
          .map((entry) => entry.text),
      ),
    ].slice(0, 5);
  })();
  return {
    strategy: null,
    elements: [],
    visibleCount: 0,
    tied: 0,
    element: null,
    visible: false,
    tried,
    // The row with the text is there but shows no such control: it may appear while hovered.
    hover: nearRows.length === 1 ? (nearRows[0] ?? null) : null,
    nearRows: nearRows.length,
    closest,
  };
}
