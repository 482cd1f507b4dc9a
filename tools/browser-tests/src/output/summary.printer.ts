import type { RunResult, TestResult } from '../run/run-result.js';
import { fit, formatDuration, STATUS_ICON } from './format.js';

export interface Counts {
  passed: number;
  failed: number;
  flaky: number;
  interrupted: number;
  total: number;
}

export function countResults(results: TestResult[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, flaky: 0, interrupted: 0, total: results.length };
  for (const result of results) counts[result.status]++;
  return counts;
}

export function countsLine(counts: Counts): string {
  return [
    `${counts.passed} passed`,
    `${counts.failed} failed`,
    ...(counts.flaky ? [`${counts.flaky} flaky`] : []),
    ...(counts.interrupted ? [`${counts.interrupted} interrupted`] : []),
  ].join(', ');
}

/** The table of every test, then each failure with its failing step, error and links. */
export function formatSummary(run: RunResult): string {
  const { results } = run;
  const titleWidth = Math.min(60, Math.max(4, ...results.map((r) => r.test.title.length)));
  const rows = results.map((result) => {
    const attempts = result.attempts.length > 1 ? `${result.attempts.length} attempts` : '';
    return `  ${STATUS_ICON[result.status]} ${result.status.padEnd(11)} ${fit(result.test.title, titleWidth).padEnd(titleWidth)}  ${formatDuration(result.durationMs).padStart(7)}  ${attempts}`.trimEnd();
  });
  const out = ['', 'Summary', ...rows];
  const problems = results.filter((r) => r.status === 'failed' || r.status === 'flaky');
  for (const result of problems) {
    out.push('', `${STATUS_ICON[result.status]} ${result.test.title} (${result.test.file})`);
    const failed = result.attempts.filter((a) => a.status === 'failed');
    const shown = result.status === 'flaky' ? failed : failed.slice(-1);
    for (const attempt of shown) {
      if (result.attempts.length > 1) out.push(`  attempt ${result.attempts.indexOf(attempt) + 1}:`);
      if (attempt.failedStep) {
        const at = attempt.failedStep.line ? ` (line ${attempt.failedStep.line})` : '';
        out.push(
          `  failing step ${attempt.failedStep.index}/${attempt.failedStep.count}${at}: ${attempt.failedStep.text}`,
        );
        if (attempt.failedStep.error) out.push(`  error: ${attempt.failedStep.error}`);
      } else if (attempt.message) out.push(`  error: ${attempt.message}`);
      if (attempt.links.page) out.push(`  job page:   ${attempt.links.page}`);
      if (attempt.links.video) out.push(`  video:      ${attempt.links.video}`);
      if (attempt.links.screenshot) out.push(`  screenshot: ${attempt.links.screenshot}`);
    }
  }
  const counts = countResults(results);
  out.push(
    '',
    `${countsLine(counts)} (${counts.total} tests in ${formatDuration(run.finishedAt.getTime() - run.startedAt.getTime())})`,
  );
  return out.join('\n');
}
