import { type MaskToken, quotedValue, TOKEN_PATTERN, unmask } from './masked-text.js';
import type { StepBody, Target } from './step-types.js';

/**
 * Adding to a to-do list, as people write it for TodoMVC-style apps: "Add a todo "one"", "add
 * "Buy bread" and "Clean kitchen"", "I add the todos "Read", "Write" and "Sleep"", "Create a new
 * todo called alpha", "Add "x1" and "x2" as todos", "add todo "Taxes"". Each item is typed into
 * the new-item field and submitted with Enter, one step per item, as a person adds them.
 *
 * The field is named "new todo": TodoMVC's `input.new-todo` (the locator reads ids and classes
 * word by word), or a field labelled or placeholdered so. Also "Write "Go to gym" and do enter":
 * typing where the caret is, then Enter.
 */

const Q = TOKEN_PATTERN.replace('[qu]', 'q');
const LIST = `${Q}(?:\\s*,\\s*${Q})*(?:\\s*,?\\s+and\\s+${Q})?`;
const NOUN = '(?:todos?|to-dos?|tasks?|items?|entry|entries)';
const TO_LIST = `(?:\\s+(?:to|in|into|on)\\s+(?:the|my|your)\\s+(?:list|to-?do(?:s|\\s+list)?|tasks?(?:\\s+list)?))?`;
const ENTER = '(?:\\s+(?:and|then)\\s+(?:press|hit|do|push)\\s+(?:the\\s+)?(?:enter|return)(?:\\s+key)?)?';

const NEW_ITEM: Target = { name: 'new todo', role: 'textbox' };

/** "Add (a new) todo(s) (called) X, Y and Z (to the list)", "Create a new todo called alpha". */
const WITH_NOUN_RE = new RegExp(
  `^(?:add|create|enter|insert|put|write|type|make)\\s+(?:(?:a|an|the|one|two|three|four|some)\\s+)?(?:new\\s+)?${NOUN}(?:\\s+(?:called|named|titled|saying|with\\s+the\\s+(?:text|title|name)))?\\s*:?\\s+(${LIST}|[a-z][\\w'-]*(?:\\s+[a-z][\\w'-]*){0,3})${TO_LIST}${ENTER}$`,
  'i',
);
/** "Add "x1" and "x2" (as todos) (to the list)": `add` with quoted items only. */
const BARE_ADD_RE = new RegExp(
  `^add\\s+(${LIST})(?:\\s+as\\s+(?:a\\s+)?(?:new\\s+)?${NOUN})?${TO_LIST}${ENTER}$`,
  'i',
);
/** "Write "Go to gym" and do enter": type where the caret is, then Enter. */
const TYPE_AND_ENTER_RE = new RegExp(
  `^(?:write|type|enter|input|put)\\s+(${Q})\\s+(?:and|then)\\s+(?:do|push|give|hit|press)\\s+(?:an?\\s+|the\\s+)?(?:enter|return)(?:\\s+key)?$`,
  'i',
);

function items(list: string, tokens: readonly MaskToken[]): string[] | undefined {
  const quoted = list.match(new RegExp(Q, 'g'));
  if (quoted) {
    const values = quoted.map((token) => quotedValue(token, tokens));
    return values.every((value): value is string => value !== undefined && value.trim() !== '')
      ? values
      : undefined;
  }
  const bare = unmask(list, tokens).trim();
  return bare ? [bare] : undefined;
}

/** The steps that add each item, or undefined when `s` is not about adding to-dos. */
export function todoSteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const typed = TYPE_AND_ENTER_RE.exec(s);
  if (typed?.[1]) {
    const value = quotedValue(typed[1], tokens);
    return value === undefined ? undefined : [{ action: 'type', value, submit: true }];
  }
  const match = WITH_NOUN_RE.exec(s) ?? BARE_ADD_RE.exec(s);
  if (!match?.[1]) return undefined;
  const values = items(match[1], tokens);
  if (!values) return undefined;
  return values.map((value) => ({ action: 'type', value, target: NEW_ITEM, submit: true }));
}

/** "The list should only have "Milk"", "the list contains only "A" and "B"". */
const LIST_ONLY_RE = new RegExp(
  `^(?:(?:the|my|your)\\s+)?(?:to-?do\\s+|task\\s+|shopping\\s+)?(?:list|to-?dos|tasks|items)\\s+(?:(?:should|must|will|does|do)\\s+)?(?:now\\s+)?(?:(?:only|just)\\s+(?:has|have|contains?|shows?|lists?|holds?|includes?|be)|(?:has|have|contains?|shows?|lists?|holds?|includes?|is|are)\\s+(?:only|just))\\s+(${LIST})$`,
  'i',
);
/** "Only "Milk" is left in the list", "only "A" and "B" remain". */
const ONLY_LEFT_RE = new RegExp(
  `^only\\s+(${LIST})\\s+(?:is|are|remains?|stays?|should\\s+(?:be|remain|stay))(?:\\s+(?:left|remaining|listed|shown))?(?:\\s+(?:in|on)\\s+the\\s+(?:to-?do\\s+)?list)?$`,
  'i',
);
/** "The only todo (left) is "Milk"". */
const THE_ONLY_RE = new RegExp(
  `^the\\s+only\\s+(?:todo|to-do|item|task|entry)(?:\\s+(?:left|remaining|in\\s+the\\s+list))?\\s+(?:is|should\\s+be|must\\s+be)\\s+(${Q})$`,
  'i',
);

/** "The list has "Milk"", "the todo list should contain "A" and "B"". */
const LIST_HAS_RE = new RegExp(
  `^(?:(?:the|my|your)\\s+)?(?:to-?do\\s+|task\\s+|shopping\\s+)?list\\s+(?:(?:should|must|will|does)\\s+)?(?:now\\s+)?(?:still\\s+)?(?:has|have|contains?|shows?|lists?|holds?|includes?)\\s+(${LIST})$`,
  'i',
);

/**
 * A list that holds the items named ("has"): each one is shown; or only them ("only has"): as
 * many items as named are shown in the page's content (filters, menus and footers left out), and
 * each one named is shown. Undefined when `s` says
 * something else.
 */
export function listOnlySteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const has = LIST_HAS_RE.exec(s);
  if (has?.[1] && new RegExp(Q).test(has[1])) {
    const named = items(has[1], tokens);
    return named?.map((name): StepBody => ({ action: 'assertState', target: { name }, state: 'visible' }));
  }
  const match = LIST_ONLY_RE.exec(s) ?? ONLY_LEFT_RE.exec(s) ?? THE_ONLY_RE.exec(s);
  if (!match?.[1] || !new RegExp(Q).test(match[1])) return undefined;
  const values = items(match[1], tokens);
  if (!values) return undefined;
  return [
    { action: 'assertCount', target: { name: '', role: 'listitem' }, count: values.length, comparison: 'eq' },
    ...values.map((name): StepBody => ({ action: 'assertState', target: { name }, state: 'visible' })),
  ];
}
