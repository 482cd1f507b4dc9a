import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'puppeteer-core';
import { AgentLog, type AgentLogEntry } from './agent-log.js';
import { DEFAULT_LIMITS, type RunLimits } from './run-limits.js';
import { StepExecutor, stepBudgetMs, type StepExecutorOptions } from './step-executor.js';
import type { AssertTitleStep, AssertUrlStep, Step, WaitStep } from './step-types.js';

/** Just what the executor and the wait/URL/title steps touch; `title` can be made to hang forever. */
class FakePage extends EventEmitter {
  constructor(
    public href = 'http://shop.test/cart',
    public title: () => Promise<string> = () => Promise.resolve('Cart'),
  ) {
    super();
  }

  url(): string {
    return this.href;
  }

  asPage(): Page {
    return this as unknown as Page;
  }
}

const LIMITS: RunLimits = { ...DEFAULT_LIMITS, assertionTimeoutMs: 100, jobTimeoutMs: 60_000 };

const wait = (ms: number, index = 1): WaitStep => ({ action: 'wait', ms, index, text: `wait ${ms} ms` });
const urlIs = (expected: string, index = 1): AssertUrlStep => ({
  action: 'assertUrl',
  mode: 'contains',
  expected,
  negate: false,
  index,
  text: `the URL contains "${expected}"`,
});
const titleIs = (expected: string): AssertTitleStep => ({
  action: 'assertTitle',
  mode: 'equals',
  expected,
  negate: false,
  index: 1,
  text: `the title is "${expected}"`,
});

/** The log entries without their time, so they can be compared whole. */
function entries(log: AgentLog): Array<Omit<AgentLogEntry, 'time' | 'durationMs'>> {
  return log.entries.map((entry) => {
    const { time: _time, durationMs: _duration, ...rest } = entry;
    return JSON.parse(JSON.stringify(rest)) as Omit<AgentLogEntry, 'time' | 'durationMs'>;
  });
}

describe('StepExecutor', () => {
  const executors: StepExecutor[] = [];
  async function start(page: FakePage, options: Partial<StepExecutorOptions> = {}) {
    const log = options.log ?? new AgentLog();
    const executor = await StepExecutor.start({ page: page.asPage(), log, limits: LIMITS, ...options });
    executors.push(executor);
    return { executor, log };
  }

  afterEach(async () => {
    await Promise.all(executors.splice(0).map((executor) => executor.close()));
    jest.useRealTimers();
  });

  it('logs a passed step as started then passed, and returns its result with the recorded action', async () => {
    const { executor, log } = await start(new FakePage());
    const { result, said, stopped } = await executor.run(wait(5));
    expect(stopped).toBeUndefined();
    expect(said).toBe('waited 5 ms');
    expect(result).toEqual({
      index: 1,
      text: 'wait 5 ms',
      action: 'wait',
      status: 'passed',
      durationMs: expect.any(Number),
      message: 'waited 5 ms',
      url: 'http://shop.test/cart',
      recorded: { step: { action: 'wait', ms: 5 } },
    });
    expect(entries(log)).toEqual([
      {
        seq: 1,
        level: 'info',
        outcome: 'started',
        step: 1,
        action: 'wait',
        message: 'wait 5 ms',
        url: 'http://shop.test/cart',
      },
      {
        seq: 2,
        level: 'info',
        outcome: 'passed',
        step: 1,
        action: 'wait',
        url: 'http://shop.test/cart',
        message: 'waited 5 ms',
      },
    ]);
    expect(log.entries[1]?.durationMs).toEqual(expect.any(Number));
  });

  it('tells on each started entry how many steps the run has, when it is known', async () => {
    const { executor, log } = await start(new FakePage(), { stepCount: 3 });
    await executor.run(wait(1, 2));
    expect(log.entries[0]).toMatchObject({ outcome: 'started', step: 2, stepCount: 3 });
    expect(log.entries[1]?.stepCount).toBeUndefined();
  });

  it('fails a step with what was expected and found, logs the error and records nothing', async () => {
    const { executor, log } = await start(new FakePage('about:blank'));
    const { result, said } = await executor.run(urlIs('/checkout'));
    const error =
      'expected the URL to contain "/checkout" but it was "about:blank" (kept checking for the assertion timeout of 100 ms)';
    expect(said).toBe(error);
    expect(result).toEqual({
      index: 1,
      text: 'the URL contains "/checkout"',
      action: 'assertUrl',
      status: 'failed',
      durationMs: expect.any(Number),
      error,
    });
    expect(log.entries.at(-1)).toMatchObject({ outcome: 'failed', level: 'error', error });
    // about:blank is no address a reader needs: neither entry carries it.
    expect(log.entries.map((entry) => entry.url)).toEqual([undefined, undefined]);
  });

  it('gives a hung browser call the step budget, then fails the step naming the step time limit', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const page = new FakePage('http://shop.test/', () => new Promise<string>(() => undefined));
    const { executor } = await start(page);
    const running = executor.run(titleIs('Cart'));
    await jest.advanceTimersByTimeAsync(stepBudgetMs(titleIs('Cart'), LIMITS));
    const { result, stopped } = await running;
    expect(stopped).toBeUndefined();
    expect(result.error).toBe('the browser stopped responding during this step (step time limit of 5100 ms)');
  });

  it('fails the running step when the job time limit runs out, and says the run was stopped', async () => {
    const { executor, log } = await start(new FakePage(), { limits: { ...LIMITS, jobTimeoutMs: 50 } });
    const { result, stopped } = await executor.run(wait(30_000));
    const error = 'the run was stopped because it took too long (job time limit of 50 ms)';
    expect(result).toMatchObject({ status: 'failed', error });
    expect(stopped?.kind).toBe('job time limit');
    expect(stopped?.sentence).toBe('The run was stopped because it took too long (job time limit of 50 ms).');
    expect(log.entries.at(-1)).toMatchObject({ outcome: 'failed', step: 1, error });
    // A stopped run fails every later step at once, with the same reason.
    const next = await executor.run(urlIs('/cart', 2));
    expect(next.result).toMatchObject({ status: 'failed', error });
  });

  it('fails the running step when the caller aborts, telling a cancel from the caller’s clock', async () => {
    const cancel = new AbortController();
    const { executor } = await start(new FakePage(), { signal: cancel.signal });
    const running = executor.run(wait(30_000));
    setTimeout(() => cancel.abort(), 20);
    const cancelled = await running;
    expect(cancelled.result.error).toBe('the run was cancelled');
    expect(cancelled.stopped?.kind).toBe('cancelled');

    const timed = await start(new FakePage(), { signal: AbortSignal.timeout(20) });
    const timedOut = await timed.executor.run(wait(30_000));
    expect(timedOut.result.error).toBe("the run was stopped by the caller's time limit");
    expect(timedOut.stopped?.kind).toBe('job time limit');

    const worker = new AbortController();
    worker.abort(new Error("the job's time limit of 5 minutes was reached"));
    const stoppedEarly = await start(new FakePage(), { signal: worker.signal });
    const first = await stoppedEarly.executor.run(wait(30_000));
    expect(first.result.error).toBe("the job's time limit of 5 minutes was reached");
    expect(first.stopped?.sentence).toBe("The job's time limit of 5 minutes was reached.");
  });

  it('shows a step the way the caller names its elements, and records the step the caller gives', async () => {
    const { executor, log } = await start(new FakePage('http://shop.test/a'));
    const step: Step = { ...urlIs('[data-agent-ref="e3"]'), text: 'assert_url {"expected":"…"}' };
    const { result, said } = await executor.run(step, {
      target: 'the button "Pay" [e3]',
      rewrite: (text) => text.replaceAll('"[data-agent-ref="e3"]"', 'the button "Pay" [e3]'),
      recordAs: { ...step, expected: '{{secret.path}}' },
    });
    expect(said).toMatch(/^expected the URL to contain the button "Pay" \[e3\] but it was/);
    expect(result.error).toBe(said);
    expect(log.entries.at(-1)).toMatchObject({ target: 'the button "Pay" [e3]', error: said });
    const passed = await executor.run(urlIs('/a', 2), { recordAs: { ...urlIs('{{secret.path}}', 2) } });
    expect(passed.result.recorded?.step).toMatchObject({ expected: '{{secret.path}}' });
  });

  it('masks secrets in the step result as in the log', async () => {
    const log = new AgentLog();
    log.addSecret('s3cret');
    const { executor } = await start(new FakePage('http://shop.test/?code=s3cret'), { log });
    const { result } = await executor.run({ ...wait(1), text: 'wait 1 ms for s3cret' });
    expect(result.text).toBe('wait 1 ms for ••••••');
    expect(result.url).toBe('http://shop.test/?code=••••••');
    expect(JSON.stringify(log.entries)).not.toContain('s3cret');
  });

  it('skips a step with a skipped entry and accepts dialogs until it is closed', async () => {
    const page = new FakePage();
    const { executor, log } = await start(page);
    expect(executor.skip(wait(1, 4))).toEqual({
      index: 4,
      text: 'wait 1 ms',
      action: 'wait',
      status: 'skipped',
      durationMs: 0,
    });
    const accepted: string[] = [];
    const dialog = { type: () => 'alert', message: () => 'Saved', accept: () => Promise.resolve() };
    page.emit('dialog', { ...dialog, accept: () => (accepted.push('yes'), Promise.resolve()) });
    await executor.close();
    expect(page.listenerCount('dialog')).toBe(0);
    expect(accepted).toEqual(['yes']);
    expect(entries(log).map((e) => [e.outcome, e.message])).toEqual([
      ['skipped', 'wait 1 ms'],
      ['info', 'accepted a alert dialog: "Saved"'],
    ]);
  });

  it('budgets each kind of step by its own timeouts plus the watchdog slack', () => {
    const limits: RunLimits = { ...DEFAULT_LIMITS, navigationTimeoutMs: 1000, actionTimeoutMs: 200 };
    expect(stepBudgetMs(wait(300), limits)).toBe(5300);
    expect(stepBudgetMs({ action: 'navigate', url: '/', index: 1, text: '' }, limits)).toBe(6000);
    expect(stepBudgetMs(titleIs('x'), { ...limits, assertionTimeoutMs: 100 })).toBe(5100);
    expect(stepBudgetMs({ ...titleIs('x'), patient: true }, limits)).toBe(5200);
    expect(
      stepBudgetMs({ action: 'waitForText', expected: 'x', state: 'visible', index: 1, text: '' }, limits),
    ).toBe(6000);
    expect(stepBudgetMs({ action: 'scroll', direction: 'down', index: 1, text: '' }, limits)).toBe(6200);
  });
});
