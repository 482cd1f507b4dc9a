import { createRequire } from 'node:module';
import type { Builder } from 'junit-report-builder';
import type { Attempt, RunResult, TestResult } from '../run/run-result.js';
import { attachmentsOf } from './attachments.js';

// A CommonJS module whose typings declare an ES default export: loaded as CommonJS, typed by hand.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

/**
 * JUnit XML: one testcase per test (classname and file = the test file). A failure's message is
 * the failing step and its error; the job page, video and screenshot are in `system-out` as
 * `[[ATTACHMENT|…]]` lines (Jenkins, GitLab) and as properties. Flaky tests pass with
 * `flaky=true`; interrupted ones are skipped.
 */
export function junitXml(run: RunResult): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name('browser-tests')
    .timestamp(run.startedAt)
    .time((run.finishedAt.getTime() - run.startedAt.getTime()) / 1_000)
    .property('runner', run.runnerUrl);
  for (const result of run.results) {
    const last = result.attempts.at(-1);
    const testCase = suite
      .testCase()
      .name(result.test.title)
      .className(result.test.file)
      .file(result.test.file)
      .time(result.durationMs / 1_000);
    if (result.test.tags.length > 0) testCase.property('tags', result.test.tags.join(','));
    if (last?.jobId) testCase.property('job_id', last.jobId);
    for (const attachment of attachmentsOf(last))
      testCase.property(attachment.name.replace(' ', '_'), attachment.path);
    if (result.attempts.length > 1) testCase.property('attempts', String(result.attempts.length));
    if (result.status === 'flaky') testCase.property('flaky', 'true');
    if (result.status === 'failed')
      testCase.failure(last?.message ?? 'failed', 'BrowserTestFailure').stacktrace(details(result, last));
    if (result.status === 'interrupted') testCase.skipped();
    testCase.standardOutput(output(result, last));
  }
  return builder.build();
}

function details(result: TestResult, attempt: Attempt | undefined): string {
  const step = attempt?.failedStep;
  return [
    step
      ? `Failing step ${step.index}/${step.count}${step.line ? ` (${result.test.file}:${step.line})` : ''}: ${step.text}`
      : undefined,
    step?.error ? `Error: ${step.error}` : attempt?.message ? `Error: ${attempt.message}` : undefined,
    attempt?.summary ? `Summary: ${attempt.summary}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');
}

function output(result: TestResult, last: Attempt | undefined): string {
  const lines: string[] = [];
  result.attempts.forEach((attempt, i) => {
    if (result.attempts.length > 1)
      lines.push(`Attempt ${i + 1}: ${attempt.status}${attempt.message ? ` — ${attempt.message}` : ''}`);
  });
  if (last?.summary) lines.push(last.summary);
  for (const attachment of attachmentsOf(last)) lines.push(`${attachment.name}: ${attachment.path}`);
  for (const attachment of attachmentsOf(last)) lines.push(`[[ATTACHMENT|${attachment.path}]]`);
  return lines.join('\n');
}
