import {
  SuiteRunStatus,
  SuiteTestVerdict,
  type FlippingTestDto,
  type SuiteOverviewDto,
  type SuiteRunDto,
} from '@suite/contracts';
import type { Suite } from './suite.repository.js';

/**
 * A suite's recent history from its last runs (newest first): the pass rate over the finished
 * ones, and the tests (by title) whose verdict went from passed to failed or back between two
 * consecutive finished runs. A cancelled or pending test breaks no streak and makes no flip.
 */
export function suiteOverviewOf(suite: Suite, runs: SuiteRunDto[]): SuiteOverviewDto {
  const finished = runs.filter((run) => run.status !== SuiteRunStatus.Running);
  const passedRuns = finished.filter((run) => run.status === SuiteRunStatus.Passed).length;
  const histories = new Map<string, SuiteTestVerdict[]>();
  for (const run of finished)
    for (const test of run.tests) {
      const history = histories.get(test.title) ?? [];
      history.push(test.verdict);
      histories.set(test.title, history);
    }
  const flipping: FlippingTestDto[] = [];
  for (const [title, history] of histories) {
    const decided = history.filter((v) => v === SuiteTestVerdict.Passed || v === SuiteTestVerdict.Failed);
    const flips = decided.filter((v, i) => i > 0 && v !== decided[i - 1]).length;
    if (flips > 0) flipping.push({ title, flips, history });
  }
  flipping.sort((a, b) => b.flips - a.flips || a.title.localeCompare(b.title));
  return {
    id: suite.id,
    name: suite.name,
    schedule: suite.schedule,
    tests: Array.isArray(suite.tests) ? suite.tests.length : 0,
    last_runs: runs.map(({ tests: _tests, suite_id: _suite, ...brief }) => brief),
    pass_rate: finished.length ? passedRuns / finished.length : null,
    flipping_tests: flipping,
  };
}
