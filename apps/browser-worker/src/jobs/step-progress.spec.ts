import { describe, expect, it } from '@jest/globals';
import { StepProgressTracker } from './step-progress.js';

describe('StepProgressTracker', () => {
  it('turns a step’s started and ended log entries into progress with its text and timings', () => {
    const tracker = new StepProgressTracker();
    const started = tracker.observe({
      outcome: 'started',
      step: 1,
      action: 'click',
      message: 'click "Sign in"',
      time: '2026-01-01T00:00:00.000Z',
    });
    expect(started).toEqual({
      index: 1,
      count: null,
      text: 'click "Sign in"',
      action: 'click',
      status: 'started',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      durationMs: null,
      error: null,
    });
    const ended = tracker.observe({
      outcome: 'failed',
      step: 1,
      action: 'click',
      message: 'no element named "Sign in"',
      error: 'no element named "Sign in"',
      durationMs: 1500,
      time: '2026-01-01T00:00:01.500Z',
    });
    expect(ended).toMatchObject({
      index: 1,
      text: 'click "Sign in"',
      status: 'failed',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.500Z',
      durationMs: 1500,
      error: 'no element named "Sign in"',
    });
  });

  it('shows a skipped step, which never started, with the text its entry carries', () => {
    const tracker = new StepProgressTracker();
    expect(
      tracker.observe({
        outcome: 'skipped',
        step: 3,
        action: 'assert_text',
        message: 'The page contains "x"',
      }),
    ).toMatchObject({ index: 3, status: 'skipped', text: 'The page contains "x"', startedAt: null });
  });

  it('ignores entries that are not about a step, and counts steps once an entry says how many', () => {
    const tracker = new StepProgressTracker();
    expect(tracker.observe({ outcome: 'info', message: 'parsed 2 steps', stepCount: 2 })).toBeUndefined();
    expect(tracker.observe({ outcome: 'info', step: 1, message: 'ambiguous' })).toBeUndefined();
    expect(
      tracker.observe({ outcome: 'started', step: 1, action: 'navigate', message: 'Open /' })?.count,
    ).toBe(2);
  });
});
