import type { JobRecord, StepEvent } from '../runner/job-types.js';
import type { RunObserver } from '../run/run-observer.js';
import type { Attempt, TestResult } from '../run/run-result.js';
import type { TestFile } from '../test-files/test-file.js';
import { formatDuration, STATUS_ICON } from './format.js';

/** Output for logs and CI (not a terminal): one plain line per event, nothing redrawn. */
export class LineView implements RunObserver {
  private readonly statuses = new Map<string, string>();
  private ended = 0;
  private total = 0;

  constructor(private readonly write: (line: string) => void) {}

  runStarted(tests: TestFile[]): void {
    this.total = tests.length;
    this.write(`Running ${tests.length} test${tests.length === 1 ? '' : 's'}`);
  }

  jobChanged(test: TestFile, attempt: number, job: JobRecord): void {
    const key = `${test.file}#${attempt}`;
    if (this.statuses.get(key) === job.status) return;
    this.statuses.set(key, job.status);
    if (job.status === 'queued')
      this.write(`[${test.title}] queued as job ${job.id}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    else if (job.status === 'running') this.write(`[${test.title}] running`);
  }

  stepChanged(test: TestFile, _attempt: number, step: StepEvent): void {
    if (step.status === 'running') return;
    this.write(
      `[${test.title}] step ${step.index}/${step.count} ${step.status}: ${step.text}${step.error ? ` — ${step.error}` : ''}`,
    );
  }

  attemptEnded(test: TestFile, attempt: Attempt, retrying: boolean): void {
    if (retrying) this.write(`[${test.title}] failed, retrying: ${attempt.message ?? ''}`);
  }

  testEnded(result: TestResult): void {
    this.ended++;
    const last = result.attempts.at(-1);
    const detail =
      result.status === 'flaky'
        ? ` (passed on attempt ${result.attempts.length})`
        : result.status === 'failed' && last?.message
          ? `: ${last.message}`
          : '';
    this.write(
      `${STATUS_ICON[result.status]} ${result.test.title} ${result.status} in ${formatDuration(result.durationMs)}${detail} [${this.ended}/${this.total}]`,
    );
  }

  interrupting(): void {
    this.write('Interrupted: cancelling the jobs this run queued…');
  }
}
