import type { DomDocument, DomElement } from './page-dom.js';

// Evaluated inside the page: the function must be self-contained.
declare const document: DomDocument;

export interface PagerState {
  current: number | null;
  last: number | null;
}

/**
 * The page a paginated table shows: "Page 2 of 5" as text (ag-grid, Tabulator), or the pager's
 * current button (aria-current, DataTables' and Grid.js' current class) and its highest number.
 */
export function readPager(): PagerState {
  const squeeze = (text: string | null | undefined) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const visible = (el: DomElement): boolean => {
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const text = squeeze(document.body?.innerText);
  const spelled = /\bpage\s+(\d+)\s*(?:of|\/)\s*(\d+)\b/i.exec(text);
  if (spelled) return { current: Number(spelled[1]), last: Number(spelled[2]) };
  const PAGERS =
    'nav, [role=navigation], .pagination, .pager, [class*=paging], [class*=pagination], [class*=pages]';
  const current = Array.from(
    document.querySelectorAll(
      '[aria-current=page], [aria-current=true], .current, .active, [class*=current], [class*=active], [aria-pressed=true]',
    ),
  ).find((el) => el.parentElement?.closest(PAGERS) && visible(el) && /^\d+$/.test(squeeze(el.innerText)));
  // The pager around the current button (a button's own class may say "paging" too).
  const pager = current?.parentElement?.closest(PAGERS);
  if (!current || !pager) return { current: null, last: null };
  const numbers = Array.from(pager.querySelectorAll('a, button, li, span'))
    .filter(visible)
    .map((el) => squeeze(el.innerText))
    .filter((label) => /^\d+$/.test(label))
    .map(Number);
  return {
    current: Number(squeeze(current.innerText)),
    last: numbers.length > 0 ? Math.max(...numbers) : null,
  };
}

/**
 * The control that shows page `next` of a paged list: a link or button numbered so, else one that
 * says "Next" (›, », >). Null when the page has no pager.
 */
export function nextPageControl(next: number): DomElement | null {
  const squeeze = (text: string | null | undefined) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const visible = (el: DomElement): boolean => {
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const controls = Array.from(
    document.querySelectorAll('a, button, [role=button], [role=link], li[class*=page] > *'),
  ).filter(
    (el) => visible(el) && !el.hasAttribute('disabled') && el.getAttribute('aria-disabled') !== 'true',
  );
  const numbered = controls.find((el) => squeeze(el.innerText) === String(next));
  if (numbered) return numbered;
  return (
    controls.find((el) =>
      /^(?:next(?: page)?|›|»|>|→)(?:\s*[›»>→])?$/i.test(
        squeeze(el.innerText) || squeeze(el.getAttribute('aria-label')) || squeeze(el.getAttribute('title')),
      ),
    ) ?? null
  );
}

/**
 * The page's rendered text, squeezed and lower-cased, to see whether a page shows something; the
 * step's own sentence, when a task page prints it, is left out.
 */
export function shownPageText(sentence: string): string {
  const squeeze = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').toLowerCase();
  const text = squeeze(document.body?.innerText ?? '');
  const own = squeeze(sentence).trim();
  return own.length >= 12 ? text.split(own).join(' ') : text;
}
