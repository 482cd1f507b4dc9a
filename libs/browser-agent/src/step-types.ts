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
  | 'dialog';

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
  /** The row the element is in, by position ("the archive button in the last row"); -1 is the last. */
  inRow?: number;
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
  | 'readonly';

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
}
export interface TypeStep extends StepBase {
  action: 'type';
  /** Without a target the text goes to whatever has focus. With one, the field's content is replaced. */
  target?: Target;
  value: string;
  /** Without a target: replace the focused field's text ("change it to …") instead of adding to it. */
  replace?: boolean;
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
export interface FocusStep extends StepBase {
  action: 'focus';
  target: Target;
}
export interface ScrollStep extends StepBase {
  action: 'scroll';
  direction: 'up' | 'down' | 'top' | 'bottom';
  /** Only for up/down; without it the page moves by most of a screen. */
  pixels?: number;
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

export type AssertionStep =
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
  | FocusStep
  | ScrollStep
  | ScrollToStep
  | SubmitStep
  | WaitStep
  | WaitForTextStep
  | WaitForElementStep
  | WaitForLoadStep
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
]);

export function isAssertion(step: Step): step is AssertionStep {
  return ASSERTION_ACTIONS.has(step.action);
}

/** The element a step acts on or asserts about, if it names one. */
export function targetOf(step: Step): Target | undefined {
  return 'target' in step ? step.target : undefined;
}
