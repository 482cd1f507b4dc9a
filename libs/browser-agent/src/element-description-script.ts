import type { DomDocument, DomElement, DomNode } from './page-dom.js';

// Evaluated inside the page: the function must be self-contained (Puppeteer sends its source).
declare const document: DomDocument;

/**
 * How a recorded step finds its element again outside this runner (an exported Playwright or
 * Puppeteer script): by ARIA role and accessible name when it has both, else by its visible text,
 * with a CSS selector as the fallback.
 */
export interface ElementLocator {
  role?: string;
  name?: string;
  /** Visible text of an element without a usable role (a `<span>` with a click handler). */
  text?: string;
  css: string;
  /** A step on every match ("check all the checkboxes"): the CSS path of each element, in the order acted on. */
  each?: string[];
}

/** Describes an element for an exported script: role, accessible name, text and a CSS path. */
export function describeElement(el: DomElement): ElementLocator {
  const norm = (s: string | null | undefined): string =>
    String(s ?? '')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim();
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const implicitRole = (): string | undefined => {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit.toLowerCase();
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : undefined;
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return el.multiple || (el.size ?? 0) > 1 ? 'listbox' : 'combobox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'img') return el.getAttribute('alt') ? 'img' : undefined;
    if (tag === 'option') return 'option';
    if (tag === 'input') {
      if (type === 'hidden') return undefined;
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (/^(?:submit|button|reset|image)$/.test(type)) return 'button';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (el.hasAttribute('list')) return 'combobox';
      if (type === 'search') return 'searchbox';
      return 'textbox';
    }
    return undefined;
  };
  const textOf = (node: DomNode): string => {
    if (node.nodeType === 3) return node.textContent ?? '';
    if (node.nodeType !== 1) return '';
    const element = node as DomElement;
    if (/^(?:SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(element.tagName)) return '';
    if (element.tagName === 'IMG') return ` ${element.getAttribute('alt') ?? ''} `;
    let out = '';
    for (const child of Array.from(element.childNodes)) out += textOf(child);
    return ` ${out} `;
  };
  const FROM_CONTENT =
    /^(?:button|link|heading|tab|menuitem|menuitemcheckbox|menuitemradio|option|cell|gridcell|checkbox|radio|switch|treeitem|listitem)$/;
  const nameOf = (role: string | undefined): string => {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const text = norm(
        by
          .split(/\s+/)
          .map((id) => document.getElementById(id))
          .map((ref) => (ref ? textOf(ref) : ''))
          .join(' '),
      );
      if (text) return text;
    }
    const aria = norm(el.getAttribute('aria-label'));
    if (aria) return aria;
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      if (/^(?:submit|button|reset)$/.test(type))
        return norm(el.value) || (type === 'submit' ? 'Submit' : '');
      if (type === 'image') return norm(el.getAttribute('alt'));
      const labels = el.labels ? Array.from(el.labels) : [];
      const fromLabel = norm(labels.map((label) => textOf(label)).join(' '));
      if (fromLabel) return fromLabel;
      return norm(el.getAttribute('title') ?? el.getAttribute('placeholder'));
    }
    if (tag === 'img') return norm(el.getAttribute('alt') ?? el.getAttribute('title'));
    if (role && FROM_CONTENT.test(role)) {
      const content = norm(textOf(el));
      if (content) return content;
    }
    return norm(el.getAttribute('title'));
  };
  const IDENT = /^-?[A-Za-z_][\w-]*$/;
  const unique = (selector: string): boolean => {
    try {
      return document.querySelectorAll(selector).length === 1;
    } catch {
      return false;
    }
  };
  const attrSelector = (node: DomElement, attr: string): string | undefined => {
    const value = node.getAttribute(attr);
    if (!value || /["\\\n]/.test(value)) return undefined;
    const selector = `${node.tagName.toLowerCase()}[${attr}="${value}"]`;
    return unique(selector) ? selector : undefined;
  };
  const cssOf = (node: DomElement): string => {
    const parts: string[] = [];
    let current: DomElement | null = node;
    while (current && current.tagName.toLowerCase() !== 'html') {
      if (current.id && IDENT.test(current.id) && unique(`#${current.id}`)) {
        parts.unshift(`#${current.id}`);
        break;
      }
      const own = attrSelector(current, 'data-testid') ?? attrSelector(current, 'name');
      if (own) {
        parts.unshift(own);
        break;
      }
      const name = current.tagName.toLowerCase();
      const parent: DomElement | null = current.parentElement;
      if (!parent) {
        parts.unshift(name);
        break;
      }
      const same = Array.from(parent.children).filter((c) => c.tagName === current?.tagName);
      parts.unshift(same.length > 1 ? `${name}:nth-of-type(${same.indexOf(current) + 1})` : name);
      current = parent;
    }
    return parts.join(' > ');
  };
  const role = implicitRole();
  const name = nameOf(role);
  const css = cssOf(el);
  if (role && name && name.length <= 200) return { role, name, css };
  const text = norm(el.innerText ?? el.textContent);
  return text && text.length <= 80 ? { text, css } : { css };
}
