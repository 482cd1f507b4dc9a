import type { JobRecord, StepEvent } from '../runner/job-types.js';
import type { TestFile } from '../test-files/test-file.js';
import type { Attempt, TestResult } from './run-result.js';

/** What the views hear while tests run (every method optional). */
export interface RunObserver {
  runStarted?(tests: TestFile[]): void;
  jobChanged?(test: TestFile, attempt: number, job: JobRecord): void;
  stepChanged?(test: TestFile, attempt: number, step: StepEvent): void;
  attemptEnded?(test: TestFile, attempt: Attempt, retrying: boolean): void;
  testEnded?(result: TestResult): void;
  interrupting?(): void;
  runEnded?(): void;
}
