import pLimit from 'p-limit';
import type { CreateJobRequest } from '../runner/job-types.js';
import type { RunnerClient } from '../runner/runner-client.js';
import type { TestFile } from '../test-files/test-file.js';
import { cancelJobs } from './cancel-jobs.js';
import type { RunObserver } from './run-observer.js';
import type { RunResult, TestResult } from './run-result.js';
import { runTest } from './test-runner.js';

export interface SuiteRunOptions {
  client: RunnerClient;
  parallel: number;
  retries: number;
  observer: RunObserver;
}

export interface PlannedTest {
  test: TestFile;
  request: CreateJobRequest;
}

/**
 * Runs the tests `parallel` at a time. `interrupt()` (Ctrl-C) stops starting tests and cancels
 * every job it queued that has not ended: queued ones are cancelled, running ones finish on the
 * runner (it never force-kills), and the run ends at once with them reported as interrupted.
 */
export class SuiteRun {
  private readonly controller = new AbortController();
  private readonly submitted = new Set<string>();
  private readonly finished = new Set<string>();

  constructor(private readonly options: SuiteRunOptions) {}

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  async run(planned: PlannedTest[]): Promise<RunResult> {
    const startedAt = new Date();
    const { observer } = this.options;
    observer.runStarted?.(planned.map((p) => p.test));
    const limit = pLimit(Math.max(1, this.options.parallel));
    const results: TestResult[] = await Promise.all(
      planned.map(({ test, request }) =>
        limit(async () => {
          const result = await runTest(test, request, {
            client: this.options.client,
            retries: this.options.retries,
            observer,
            signal: this.controller.signal,
            submitted: this.submitted,
          });
          for (const attempt of result.attempts)
            if (attempt.jobId && attempt.status !== 'interrupted') this.finished.add(attempt.jobId);
          return result;
        }),
      ),
    );
    observer.runEnded?.();
    return {
      results,
      startedAt,
      finishedAt: new Date(),
      runnerUrl: this.options.client.baseUrl,
      interrupted: this.interrupted,
    };
  }

  /** Cancels what this run queued; resolves with how many were cancelled and how many still run. */
  async interrupt(): Promise<{ cancelled: number; running: number }> {
    this.options.observer.interrupting?.();
    this.controller.abort();
    return cancelJobs(
      this.options.client,
      [...this.submitted].filter((id) => !this.finished.has(id)),
    );
  }
}
