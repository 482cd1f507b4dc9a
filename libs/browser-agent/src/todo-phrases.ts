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
