import type { DomDocument, DomElement, DomWindow } from './page-dom.js';

// Evaluated inside the page: the function must be self-contained.
declare const document: DomDocument;
declare const window: DomWindow;

/**
 * What a person clicks to bring a hidden element into view: the element is in a collapsed
 * accordion section, an inactive tab, a closed <details> or a folded tree branch. Returns the
 * visible control that opens the outermost hidden container around it (one level at a time: the
 * caller clicks it and looks again), or null when nothing on the page says it opens that container.
 */
export function openerOfHidden(el: DomElement): DomElement | null {
  const body = document.body;
  const shown = (node: DomElement): boolean => {
    if (node.checkVisibility && !node.checkVisibility({ visibilityProperty: true })) return false;
    const rect = node.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const hiddenItself = (node: DomElement): boolean => {
    if (node.hasAttribute('hidden') || node.getAttribute('aria-hidden') === 'true') return true;
    const style = window.getComputedStyle(node);
    return style.display === 'none' || style.visibility === 'hidden';
  };
  // Outermost first: the container a person must open before any inner one.
  const chain: DomElement[] = [];
  for (let node: DomElement | null = el; node && node !== body; node = node.parentElement) chain.push(node);
  chain.reverse();
  const closedDetails = chain.find(
    (node) => node.tagName === 'DETAILS' && !node.hasAttribute('open') && node !== el,
  );
  if (closedDetails) {
    const summary = closedDetails.querySelector(':scope > summary');
    if (summary && shown(summary) && !summary.contains(el)) return summary;
  }
  const container = chain.find(hiddenItself);
  if (!container) return null;
  const clickable = (node: DomElement): boolean =>
    shown(node) &&
    (/^(?:BUTTON|A|SUMMARY|H1|H2|H3|H4|H5|H6)$/.test(node.tagName) ||
      /^(?:button|tab|treeitem|link|menuitem)$/.test(node.getAttribute('role') ?? '') ||
      node.hasAttribute('aria-expanded') ||
      window.getComputedStyle(node).cursor === 'pointer' ||
      /toggle|header|trigger|folder|expand|caret|title/i.test(node.getAttribute('class') ?? ''));
  if (container.id) {
    const id = container.id.replace(/["\\]/g, '\\$&');
    const controls = Array.from(
      document.querySelectorAll(
        `[aria-controls~="${id}"], a[href="#${id}"], [data-target="#${id}"], [data-bs-target="#${id}"]`,
      ),
    ).find(shown);
    if (controls) return controls;
  }
  for (const id of (container.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) {
    const label = document.getElementById(id);
    if (label && shown(label) && !label.contains(container)) return label;
  }
  // The header right before the folded part: an accordion's heading, a tree's folder name.
  for (let node = container.previousElementSibling; node; node = node.previousElementSibling) {
    if (hiddenItself(node)) continue;
    if (clickable(node)) return node;
    const inner = Array.from(node.querySelectorAll('button, a, [role=button], [aria-expanded]')).find(shown);
    if (inner) return inner;
    break;
  }
  return null;
}
