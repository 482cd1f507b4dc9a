import { randomUUID } from 'node:crypto';
import type { Attempt, RunResult, TestResult } from '../run/run-result.js';
import { attachmentsOf } from './attachments.js';

const SPEC_VERSION = '0.0.0';

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

const statusOf = (result: TestResult): CtrfStatus =>
  result.status === 'failed' ? 'failed' : result.status === 'interrupted' ? 'skipped' : 'passed';

const attemptStatus = (attempt: Attempt): CtrfStatus =>
  attempt.status === 'interrupted' ? 'skipped' : attempt.status;

/**
 * A CTRF report (Common Test Report Format, ctrf.io): a flaky test is `passed` with `flaky: true`,
 * `retries` and the failed `retryAttempts`; the failing step's error is the test's `message`; the
 * job page, video and screenshot are `attachments`.
 */
export function ctrfReport(run: RunResult, toolVersion: string): Record<string, unknown> {
  const tests = run.results.map((result) => {
    const last = result.attempts.at(-1);
    const start = result.attempts[0]?.startedAt.getTime() ?? run.startedAt.getTime();
    const earlier = result.attempts.slice(0, -1);
    return {
      name: result.test.title,
      status: statusOf(result),
      duration: Math.round(result.durationMs),
      start,
      stop: start + Math.round(result.durationMs),
      suite: ['browser-tests', result.test.file],
      filePath: result.test.file,
      ...(last?.failedStep?.line ? { line: last.failedStep.line } : {}),
      ...(result.status !== 'passed' ? { rawStatus: result.status } : {}),
      ...(result.status === 'failed' && last?.message ? { message: last.message } : {}),
      ...(result.status === 'failed' && last?.summary ? { trace: last.summary } : {}),
      ...(result.test.tags.length > 0 ? { tags: result.test.tags } : {}),
      type: 'e2e',
      retries: result.attempts.length - 1,
      flaky: result.status === 'flaky',
      ...(earlier.length > 0
        ? {
            retryAttempts: earlier.map((attempt, i) => ({
              attempt: i + 1,
              status: attemptStatus(attempt),
              duration: Math.round(attempt.durationMs),
              ...(attempt.message ? { message: attempt.message } : {}),
              ...(attempt.failedStep?.line ? { line: attempt.failedStep.line } : {}),
              start: attempt.startedAt.getTime(),
              stop: attempt.startedAt.getTime() + Math.round(attempt.durationMs),
              ...(attachmentsOf(attempt).length > 0 ? { attachments: attachmentsOf(attempt) } : {}),
            })),
          }
        : {}),
      browser: 'chromium',
      ...(last?.links.screenshot ? { screenshot: last.links.screenshot } : {}),
      ...(attachmentsOf(last).length > 0 ? { attachments: attachmentsOf(last) } : {}),
      ...(last && last.steps.length > 0
        ? { steps: last.steps.map((step) => ({ name: step.text, status: stepStatus(step.status) })) }
        : {}),
      ...(last?.jobId ? { extra: { jobId: last.jobId } } : {}),
    };
  });
  const count = (status: CtrfStatus) => tests.filter((t) => t.status === status).length;
  return {
    reportFormat: 'CTRF',
    specVersion: SPEC_VERSION,
    reportId: randomUUID(),
    timestamp: run.finishedAt.toISOString(),
    generatedBy: 'browser-tests',
    results: {
      tool: { name: 'browser-tests', version: toolVersion },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: 0,
        other: 0,
        flaky: tests.filter((t) => t.flaky).length,
        suites: new Set(run.results.map((r) => r.test.file)).size,
        start: run.startedAt.getTime(),
        stop: run.finishedAt.getTime(),
        duration: run.finishedAt.getTime() - run.startedAt.getTime(),
      },
      tests,
      environment: { extra: { runner: run.runnerUrl } },
    },
  };
}

function stepStatus(status: string): CtrfStatus {
  if (status === 'passed' || status === 'failed' || status === 'skipped' || status === 'pending')
    return status;
  return 'other';
}
