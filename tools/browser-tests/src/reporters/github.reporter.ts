import type { RunResult, TestResult } from '../run/run-result.js';
import { countResults, countsLine } from '../output/summary.printer.js';
import { formatDuration } from '../output/format.js';

// Workflow command escaping, as GitHub's own toolkit (@actions/core) does it.
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=…,line=…,title=…::message` for each failure, `::warning` for each flaky test. */
export function githubAnnotations(run: RunResult): string[] {
  return run.results
    .filter((result) => result.status === 'failed' || result.status === 'flaky')
    .map((result) => {
      const last = result.attempts.at(-1);
      const failed = result.status === 'flaky' ? result.attempts.find((a) => a.status === 'failed') : last;
      const line = failed?.failedStep?.line ?? result.test.steps[0]?.line;
      const props = [
        `file=${escapeProperty(result.test.file)}`,
        ...(line ? [`line=${line}`] : []),
        `title=${escapeProperty(`${result.test.title} ${result.status === 'flaky' ? 'is flaky' : 'failed'}`)}`,
      ].join(',');
      const message = [
        result.status === 'flaky'
          ? `Passed on attempt ${result.attempts.length} after: ${failed?.message ?? 'a failure'}`
          : (failed?.message ?? 'failed'),
        ...(failed?.links.page ? [`Job: ${failed.links.page}`] : []),
      ].join('\n');
      return `::${result.status === 'flaky' ? 'warning' : 'error'} ${props}::${escapeData(message)}`;
    });
}

const ICON: Record<TestResult['status'], string> = {
  passed: '✅',
  failed: '❌',
  flaky: '⚠️',
  interrupted: '⏹️',
};
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** The job summary (Markdown for `$GITHUB_STEP_SUMMARY`): counts, a table and each failure. */
export function githubSummary(run: RunResult): string {
  const counts = countResults(run.results);
  const out = [
    `## Browser tests: ${countsLine(counts)}`,
    '',
    '| | Test | File | Duration | Attempts | Job |',
    '| --- | --- | --- | --- | --- | --- |',
    ...run.results.map((result) => {
      const last = result.attempts.at(-1);
      const links = [
        last?.links.page ? `[page](${last.links.page})` : '',
        last?.links.video ? `[video](${last.links.video})` : '',
        last?.links.screenshot ? `[screenshot](${last.links.screenshot})` : '',
      ]
        .filter(Boolean)
        .join(' · ');
      return `| ${ICON[result.status]} | ${cell(result.test.title)} | \`${cell(result.test.file)}\` | ${formatDuration(result.durationMs)} | ${result.attempts.length} | ${links} |`;
    }),
  ];
  for (const result of run.results.filter((r) => r.status === 'failed')) {
    const last = result.attempts.at(-1);
    const step = last?.failedStep;
    out.push('', `### ❌ ${result.test.title}`, '');
    if (step) {
      out.push(
        `- Failing step ${step.index}/${step.count}${step.line ? ` (line ${step.line})` : ''}: ${step.text}`,
      );
      if (step.error) out.push(`- Error: ${step.error}`);
    } else if (last?.message) out.push(`- Error: ${last.message}`);
    if (last?.summary) out.push(`- Summary: ${last.summary}`);
  }
  return `${out.join('\n')}\n`;
}
