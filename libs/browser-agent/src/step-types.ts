/**
 * Roles a person can name ("the Submit button", "the email field"). They are ARIA role names; the
 * locator widens some of them to their family (a "field" may be a searchbox or a spinbutton).
 */
export type TargetRole =
  | 'button'
  | 'link'
  | 'textbox'
  | 'checkbox'
  | 'radio'
  | 'combobox'
  | 'heading'
  | 'img'
  | 'tab'
  | 'menuitem'
  | 'switch'
  | 'option'
  | 'listitem'
  | 'row'
  | 'cell'
  | 'dialog'
  | 'columnheader'
  | 'slider'
  | 'spinbutton'
  | 'searchbox'
  | 'listbox'
  | 'menu'
  | 'treeitem'
  | 'table'
  /** Not an ARIA role: a rich-text editor or any contenteditable region ("the comment editor"). */
  | 'editor';

/** An element as a person names it. `name` may be empty when only the role is known ("the heading"). */
export interface Target {
  name: string;
  role?: TargetRole;
  /** 1-based position among the matches ("the second link"); -1 means the last one. */
  nth?: number;
  /**
   * Text the element sits next to ("the checkbox next to 'Buy milk'", "Edit in the row with 'Ada'"):
   * the element is looked for in the smallest container (list item, table row, card) holding it.
   */
  near?: string;
  /**
   * The element, or the text it sits next to, may be on a later page of a paged list ("Find Ada in
   * the contact book and click their phone number"): the pager is followed until the page shows it.
   */
  paged?: true;
  /** The row the element is in, by position ("the archive button in the last row"); -1 is the last. */
  inRow?: number;
  /**
   * Every match, not one ("click Reply on every post", "both fields"): the step acts on each in
   * document order and fails when there is none. Never combined with `nth`.
   */
  all?: boolean;
  /** With `all`: how many matches the words promise ("both fields": 2); another number fails the step. */
  count?: number;
  /** With `all`: act on the first this many matches only ("Retweet on 2 posts by @ada"); fewer fails. */
  first?: number;
  /**
   * An option the element offers (set by a select step: "choose 5ft 9in from the dropdown" means
   * the dropdown that has it): among equally good matches, one that lists it wins.
   */
  holding?: string;
  /** The colour it is drawn in ("the red box", "the green button"): a colour word. */
  color?: string;
  /** Names tried in order when `name` finds nothing ("delete the account": "Delete account", …). */
  alsoNamed?: string[];
  /** Only a control counts (button, link, tab, menu or tree item, switch), whatever its role. */
  control?: boolean;
}

export type MatchMode = 'equals' | 'contains' | 'startsWith' | 'endsWith' | 'matches';

export type ElementState =
  | 'visible'
  | 'hidden'
  | 'enabled'
  | 'disabled'
  | 'checked'
  | 'unchecked'
  | 'focused'
  | 'empty'
  | 'editable'
  | 'readonly'
  | 'expanded'
  | 'collapsed'
  | 'bold'
  | 'italic';

export type CountComparison = 'eq' | 'gte' | 'lte' | 'gt' | 'lt';

interface StepBase {
  /** 1-based position of the step in the query, as people count them ("step 3"). */
  index: number;
  /** The step as the user wrote it. */
  text: string;
}

interface WaitingAssertion {
  /** Set by "wait until …": keep retrying up to the action timeout instead of the assertion timeout. */
  patient?: boolean;
  /** Set by "wait up to N seconds until …": how long the assertion may keep retrying. */
  timeoutMs?: number;
}

export interface NavigateStep extends StepBase {
  action: 'navigate';
  /** Absolute URL, or a path ("/login") resolved against the current page when the step runs. */
  url: string;
}
export interface GoBackStep extends StepBase {
  action: 'goBack';
}
export interface GoForwardStep extends StepBase {
  action: 'goForward';
}
export interface ReloadStep extends StepBase {
  action: 'reload';
}
export interface ClickStep extends StepBase {
  action: 'click';
  target: Target;
  clickCount: 1 | 2;
  button: 'left' | 'right';
  /** Menu items opened first, in order ("Open File > Export > PDF": File, then Export). */
  menuPath?: string[];
  /** A column header clicked until the column sorts this way ("sort by Name descending"). */
  sort?: 'ascending' | 'descending';
  /**
   * "Expand src", "collapse Docs": the state the click is for. Nothing is clicked when the element
   * is already so; when a click does not change it, the tree's own keys (→ / ←) are tried.
   */
  ensure?: 'expanded' | 'collapsed';
}
export interface TypeStep extends StepBase {
  action: 'type';
  /** Without a target the text goes to whatever has focus. With one, the field's content is replaced. */
  target?: Target;
  value: string;
  /** Without a target: replace the focused field's text ("change it to …") instead of adding to it. */
  replace?: boolean;
  /** Press Enter after typing, to submit it ("Search for 'Hello'"). */
  submit?: boolean;
  /** Replace only this text within the field or editor ("Replace 'Hello World' with 'Hi'"). */
  find?: string;
  /** Type the value an earlier `readValue` step kept under this name (`value` is then empty). */
  valueFrom?: string;
  /** Applied to the `valueFrom` value when the step runs ("… in upper case"). */
  transforms?: TextTransform[];
}

/** What "in lower case", "without spaces", "reversed", "trimmed" do to a text. */
/** `word:N`: the Nth word (1-based; -1 the last), as in "the 3rd word in the paragraph". */
export type TextTransform =
  'lowercase' | 'uppercase' | 'noSpaces' | 'reversed' | 'trimmed' | `word:${number}`;

/**
 * Reads a value from the page for later steps ("remember the order number as ORDER", "copy the
 * text in the textarea", "the value of Color from the table"): a field's value, an element's text,
 * or the cell a table's row or column heading names.
 */
export interface ReadValueStep extends StepBase {
  action: 'readValue';
  /** The element whose value (a field) or text (after its own label, if it starts with it) is read. */
  target?: Target;
  /** Instead of `target`: a table row or column heading (or a `<dt>`); the cell beside or under it. */
  label?: string;
  /** What later steps call it ("ORDER"; "clipboard" for copy and paste). */
  name: string;
  transforms?: TextTransform[];
}
export interface ClearStep extends StepBase {
  action: 'clear';
  target: Target;
}
export interface PressStep extends StepBase {
  action: 'press';
  /** Puppeteer key names; more than one is a chord held together ("Control", "a"). */
  keys: string[];
  repeat: number;
  target?: Target;
}
export interface SelectStep extends StepBase {
  action: 'select';
  target: Target;
  option: string;
}
export interface CheckStep extends StepBase {
  action: 'check' | 'uncheck';
  target: Target;
}
export interface HoverStep extends StepBase {
  action: 'hover';
  target: Target;
}
/**
 * "Drag Item 3 to the 1st position", "drag the card onto Done": pressed on the target, moved, let
 * go over the drop place (an element, or a position among the items of the target's own list).
 */
export interface DragStep extends StepBase {
  action: 'drag';
  target: Target;
  /** Dropped onto this element. */
  to?: Target;
  /** Dropped at this place (1-based; -1 the last) among the items of the target's list. */
  toPosition?: number;
}
/**
 * "Upload a file named "cv.pdf"", "attach notes.txt as the CV": a file of that name, made up by the
 * runner (never read from the machine), is put into the file input.
 */
export interface UploadStep extends StepBase {
  action: 'upload';
  fileName: string;
  /** The file input or what names it ("Attach your CV"); the page's one file input when left out. */
  target?: Target;
}
/**
 * "Resize the textarea so that it is narrower", "make the Notes box taller by dragging its
 * corner": the element's resize handle (its bottom-right corner) is dragged that way.
 */
export interface ResizeStep extends StepBase {
  action: 'resize';
  target: Target;
  /** Which size changes. */
  dimension: 'width' | 'height' | 'both';
  grow: boolean;
}
export interface FocusStep extends StepBase {
  action: 'focus';
  target: Target;
}
export interface ScrollStep extends StepBase {
  action: 'scroll';
  direction: 'up' | 'down' | 'top' | 'bottom';
  /** Only for up/down; without it the page moves by most of a screen. */
  pixels?: number;
  /** What scrolls ("scroll the text area to the bottom"); the page when left out. */
  target?: Target;
}
export interface ScrollToStep extends StepBase {
  action: 'scrollTo';
  target: Target;
}
export interface SubmitStep extends StepBase {
  action: 'submit';
}
export interface WaitStep extends StepBase {
  action: 'wait';
  ms: number;
}
export interface WaitForTextStep extends StepBase {
  action: 'waitForText';
  expected: string;
  state: 'visible' | 'hidden';
  timeoutMs?: number;
}
export interface WaitForElementStep extends StepBase {
  action: 'waitForElement';
  target: Target;
  state: 'visible' | 'hidden';
  timeoutMs?: number;
}
export interface WaitForLoadStep extends StepBase {
  action: 'waitForLoad';
  timeoutMs?: number;
}
export interface AssertTextStep extends StepBase, WaitingAssertion {
  action: 'assertText';
  expected: string;
  negate: boolean;
  /**
   * "The page says X": when X ends in a list, the page does not go on with more of it ("You
   * picked: Apple, Kiwi" is not said by "You picked: Apple, Kiwi, Plum"); see `saysWhole`.
   */
  whole?: boolean;
  /**
   * "It should thank Grace for notes.txt": the words are said in other words, so the check is that
   * one element of the page says every word of `expected` (a word may end differently: "thank"
   * is in "Thanks"), in any order.
   */
  words?: boolean;
}
export interface AssertTitleStep extends StepBase, WaitingAssertion {
  action: 'assertTitle';
  mode: MatchMode;
  expected: string;
  negate: boolean;
}
export interface AssertUrlStep extends StepBase, WaitingAssertion {
  action: 'assertUrl';
  mode: MatchMode;
  expected: string;
  negate: boolean;
}
export interface AssertStateStep extends StepBase, WaitingAssertion {
  action: 'assertState';
  target: Target;
  state: ElementState;
}
export interface AssertValueStep extends StepBase, WaitingAssertion {
  action: 'assertValue';
  target: Target;
  mode: MatchMode;
  expected: string;
  negate: boolean;
}
export interface AssertElementTextStep extends StepBase, WaitingAssertion {
  action: 'assertElementText';
  target: Target;
  mode: MatchMode;
  expected: string;
  negate: boolean;
}
export interface AssertCountStep extends StepBase, WaitingAssertion {
  action: 'assertCount';
  target: Target;
  count: number;
  comparison: CountComparison;
}

/**
 * What a table or grid assertion checks. Rows are data rows only: never header rows, hidden rows,
 * "no results" placeholder rows or rows of another table. Row positions are 1-based; -1 is the last.
 */
export type TableCheck =
  | { kind: 'rowCount'; count: number; comparison: CountComparison }
  | { kind: 'cell'; row: number; column: string; mode: MatchMode; expected: string; negate: boolean }
  | { kind: 'row'; row: number; mode: MatchMode; expected: string; negate: boolean }
  /** Every value is in some data row ("shows Ada and Grace"); negated: none of them is. */
  | { kind: 'shows'; values: string[]; negate: boolean }
  | { kind: 'column'; column: string; mode: MatchMode; expected: string; negate: boolean }
  /** `either`: "sorted by Name" holds ascending, or descending when the header says so. */
  | { kind: 'sorted'; column: string; direction: 'ascending' | 'descending' | 'either' }
  | { kind: 'empty'; negate: boolean }
  | { kind: 'page'; page: number; of?: number };

export interface AssertTableStep extends StepBase, WaitingAssertion {
  action: 'assertTable';
  /** The table as named ("the Users table"); empty: the one data table or grid on the page. */
  table: string;
  check: TableCheck;
}

export type AssertionStep =
  | AssertTableStep
  | AssertTextStep
  | AssertTitleStep
  | AssertUrlStep
  | AssertStateStep
  | AssertValueStep
  | AssertElementTextStep
  | AssertCountStep;

export type Step =
  | NavigateStep
  | GoBackStep
  | GoForwardStep
  | ReloadStep
  | ClickStep
  | TypeStep
  | ClearStep
  | PressStep
  | SelectStep
  | CheckStep
  | HoverStep
  | DragStep
  | UploadStep
  | ResizeStep
  | FocusStep
  | ScrollStep
  | ScrollToStep
  | SubmitStep
  | WaitStep
  | WaitForTextStep
  | WaitForElementStep
  | WaitForLoadStep
  | ReadValueStep
  | AssertionStep;

export type StepAction = Step['action'];

/** Steps without the bookkeeping fields, as the phrase rules build them. */
export type StepBody = Step extends infer S ? (S extends Step ? Omit<S, 'index' | 'text'> : never) : never;

const ASSERTION_ACTIONS: ReadonlySet<StepAction> = new Set([
  'assertText',
  'assertTitle',
  'assertUrl',
  'assertState',
  'assertValue',
  'assertElementText',
  'assertCount',
  'assertTable',
]);

export function isAssertion(step: Step): step is AssertionStep {
  return ASSERTION_ACTIONS.has(step.action);
}

/** The element a step acts on or asserts about, if it names one. */
export function targetOf(step: Step): Target | undefined {
  return 'target' in step ? step.target : undefined;
}
