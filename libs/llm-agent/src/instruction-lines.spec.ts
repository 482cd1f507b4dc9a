import { describe, expect, it } from '@jest/globals';
import { interpretQuery, type Step } from '@suite/browser-agent';
import { planToolCall } from './agent-tools.js';
import { instructionFor, type ScriptElement } from './instruction-lines.js';

const ELEMENTS: Record<string, ScriptElement> = {
  e1: { role: 'textbox', name: 'Email' },
  e2: { role: 'button', name: 'Sign in' },
  e3: { role: 'combobox', name: 'Color' },
  e4: { role: 'checkbox', name: 'Remember me' },
  e5: { role: 'link', name: 'Say "hi"' },
  e6: { role: 'generic', name: 'Box' },
};

function line(name: string, args: Record<string, unknown>): string | undefined {
  const plan = planToolCall(name, args, 1);
  if (plan.kind !== 'step') throw new Error(`not a step: ${name}`);
  const ref = typeof args.ref === 'string' ? args.ref : undefined;
  return instructionFor(plan.step, ref ? ELEMENTS[ref] : undefined);
}

describe('instructionFor', () => {
  it('writes lines the instruction interpreter parses back into the same actions', () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['navigate', { url: 'http://127.0.0.1:3000/login' }],
      ['type', { ref: 'e1', text: 'ada@example.com' }],
      ['select_option', { ref: 'e3', option: 'Blue' }],
      ['set_checked', { ref: 'e4', checked: true }],
      ['press_key', { key: 'Enter' }],
      ['hover', { ref: 'e5' }],
      ['click', { ref: 'e2' }],
      ['scroll', { direction: 'down', pixels: 300 }],
      ['wait_for_text', { text: 'Saved' }],
      ['assert_text', { text: 'Welcome' }],
      ['assert_text', { text: 'Error', negate: true }],
      ['assert_title', { expected: 'Dashboard', mode: 'equals' }],
      ['assert_url', { expected: '/dashboard', mode: 'endsWith' }],
      ['assert_value', { ref: 'e1', expected: 'ada@example.com', mode: 'equals' }],
      ['assert_state', { ref: 'e4', state: 'checked' }],
    ];
    const lines = calls.map(([name, args]) => line(name, args));
    expect(lines).not.toContain(undefined);
    const parsed = interpretQuery(lines.join('\n'));
    expect(parsed.ok ? [] : parsed.unknown).toEqual([]);
    expect(parsed.steps.map((s: Step) => s.action)).toEqual([
      'navigate',
      'type',
      'select',
      'check',
      'press',
      'hover',
      'click',
      'scroll',
      'waitForText',
      'assertText',
      'assertText',
      'assertTitle',
      'assertUrl',
      'assertValue',
      'assertState',
    ]);
    expect(parsed.steps[1]).toMatchObject({
      target: { name: 'Email', role: 'textbox' },
      value: 'ada@example.com',
    });
    expect(parsed.steps[5]).toMatchObject({ target: { name: 'Say "hi"', role: 'link' } });
    expect(parsed.steps[6]).toMatchObject({ target: { name: 'Sign in', role: 'button' } });
    expect(parsed.steps[12]).toMatchObject({ mode: 'endsWith', expected: '/dashboard' });
  });

  it('refuses what it cannot say exactly', () => {
    expect(line('click', { ref: 'e6' })).toBeUndefined();
    expect(line('assert_url', { expected: '^/x$', mode: 'matches' })).toBeUndefined();
    expect(line('assert_value', { ref: 'e1', expected: 'a' })).toBeUndefined();
  });
});
