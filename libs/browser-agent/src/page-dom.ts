/**
 * The slice of the DOM that code evaluated inside the page uses. The package compiles without the
 * DOM lib (it is a Node library, and pulling `lib.dom` in would change globals for every other
 * package type-checked with it), so page-side functions declare these shapes locally instead.
 */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentElement: DomElement | null;
  parentNode: DomNode | null;
  previousSibling?: DomNode | null;
  /** Set on a shadow root: the element it is attached to. */
  host?: DomElement;
}

/** A document or an open shadow root: somewhere to query elements. */
export interface DomRoot extends DomNode {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getElementById(id: string): DomElement | null;
  elementFromPoint?(x: number, y: number): DomElement | null;
  activeElement?: DomElement | null;
}

export interface DomRect {
  x: number;
  y: number;
  width: number;
  height: number;
  top: number;
  left: number;
  right: number;
  bottom: number;
}

export interface DomElement extends DomNode {
  tagName: string;
  id: string;
  children: ArrayLike<DomElement>;
  nextElementSibling?: DomElement | null;
  previousElementSibling?: DomElement | null;
  firstElementChild?: DomElement | null;
  isConnected: boolean;
  innerText?: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  closest(selector: string): DomElement | null;
  matches(selector: string): boolean;
  contains(other: DomElement | null): boolean;
  compareDocumentPosition(other: DomElement): number;
  /** The element's open shadow root, if it has one. */
  shadowRoot?: DomRoot | null;
  getRootNode(): DomRoot;
  /** On a <slot>: the nodes put into it. */
  assignedNodes?(options?: { flatten?: boolean }): DomNode[];
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  getBoundingClientRect(): DomRect;
  checkVisibility?(options?: Record<string, boolean>): boolean;
  scrollIntoView(options?: Record<string, string>): void;
  focus(): void;
  blur(): void;
  click(): void;
  dispatchEvent(event: unknown): boolean;
  appendChild(child: DomElement): void;
  animate?(
    keyframes: Array<Record<string, string | number>>,
    options: Record<string, string | number>,
  ): unknown;
  // Form controls; absent on other elements.
  labels?: ArrayLike<DomElement> | null;
  control?: DomElement | null;
  form?: DomElement | null;
  value?: string;
  type?: string;
  checked?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  multiple?: boolean;
  size?: number;
  isContentEditable?: boolean;
  options?: ArrayLike<DomElement & { selected: boolean; label: string; text: string; value: string }>;
  selectedOptions?: ArrayLike<DomElement & { label: string; text: string }>;
  requestSubmit?(submitter?: DomElement): void;
  select?(): void;
}

export interface DomDocument {
  body: DomElement | null;
  documentElement: DomElement;
  activeElement: DomElement | null;
  title: string;
  readyState: string;
  scrollingElement: DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  getElementById(id: string): DomElement | null;
  elementFromPoint(x: number, y: number): DomElement | null;
  createElement(tag: string): DomElement & { style: DomInlineStyle; innerHTML: string };
  addEventListener(type: string, listener: (event: never) => void, options?: unknown): void;
}

export interface DomInlineStyle {
  cssText: string;
  transform: string;
  display: string;
}

export interface DomStyle {
  visibility: string;
  display: string;
  opacity: string;
  pointerEvents: string;
  cursor?: string;
  overflowX?: string;
  overflowY?: string;
}

export interface DomWindow {
  innerWidth: number;
  innerHeight: number;
  scrollX: number;
  scrollY: number;
  getComputedStyle(element: DomElement): DomStyle;
  scrollBy(options: { top?: number; left?: number; behavior?: string }): void;
  scrollTo(options: { top?: number; left?: number; behavior?: string }): void;
  addEventListener(type: string, listener: (event: never) => void, options?: unknown): void;
  requestAnimationFrame(callback: () => void): number;
  /** The `<iframe>` this window is in (same-origin parents only), or null at the top. */
  frameElement: DomElement | null;
  parent: DomWindow;
}
