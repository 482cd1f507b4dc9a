import type { Page } from 'puppeteer-core';

/** The attribute that carries an element's ref; refs stay the same for as long as the element lives. */
export const REF_ATTRIBUTE = 'data-agent-ref';

export interface SnapshotOptions {
  /** Most elements listed in the outline. */
  maxElements: number;
  /** Most characters of visible page text. */
  maxTextChars: number;
}

export interface PageSnapshot {
  url: string;
  title: string;
  /** One line per element: `[e3] button "Sign in"`. */
  outline: string[];
  /** How each ref is described in log lines: `the button "Sign in"`. */
  refs: Record<string, string>;
  /** Each ref's role and whole accessible name (for exporting a run as instructions). */
  elements: Record<string, { role: string; name: string }>;
  /** Visible text, whitespace collapsed and cut to `maxTextChars`. */
  text: string;
  truncated: { elements: boolean; text: boolean };
}

/**
 * Runs in the page, so it is plain JavaScript source: it gives every visible element a person can
 * act on or read as a landmark a ref (kept on the element, so it is stable between snapshots) and
 * lists them with their role, accessible name and state. Password values are never read.
 */
const SNAPSHOT_SCRIPT = `(opts) => {
  const ATTR = ${JSON.stringify(REF_ATTRIBUTE)};
  const norm = (s) => String(s || '').replace(/[\\s\\u00a0]+/g, ' ').trim();
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  window.__agentRefSeq = window.__agentRefSeq || 0;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const st = getComputedStyle(el);
    return st.visibility !== 'hidden' && st.display !== 'none' && Number(st.opacity) !== 0;
  };
  const inputRole = (el) => {
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    if (t === 'hidden') return null;
    if (t === 'checkbox') return 'checkbox';
    if (t === 'radio') return 'radio';
    if (['submit', 'button', 'reset', 'image'].includes(t)) return 'button';
    if (t === 'range') return 'slider';
    if (t === 'number') return 'spinbutton';
    if (t === 'search') return 'searchbox';
    return 'textbox';
  };
  const roleOf = (el) => {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit.toLowerCase();
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : null;
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'input') return inputRole(el);
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'img') return el.getAttribute('alt') ? 'img' : null;
    if (tag === 'dialog') return 'dialog';
    if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
    return null;
  };
  const INTERESTING = new Set(['link', 'button', 'textbox', 'searchbox', 'spinbutton', 'checkbox',
    'radio', 'switch', 'combobox', 'listbox', 'option', 'slider', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'heading', 'img', 'dialog', 'alert', 'status', 'alertdialog', 'treeitem', 'gridcell']);
  const nameOf = (el, role) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const text = by.split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean)
        .map((n) => norm(n.innerText || n.textContent)).join(' ');
      if (text) return text;
    }
    const aria = norm(el.getAttribute('aria-label'));
    if (aria) return aria;
    if (el.labels && el.labels.length > 0) {
      const text = Array.from(el.labels).map((l) => norm(l.innerText || l.textContent)).join(' ');
      if (text) return text;
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && ['submit', 'button', 'reset'].includes((el.type || '').toLowerCase()))
      return norm(el.value) || norm(el.type);
    if (tag === 'img' || (tag === 'input' && el.type === 'image')) return norm(el.getAttribute('alt'));
    if (['textbox', 'searchbox', 'spinbutton', 'combobox', 'listbox', 'slider'].includes(role))
      return norm(el.getAttribute('placeholder')) || norm(el.getAttribute('title')) || norm(el.getAttribute('name'));
    return norm(el.innerText || el.textContent) || norm(el.getAttribute('title'));
  };
  const outline = [];
  const refs = {};
  const elements = {};
  let more = false;
  for (const el of Array.from(document.body ? document.body.querySelectorAll('*') : [])) {
    if (el.id === '__suite_agent_cursor') continue;
    const role = roleOf(el);
    if (!role || !INTERESTING.has(role)) continue;
    if (!visible(el)) continue;
    const fullName = nameOf(el, role);
    const name = cut(fullName, 80);
    if ((role === 'alert' || role === 'status') && !name) continue;
    if (outline.length >= opts.maxElements) { more = true; break; }
    let ref = el.getAttribute(ATTR);
    if (!ref) { ref = 'e' + (++window.__agentRefSeq); el.setAttribute(ATTR, ref); }
    const props = [];
    const tag = el.tagName.toLowerCase();
    if (role === 'heading') props.push('level=' + (Number(tag.slice(1)) || Number(el.getAttribute('aria-level')) || 2));
    if (tag === 'input' || tag === 'textarea') {
      const type = (el.type || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') props.push(el.checked ? 'checked' : 'unchecked');
      else if (type === 'password') props.push('password', el.value ? 'value=(filled)' : 'value=(empty)');
      else if (role !== 'button') props.push('value=' + JSON.stringify(cut(String(el.value || ''), 80)));
    }
    if (tag === 'select') {
      const chosen = el.selectedOptions && el.selectedOptions[0];
      props.push('selected=' + JSON.stringify(chosen ? norm(chosen.label || chosen.text) : ''));
      props.push('options=' + JSON.stringify(Array.from(el.options).slice(0, 20).map((o) => norm(o.label || o.text))));
    }
    const ariaChecked = el.getAttribute('aria-checked');
    if (ariaChecked && tag !== 'input') props.push(ariaChecked === 'true' ? 'checked' : 'unchecked');
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') props.push('disabled');
    if (role === 'link') {
      const href = el.getAttribute('href') || '';
      if (href && !href.startsWith('javascript:')) props.push('href=' + JSON.stringify(cut(href, 80)));
    }
    outline.push('[' + ref + '] ' + role + (name ? ' ' + JSON.stringify(name) : '') + (props.length ? ' ' + props.join(' ') : ''));
    elements[ref] = { role, name: fullName.slice(0, 300) };
    refs[ref] = 'the ' + role + (name ? ' ' + JSON.stringify(cut(name, 40)) : '');
  }
  const all = norm(document.body ? document.body.innerText : '');
  return {
    url: location.href,
    title: document.title,
    outline,
    refs,
    elements,
    text: cut(all, opts.maxTextChars),
    truncated: { elements: more, text: all.length > opts.maxTextChars },
  };
}`;

/** Reads the page; a page between documents (mid-navigation) is retried briefly before giving up. */
export async function takeSnapshot(page: Page, options: SnapshotOptions): Promise<PageSnapshot> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return (await page.evaluate(`(${SNAPSHOT_SCRIPT})(${JSON.stringify(options)})`)) as PageSnapshot;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  return {
    url: page.url(),
    title: '',
    outline: [],
    refs: {},
    elements: {},
    text: `(the page could not be read: ${reason})`,
    truncated: { elements: false, text: false },
  };
}

/** Whether an element with this ref is in the page right now (a stale ref fails fast, not after a timeout). */
export async function refExists(page: Page, ref: string): Promise<boolean> {
  try {
    return (await page.evaluate(
      `document.querySelector(${JSON.stringify(refSelector(ref))}) !== null`,
    )) as boolean;
  } catch {
    return false;
  }
}

export function refSelector(ref: string): string {
  return `[${REF_ATTRIBUTE}="${ref.replace(/["\\]/g, '')}"]`;
}

/** The observation as the model reads it. */
export function formatSnapshot(snapshot: PageSnapshot): string {
  const lines = [
    `URL: ${snapshot.url}`,
    `Title: ${snapshot.title}`,
    'Elements (use the [ref] in tool calls):',
    ...(snapshot.outline.length > 0 ? snapshot.outline : ['(none)']),
  ];
  if (snapshot.truncated.elements) lines.push('(more elements not listed; scroll or be more specific)');
  lines.push('Page text:', snapshot.text || '(empty)');
  if (snapshot.truncated.text) lines.push('(page text cut)');
  return lines.join('\n');
}
