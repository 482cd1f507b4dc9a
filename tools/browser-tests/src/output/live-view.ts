import { createLogUpdate } from 'log-update';
import type { JobRecord, StepEvent } from '../runner/job-types.js';
import type { RunObserver } from '../run/run-observer.js';
import type { Attempt, TestResult } from '../run/run-result.js';
import type { TestFile } from '../test-files/test-file.js';
import { fit, formatDuration, progressBar, STATUS_ICON } from './format.js';

interface Row {
  test: TestFile;
  state: string;
  attempt: number;
  step?: StepEvent;
  since: number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The terminal view: one line per test in flight with its current step, a progress bar and the
 * elapsed time, redrawn in place; each finished test is printed above it for good.
 */
export class LiveView implements RunObserver {
  private readonly rows = new Map<string, Row>();
  private readonly update;
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private done = 0;
  private total = 0;
  private readonly started = Date.now();
  private note = '';

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly redact: (text: string) => string,
  ) {
    this.update = createLogUpdate(stream);
  }

  runStarted(tests: TestFile[]): void {
    this.total = tests.length;
    this.timer = setInterval(() => this.render(), 100);
    this.timer.unref();
  }

  jobChanged(test: TestFile, attempt: number, job: JobRecord): void {
    const row = this.rows.get(test.file);
    if (row && row.attempt === attempt) row.state = job.status;
    else this.rows.set(test.file, { test, state: job.status, attempt, since: Date.now() });
  }

  stepChanged(test: TestFile, _attempt: number, step: StepEvent): void {
    const row = this.rows.get(test.file);
    if (row) row.step = step;
  }

  attemptEnded(test: TestFile, attempt: Attempt, retrying: boolean): void {
    if (retrying) this.print(`↻ ${test.title} failed, retrying: ${attempt.message ?? ''}`);
  }

  testEnded(result: TestResult): void {
    this.done++;
    this.rows.delete(result.test.file);
    const last = result.attempts.at(-1);
    const detail =
      result.status === 'flaky'
        ? ` (passed on attempt ${result.attempts.length})`
        : result.status === 'failed' && last?.message
          ? ` — ${last.message}`
          : '';
    this.print(
      `${STATUS_ICON[result.status]} ${result.test.title} ${result.status} in ${formatDuration(result.durationMs)}${detail}`,
    );
  }

  interrupting(): void {
    this.note = 'Interrupted: cancelling the jobs this run queued…';
    this.render();
  }

  runEnded(): void {
    if (this.timer) clearInterval(this.timer);
    this.update.clear();
    this.update.done();
  }

  private print(line: string): void {
    this.update.clear();
    this.stream.write(`${this.redact(line)}\n`);
    this.render();
  }

  private render(): void {
    const width = Math.max(40, (this.stream.columns ?? 80) - 1);
    const height = Math.max(3, (this.stream.rows ?? 24) - 4);
    const spin = SPINNER[this.frame++ % SPINNER.length]!;
    const lines = [...this.rows.values()].slice(0, height).map((row) => {
      const step = row.step ? ` step ${row.step.index}/${row.step.count}: ${row.step.text}` : ` ${row.state}`;
      const retry = row.attempt > 1 ? ` (attempt ${row.attempt})` : '';
      return fit(
        `${spin} ${row.test.title}${retry}${step} · ${formatDuration(Date.now() - row.since)}`,
        width,
      );
    });
    if (this.rows.size > height) lines.push(`  … and ${this.rows.size - height} more`);
    lines.push(
      `${progressBar(this.done, this.total)} ${this.done}/${this.total} done · ${formatDuration(Date.now() - this.started)}`,
    );
    if (this.note) lines.push(this.note);
    this.update(this.redact(lines.join('\n')));
  }
}
