import type { RunResult } from '../run/run-result.js';
import type { TestFile } from '../test-files/test-file.js';

/** A finished run with one test of each outcome, for the reporter specs. */
export function sampleRun(): RunResult {
  const runner = 'http://127.0.0.1:8080';
  const at = new Date('2026-05-01T10:00:00.000Z');
  const test = (file: string, title: string, tags: string[] = []): TestFile => ({
    file,
    title,
    tags,
    secrets: {},
    steps: [
      { text: 'Open /', line: 5 },
      { text: 'Click "Cart"', line: 6 },
      { text: 'The page contains "Total"', line: 7 },
    ],
  });
  const links = (id: string, failed: boolean) => ({
    page: `${runner}/jobs/${id}`,
    log: `${runner}/v1/jobs/${id}/log`,
    video: `${runner}/v1/jobs/${id}/video`,
    ...(failed ? { screenshot: `${runner}/v1/jobs/${id}/screenshot` } : {}),
  });
  const failedStep = {
    index: 2,
    count: 3,
    text: 'Click "Cart"',
    error: 'No element matches "Cart" <button>',
    line: 6,
  };
  const failure = `Step 2/3 failed: Click "Cart" — No element matches "Cart" <button>`;
  return {
    runnerUrl: runner,
    startedAt: at,
    finishedAt: new Date(at.getTime() + 20_000),
    interrupted: false,
    results: [
      {
        test: test('tests/home.test.md', 'Home & <greeting>', ['smoke']),
        status: 'passed',
        durationMs: 3_200,
        attempts: [
          {
            jobId: 'job-1',
            status: 'passed',
            summary: 'All 3 steps passed.',
            links: links('job-1', false),
            startedAt: at,
            durationMs: 3_200,
            steps: [{ text: 'Open /', status: 'passed' }],
          },
        ],
      },
      {
        test: test('tests/checkout.test.md', 'Checkout, with total: 100%', ['checkout']),
        status: 'failed',
        durationMs: 4_100,
        attempts: [
          {
            jobId: 'job-2',
            status: 'failed',
            message: failure,
            summary: 'Step 2 of 3 failed.',
            failedStep,
            links: links('job-2', true),
            startedAt: at,
            durationMs: 4_100,
            steps: [
              { text: 'Open /', status: 'passed' },
              { text: 'Click "Cart"', status: 'failed' },
              { text: 'The page contains "Total"', status: 'skipped' },
            ],
          },
        ],
      },
      {
        test: test('tests/flaky.test.md', 'Sometimes slow'),
        status: 'flaky',
        durationMs: 9_000,
        attempts: [
          {
            jobId: 'job-3',
            status: 'failed',
            message: failure,
            failedStep,
            links: links('job-3', true),
            startedAt: at,
            durationMs: 5_000,
            steps: [],
          },
          {
            jobId: 'job-4',
            status: 'passed',
            links: links('job-4', false),
            startedAt: new Date(at.getTime() + 5_000),
            durationMs: 4_000,
            steps: [],
          },
        ],
      },
      {
        test: test('tests/late.test.md', 'Never started'),
        status: 'interrupted',
        durationMs: 0,
        attempts: [
          {
            status: 'interrupted',
            message: 'interrupted before it started',
            links: {},
            startedAt: at,
            durationMs: 0,
            steps: [],
          },
        ],
      },
    ],
  };
}
