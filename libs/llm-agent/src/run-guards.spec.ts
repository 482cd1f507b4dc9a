import { describe, expect, it } from '@jest/globals';
import { RunStoppedError } from '@suite/browser-agent';
import { resolveLlmLimits } from './llm-limits.js';
import { RunEvidence } from './llm-verdict.js';
import { RunEnded, RunGuards } from './run-guards.js';

const LIMITS = resolveLlmLimits({ maxConsecutiveErrors: 2, maxRepeatedActions: 1, maxSteps: 7 });

describe('RunGuards', () => {
  it('ends the run at the limit of failed calls in a row; a success starts the count again', () => {
    const guards = new RunGuards(LIMITS);
    guards.failed('first');
    guards.succeeded();
    guards.failed('second');
    expect(() => guards.failed('no tool "x"')).toThrow(
      new RunEnded(
        'consecutive errors',
        'The agent stopped after 2 failed tool calls in a row (limit 2); the last one: no tool "x".',
      ),
    );
  });

  it('ends the run when the very same call repeats on an unchanged page, not when the page changed', () => {
    const guards = new RunGuards(LIMITS);
    const call = { name: 'click', arguments: { ref: 'e1' } };
    guards.checkRepeat(call, 'http://a.test/');
    guards.checkRepeat(call, 'http://a.test/next');
    expect(() => guards.checkRepeat(call, 'http://a.test/next')).toThrow(
      'The agent repeated the same action (click {"ref":"e1"}) 2 times in a row on an unchanged page (limit 1).',
    );
  });

  it('names the step limit and turns a stopped run into its end reason and sentence', () => {
    expect(new RunGuards(LIMITS).stepLimit()).toMatchObject({
      reason: 'step limit',
      message: 'The agent did not finish within 7 steps (step limit of 7).',
    });
    expect(RunEnded.stopped(new RunStoppedError('cancelled', 'the run was cancelled'))).toMatchObject({
      reason: 'cancelled',
      message: 'The run was cancelled.',
    });
  });
});

describe('RunEvidence', () => {
  it('passes only on the model’s word backed by a held assertion', () => {
    const evidence = new RunEvidence();
    evidence.step(false, undefined);
    expect(evidence.verdict(true, 'Looks fine.')).toEqual({
      verdict: 'failed',
      summary:
        "The agent said the test passed but made no assertion, so nothing was verified. Agent's summary: Looks fine.",
    });
    evidence.step(true, undefined);
    expect(evidence.verdict(true, 'Signed in. ')).toEqual({
      verdict: 'succeeded',
      summary: 'Signed in (1 assertion held).',
    });
    expect(evidence.verdict(false, 'Broken')).toEqual({
      verdict: 'failed',
      summary: 'The agent reported the test failed: Broken.',
    });
  });

  it('fails on a failed assertion or an unrecovered failed step, whatever the model says', () => {
    const assertion = new RunEvidence(1);
    assertion.step(true, 'expected "Hi" but it is not present');
    assertion.step(false, undefined);
    expect(assertion.verdict(true, 'ok').summary).toBe(
      `The agent said the test passed, but 1 assertion failed: expected "Hi" but it is not present. Agent's summary: ok.`,
    );
    const action = new RunEvidence(1);
    action.step(false, 'no element has the ref e9');
    expect(action.verdict(true, 'ok').summary).toBe(
      "The agent said the test passed, but its last action failed: no element has the ref e9. Agent's summary: ok.",
    );
    action.step(false, undefined);
    expect(action.verdict(true, 'ok').verdict).toBe('succeeded');
  });
});
