import { CliError } from '../cli/cli-error.js';
import type { CreateJobRequest, JobRecord } from '../runner/job-types.js';
import { RunnerRequestError, type RunnerClient } from '../runner/runner-client.js';
import type { TestFile } from '../test-files/test-file.js';
import type { RunObserver } from './run-observer.js';
import { failedStepOf, type Attempt, type TestResult, type TestStatus } from './run-result.js';

export interface TestRunOptions {
  client: RunnerClient;
  retries: number;
  observer: RunObserver;
  /** Aborted on Ctrl-C: stop waiting, report the test as interrupted. */
  signal: AbortSignal;
  /** Every job this run queued, so an interrupt can cancel them. */
  submitted: Set<string>;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

/** Runs one test, again up to `retries` times while it fails; passing on a retry makes it flaky. */
export async function runTest(
  test: TestFile,
  request: CreateJobRequest,
  options: TestRunOptions,
): Promise<TestResult> {
  const attempts: Attempt[] = [];
  const started = Date.now();
  for (let n = 1; n <= options.retries + 1; n++) {
    const attempt = await runAttempt(test, request, n, options);
    attempts.push(attempt);
    const retrying = attempt.status === 'failed' && n <= options.retries && !options.signal.aborted;
    options.observer.attemptEnded?.(test, attempt, retrying);
    if (!retrying) break;
  }
  const result: TestResult = { test, status: statusOf(attempts), attempts, durationMs: Date.now() - started };
  options.observer.testEnded?.(result);
  return result;
}

/** A test's status from its attempts: the last decides; passing after a failure is flaky. */
export function statusOf(attempts: Attempt[]): TestStatus {
  const last = attempts.at(-1)!;
  if (last.status === 'passed') return attempts.length > 1 ? 'flaky' : 'passed';
  return last.status === 'interrupted' ? 'interrupted' : 'failed';
}

async function runAttempt(
  test: TestFile,
  request: CreateJobRequest,
  n: number,
  options: TestRunOptions,
): Promise<Attempt> {
  const { client, signal } = options;
  const startedAt = new Date();
  const base = (): Pick<Attempt, 'startedAt' | 'durationMs' | 'links' | 'steps'> => ({
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    links: {},
    steps: [],
  });
  if (signal.aborted) return { ...base(), status: 'interrupted', message: 'interrupted before it started' };
  let job: JobRecord;
  try {
    job = await client.submit(request, signal);
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (signal.aborted)
      return { ...base(), status: 'interrupted', message: 'interrupted before it was queued' };
    if (error instanceof RunnerRequestError) return { ...base(), status: 'failed', message: error.message };
    throw error;
  }
  options.submitted.add(job.id);
  if (signal.aborted) {
    await client.cancel(job.id).catch(() => undefined);
    return { ...base(), jobId: job.id, status: 'interrupted', message: 'interrupted (Ctrl-C)' };
  }
  return followAttempt(test, job, n, startedAt, options);
}

/**
 * Follows a queued job to its end and turns it into an attempt: passed, failed (with the failing
 * step and its line), timed out (the test's own timeout) or interrupted (Ctrl-C).
 */
export async function followAttempt(
  test: TestFile,
  queued: JobRecord,
  n: number,
  startedAt: Date,
  options: Pick<TestRunOptions, 'client' | 'observer' | 'signal'>,
): Promise<Attempt> {
  const { client, signal } = options;
  let job = queued;
  options.observer.jobChanged?.(test, n, job);

  const timeout = test.timeoutMs ? AbortSignal.timeout(test.timeoutMs) : undefined;
  const follow = timeout ? AbortSignal.any([signal, timeout]) : signal;
  try {
    job = await client.follow(
      job.id,
      {
        onJob: (record) => options.observer.jobChanged?.(test, n, record),
        onStep: (step) => options.observer.stepChanged?.(test, n, step),
      },
      follow,
    );
  } catch (error) {
    if (!follow.aborted) throw error;
  }
  const links = {
    page: client.jobPage(job.id),
    log: client.absolute(job.links.log),
    ...(job.links.video ? { video: client.absolute(job.links.video) } : {}),
    ...(job.links.screenshot ? { screenshot: client.absolute(job.links.screenshot) } : {}),
  };
  const steps = job.steps.map((step) => ({ text: step.text, status: step.status }));
  const ended = { jobId: job.id, startedAt, durationMs: Date.now() - startedAt.getTime(), links, steps };

  if (signal.aborted && job.status !== 'succeeded' && job.status !== 'failed')
    return { ...ended, status: 'interrupted', message: 'interrupted (Ctrl-C)' };
  if (timeout?.aborted && job.status !== 'succeeded' && job.status !== 'failed') {
    const cancel = await client.cancel(job.id).catch(() => undefined);
    return {
      ...ended,
      status: 'failed',
      message: `timed out after ${seconds(test.timeoutMs!)} (${cancel?.cancelled ? 'cancelled while queued' : `still ${job.status} on the runner`})`,
    };
  }
  if (job.status === 'succeeded')
    return { ...ended, status: 'passed', ...(job.summary ? { summary: job.summary } : {}) };
  const failedStep = failedStepOf(job, test);
  const message =
    job.status === 'cancelled'
      ? 'the job was cancelled on the runner'
      : failedStep
        ? `Step ${failedStep.index}/${failedStep.count} failed: ${failedStep.text}${failedStep.error ? ` — ${failedStep.error}` : ''}`
        : (job.error ?? job.summary ?? 'the job failed');
  return {
    ...ended,
    status: 'failed',
    message,
    ...(job.summary ? { summary: job.summary } : {}),
    ...(failedStep ? { failedStep } : {}),
  };
}
