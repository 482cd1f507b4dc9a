import type { RunnerClient } from '../runner/runner-client.js';
import type { SuiteRecord, SuiteRunRecord } from '../runner/suite-types.js';
import type { TestFile } from '../test-files/test-file.js';
import { cancelJobs } from './cancel-jobs.js';
import type { RunObserver } from './run-observer.js';
import type { RunResult, TestResult } from './run-result.js';
import { followAttempt, statusOf } from './test-runner.js';

/**
 * The tests of a stored suite as the views and reporters know tests. They have no file here:
 * `file` names the suite and the test (unique within the run), and steps have no line (0).
 */
export function suiteTestFiles(suite: SuiteRecord): TestFile[] {
  const seen = new Map<string, number>();
  return suite.tests.map((test) => {
    const n = (seen.get(test.title) ?? 0) + 1;
    seen.set(test.title, n);
    return {
      file: `suite ${suite.name}: ${test.title}${n > 1 ? ` (${n})` : ''}`,
      title: test.title,
      ...(test.start_url ? { url: test.start_url } : {}),
      tags: test.tags ?? [],
      ...(test.timeout_seconds ? { timeoutMs: test.timeout_seconds * 1_000 } : {}),
      secrets: {},
      steps: test.steps.map((text) => ({ text, line: 0 })),
    };
  });
}

export interface StoredSuiteRunOptions {
  client: RunnerClient;
  observer: RunObserver;
}

/**
 * Follows a run the runner started (`POST /v1/suites/{id}/runs`): every job is already queued,
 * so this only watches them, with the same views and results as a local run (no retries).
 * `interrupt()` cancels the run's jobs that are still queued; running ones finish on the runner.
 */
export class StoredSuiteRun {
  private readonly controller = new AbortController();
  private readonly finished = new Set<string>();
  private jobIds: string[] = [];

  constructor(private readonly options: StoredSuiteRunOptions) {}

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  async follow(run: SuiteRunRecord, tests: TestFile[]): Promise<RunResult> {
    const startedAt = new Date(run.created_at);
    const { client, observer } = this.options;
    this.jobIds = run.tests.map((t) => t.job_id);
    const planned = run.tests.map((ref, i) => ({ ref, test: tests[i] ?? suiteTestOf(ref.title, i) }));
    observer.runStarted?.(planned.map((p) => p.test));
    const results: TestResult[] = await Promise.all(
      planned.map(async ({ ref, test }) => {
        const begun = Date.now();
        const current = await client.get(ref.job_id);
        const attempt = await followAttempt(test, current, 1, startedAt, {
          client,
          observer,
          signal: this.controller.signal,
        });
        if (attempt.status !== 'interrupted') this.finished.add(ref.job_id);
        observer.attemptEnded?.(test, attempt, false);
        const result: TestResult = {
          test,
          status: statusOf([attempt]),
          attempts: [attempt],
          durationMs: Date.now() - begun,
        };
        observer.testEnded?.(result);
        return result;
      }),
    );
    observer.runEnded?.();
    return {
      results,
      startedAt,
      finishedAt: new Date(),
      runnerUrl: client.baseUrl,
      interrupted: this.interrupted,
    };
  }

  /** Cancels the run's jobs that have not ended; resolves with how many were cancelled and still run. */
  async interrupt(): Promise<{ cancelled: number; running: number }> {
    this.options.observer.interrupting?.();
    this.controller.abort();
    return cancelJobs(
      this.options.client,
      this.jobIds.filter((id) => !this.finished.has(id)),
    );
  }
}

/** A test of a run the suite no longer lists (it was replaced in between). */
function suiteTestOf(title: string, i: number): TestFile {
  return { file: `${title} (${i + 1})`, title, tags: [], secrets: {}, steps: [] };
}
