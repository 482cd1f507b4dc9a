import type { JobRecord } from '../runner/job-types.js';
import type { TestFile } from '../test-files/test-file.js';

/** `flaky`: failed first, passed on a retry. `interrupted`: Ctrl-C came before it ended. */
export type TestStatus = 'passed' | 'failed' | 'flaky' | 'interrupted';

export interface FailedStep {
  index: number;
  count: number;
  text: string;
  error: string | null;
  /** The step's line in the test file, when known. */
  line?: number;
}

/** One run of a test (one job on the runner). */
export interface Attempt {
  jobId?: string;
  status: 'passed' | 'failed' | 'interrupted';
  /** What went wrong, in a sentence (the failing step's error, the job's error, a timeout…). */
  message?: string;
  summary?: string;
  failedStep?: FailedStep;
  links: { page?: string; video?: string; screenshot?: string; log?: string };
  startedAt: Date;
  durationMs: number;
  steps: { text: string; status: string }[];
}

export interface TestResult {
  test: TestFile;
  status: TestStatus;
  /** In order; the last is the one that decided the status. */
  attempts: Attempt[];
  durationMs: number;
}

export interface RunResult {
  results: TestResult[];
  startedAt: Date;
  finishedAt: Date;
  runnerUrl: string;
  interrupted: boolean;
}

export const lastAttempt = (result: TestResult): Attempt | undefined => result.attempts.at(-1);

/** The step that failed, from the job record (the first failed step), with its line in the file. */
export function failedStepOf(job: JobRecord, test: TestFile): FailedStep | undefined {
  const step = job.steps.find((s) => s.status === 'failed');
  if (!step) return undefined;
  const line = lineOf(step.text, step.index, job.steps.length, test);
  return {
    index: step.index,
    count: job.steps.length || test.steps.length,
    text: step.text,
    error: step.error,
    ...(line !== undefined ? { line } : {}),
  };
}

const tidy = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.;]+$/, '')
    .trim();

/** The file line of a job step: by its text (the runner may split a line in two), else by position. */
export function lineOf(text: string, index: number, count: number, test: TestFile): number | undefined {
  const wanted = tidy(text);
  const byText =
    test.steps.find((s) => tidy(s.text) === wanted) ?? test.steps.find((s) => tidy(s.text).includes(wanted));
  if (byText) return byText.line;
  return count === test.steps.length ? test.steps[index - 1]?.line : undefined;
}
