import { describe, expect, it } from '@jest/globals';
import { planToolCall } from './agent-tools.js';
import { retryAfterMs } from './llm-provider.js';

describe('planToolCall', () => {
  it('turns a ref into a target the interpreter locates by CSS', () => {
    expect(planToolCall('click', { ref: 'e3' }, 1)).toEqual({
      kind: 'step',
      ref: 'e3',
      step: {
        index: 1,
        text: 'click {"ref":"e3"}',
        action: 'click',
        target: { name: '[data-agent-ref="e3"]' },
        clickCount: 1,
        button: 'left',
      },
    });
  });

  it('maps assertions with their defaults and key chords', () => {
    const plan = planToolCall('assert_url', { expected: '/welcome' }, 2);
    expect(plan.kind === 'step' && plan.step).toMatchObject({
      action: 'assertUrl',
      mode: 'contains',
      negate: false,
    });
    const press = planToolCall('press_key', { key: 'Control+A' }, 3);
    expect(press.kind === 'step' && press.step).toMatchObject({ action: 'press', keys: ['Control', 'a'] });
  });

  it('says what is wrong with invalid arguments', () => {
    expect(planToolCall('type', { ref: 'e1' }, 1)).toEqual({
      kind: 'invalid',
      error: 'invalid arguments for type: "text" must be a string',
    });
    expect(planToolCall('assert_state', { ref: 'e1', state: 'shiny' }, 1)).toMatchObject({
      kind: 'invalid',
      error: expect.stringContaining('"state" must be one of visible, hidden'),
    });
    expect(planToolCall('done', { passed: 'yes', summary: 's' }, 1)).toMatchObject({ kind: 'invalid' });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
