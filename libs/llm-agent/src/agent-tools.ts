import { type ElementState, type MatchMode, parseKeys, type Step, type Target } from '@suite/browser-agent';
import type { ToolDefinition } from './llm-provider.js';
import { refSelector } from './page-snapshot.js';

const REF = { type: 'string', description: 'The element ref from the latest snapshot, e.g. "e3".' };
const MODE = {
  type: 'string',
  enum: ['equals', 'contains', 'startsWith', 'endsWith', 'matches'],
  description:
    'How to compare; default "contains". "matches" takes a regular expression in RE2 syntax, ' +
    'written /source/flags (flags i, m, s); lookahead, lookbehind and backreferences are not supported.',
};
const NEGATE = { type: 'boolean', description: 'Assert the opposite (default false).' };
const STATES: ElementState[] = [
  'visible',
  'hidden',
  'enabled',
  'disabled',
  'checked',
  'unchecked',
  'focused',
  'empty',
  'editable',
  'readonly',
  'expanded',
  'collapsed',
  'bold',
  'italic',
];

function tool(
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[] = [],
) {
  return {
    name,
    description,
    parameters: { type: 'object', properties, required, additionalProperties: false },
  } satisfies ToolDefinition;
}

export const AGENT_TOOLS: readonly ToolDefinition[] = [
  tool(
    'navigate',
    'Open a URL (absolute, or a path relative to the current page).',
    { url: { type: 'string' } },
    ['url'],
  ),
  tool('go_back', 'Go back one page in the browser history.', {}),
  tool('click', 'Click an element.', { ref: REF, double: { type: 'boolean' } }, ['ref']),
  tool(
    'type',
    'Replace the content of a field with text. Write secrets as their {{secret.NAME}} placeholder.',
    { ref: REF, text: { type: 'string' } },
    ['ref', 'text'],
  ),
  tool(
    'press_key',
    'Press a key or chord ("Enter", "Tab", "Escape", "Control+A"), in an element when a ref is given.',
    { key: { type: 'string' }, ref: REF },
    ['key'],
  ),
  tool(
    'select_option',
    'Choose an option of a dropdown by its label.',
    { ref: REF, option: { type: 'string' } },
    ['ref', 'option'],
  ),
  tool(
    'set_checked',
    'Check or uncheck a checkbox, radio button or switch.',
    { ref: REF, checked: { type: 'boolean' } },
    ['ref', 'checked'],
  ),
  tool('hover', 'Move the mouse over an element.', { ref: REF }, ['ref']),
  tool(
    'scroll',
    'Scroll the page.',
    { direction: { type: 'string', enum: ['up', 'down', 'top', 'bottom'] }, pixels: { type: 'number' } },
    ['direction'],
  ),
  tool(
    'wait_for_text',
    'Wait until a text appears on the page (or is gone).',
    { text: { type: 'string' }, gone: { type: 'boolean' }, timeout_ms: { type: 'number' } },
    ['text'],
  ),
  tool(
    'assert_text',
    'Assert that the page shows a text (retries briefly).',
    { text: { type: 'string' }, negate: NEGATE },
    ['text'],
  ),
  tool(
    'assert_title',
    "Assert the page's title.",
    { expected: { type: 'string' }, mode: MODE, negate: NEGATE },
    ['expected'],
  ),
  tool('assert_url', "Assert the page's URL.", { expected: { type: 'string' }, mode: MODE, negate: NEGATE }, [
    'expected',
  ]),
  tool(
    'assert_element_text',
    "Assert an element's visible text.",
    { ref: REF, expected: { type: 'string' }, mode: MODE, negate: NEGATE },
    ['ref', 'expected'],
  ),
  tool(
    'assert_value',
    "Assert a field's current value.",
    { ref: REF, expected: { type: 'string' }, mode: MODE, negate: NEGATE },
    ['ref', 'expected'],
  ),
  tool('assert_state', "Assert an element's state.", { ref: REF, state: { type: 'string', enum: STATES } }, [
    'ref',
    'state',
  ]),
  tool(
    'done',
    'Finish the test. passed=true only when the assertions you made prove every expectation of the test.',
    { passed: { type: 'boolean' }, summary: { type: 'string' } },
    ['passed', 'summary'],
  ),
];

const TOOL_NAMES = new Set(AGENT_TOOLS.map((t) => t.name));

export function isKnownTool(name: string): boolean {
  return TOOL_NAMES.has(name);
}

/** A tool call turned into the interpreter's step, or why it cannot be. */
export type ToolPlan =
  | { kind: 'step'; step: Step; ref?: string }
  | { kind: 'done'; passed: boolean; summary: string }
  | { kind: 'invalid'; error: string };

class ArgumentError extends Error {}

function str(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '')
    throw new ArgumentError(`"${key}" must be a non-empty string`);
  return value;
}
function optStr(args: Record<string, unknown>, key: string): string | undefined {
  return args[key] === undefined || args[key] === null ? undefined : str(args, key);
}
function bool(args: Record<string, unknown>, key: string, fallback?: boolean): boolean {
  const value = args[key] ?? fallback;
  if (typeof value !== 'boolean') throw new ArgumentError(`"${key}" must be true or false`);
  return value;
}
function optNum(args: Record<string, unknown>, key: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new ArgumentError(`"${key}" must be a non-negative number`);
  return value;
}
function oneOf<T extends string>(
  args: Record<string, unknown>,
  key: string,
  values: readonly T[],
  fallback?: T,
): T {
  const value = args[key] ?? fallback;
  if (typeof value !== 'string' || !values.includes(value as T))
    throw new ArgumentError(`"${key}" must be one of ${values.join(', ')}`);
  return value as T;
}

const MODES: MatchMode[] = ['equals', 'contains', 'startsWith', 'endsWith', 'matches'];

/** Turns one tool call into a step; `index` numbers it among the run's steps. */
export function planToolCall(name: string, args: Record<string, unknown>, index: number): ToolPlan {
  try {
    const base = { index, text: `${name} ${JSON.stringify(args)}` };
    const refTarget = (): { target: Target; ref: string } => {
      const ref = str(args, 'ref');
      return { target: { name: refSelector(ref) }, ref };
    };
    switch (name) {
      case 'done':
        return { kind: 'done', passed: bool(args, 'passed'), summary: str(args, 'summary') };
      case 'navigate':
        return { kind: 'step', step: { ...base, action: 'navigate', url: str(args, 'url') } };
      case 'go_back':
        return { kind: 'step', step: { ...base, action: 'goBack' } };
      case 'click': {
        const { target, ref } = refTarget();
        const double = bool(args, 'double', false);
        return {
          kind: 'step',
          ref,
          step: { ...base, action: 'click', target, clickCount: double ? 2 : 1, button: 'left' },
        };
      }
      case 'type': {
        const { target, ref } = refTarget();
        const text = args.text;
        if (typeof text !== 'string') throw new ArgumentError('"text" must be a string');
        return { kind: 'step', ref, step: { ...base, action: 'type', target, value: text } };
      }
      case 'press_key': {
        const key = str(args, 'key');
        const keys = parseKeys(key) ?? (/^[\x20-\x7e]$/.test(key) ? [key] : undefined);
        if (!keys) throw new ArgumentError(`"${key}" is not a key name (try Enter, Tab, Escape, Control+A)`);
        const ref = optStr(args, 'ref');
        return {
          kind: 'step',
          ...(ref ? { ref } : {}),
          step: {
            ...base,
            action: 'press',
            keys,
            repeat: 1,
            ...(ref ? { target: { name: refSelector(ref) } } : {}),
          },
        };
      }
      case 'select_option': {
        const { target, ref } = refTarget();
        return {
          kind: 'step',
          ref,
          step: { ...base, action: 'select', target, option: str(args, 'option') },
        };
      }
      case 'set_checked': {
        const { target, ref } = refTarget();
        return {
          kind: 'step',
          ref,
          step: { ...base, action: bool(args, 'checked') ? 'check' : 'uncheck', target },
        };
      }
      case 'hover': {
        const { target, ref } = refTarget();
        return { kind: 'step', ref, step: { ...base, action: 'hover', target } };
      }
      case 'scroll': {
        const pixels = optNum(args, 'pixels');
        return {
          kind: 'step',
          step: {
            ...base,
            action: 'scroll',
            direction: oneOf(args, 'direction', ['up', 'down', 'top', 'bottom'] as const),
            ...(pixels !== undefined ? { pixels } : {}),
          },
        };
      }
      case 'wait_for_text': {
        const timeoutMs = optNum(args, 'timeout_ms');
        return {
          kind: 'step',
          step: {
            ...base,
            action: 'waitForText',
            expected: str(args, 'text'),
            state: bool(args, 'gone', false) ? 'hidden' : 'visible',
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          },
        };
      }
      case 'assert_text':
        return {
          kind: 'step',
          step: {
            ...base,
            action: 'assertText',
            expected: str(args, 'text'),
            negate: bool(args, 'negate', false),
          },
        };
      case 'assert_title':
      case 'assert_url':
        return {
          kind: 'step',
          step: {
            ...base,
            action: name === 'assert_title' ? 'assertTitle' : 'assertUrl',
            expected: str(args, 'expected'),
            mode: oneOf(args, 'mode', MODES, 'contains'),
            negate: bool(args, 'negate', false),
          },
        };
      case 'assert_element_text':
      case 'assert_value': {
        const { target, ref } = refTarget();
        return {
          kind: 'step',
          ref,
          step: {
            ...base,
            action: name === 'assert_value' ? 'assertValue' : 'assertElementText',
            target,
            expected: args.expected === '' ? '' : str(args, 'expected'),
            mode: oneOf(args, 'mode', MODES, 'contains'),
            negate: bool(args, 'negate', false),
          },
        };
      }
      case 'assert_state': {
        const { target, ref } = refTarget();
        return {
          kind: 'step',
          ref,
          step: { ...base, action: 'assertState', target, state: oneOf(args, 'state', STATES) },
        };
      }
      default:
        return { kind: 'invalid', error: `there is no tool "${name}"` };
    }
  } catch (error) {
    if (error instanceof ArgumentError)
      return { kind: 'invalid', error: `invalid arguments for ${name}: ${error.message}` };
    throw error;
  }
}
