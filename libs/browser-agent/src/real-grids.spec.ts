import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { REAL_GRID_ROUTES, withPackageFiles } from '../testing/real-grid-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const LIMITS: Partial<RunLimits> = {
  navigationTimeoutMs: 8000,
  actionTimeoutMs: 4000,
  assertionTimeoutMs: 2500,
};

describe('table assertions on real grid libraries from npm (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite(withPackageFiles(REAL_GRID_ROUTES));
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: LIMITS });
  }

  /** Each test's verdict and, when it failed, the step that failed. */
  async function verdicts(start: string, tests: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const test of tests) {
      const result = await run(`Open $SITE${start}\n${test}`);
      const failed = result.steps.find((step) => step.status === 'failed');
      out.push(
        result.verdict === 'succeeded' ? 'pass' : `fail at ${failed?.index ?? '?'}: ${failed?.error ?? ''}`,
      );
    }
    return out;
  }

  it('DataTables: data rows of the current page, its "No matching records found" row is not one', async () => {
    const results = await verdicts('/datatables', [
      'The table has 3 rows\nThe first row\'s Name is "Ada Lovelace"\nRow 2 contains "Grace"\nPage 1 of 2 is shown',
      'The table has 5 rows',
      'Type "ada" into the Search field\nThe table has 2 rows\nThe table shows "Ada Lovelace" and "Adam Smith"\nThe table does not show "Grace"',
      'Type "lovelace" into the Search field\nThe table has 2 rows',
      'Type "zzz" into the Search field\nThe table is empty',
      'Type "zzz" into the Search field\nThe table has 1 row',
      'Click "Name"\nThe table is sorted by Name\nThe first row\'s Name is "Ada Lovelace"',
      'Click "Name"\nThe table is sorted by Name descending',
      'Click "2"\nPage 2 of 2 is shown\nThe table has 2 rows\nThe Email column contains "adam@x.io"',
      'The Email column contains "adam@x.io"',
    ]);
    expect(results.map((r) => r.split(':')[0])).toEqual([
      'pass',
      'fail at 2',
      'pass',
      'fail at 3',
      'pass',
      'fail at 3',
      'pass',
      'fail at 3',
      'pass',
      'fail at 2',
    ]);
    expect(results[5]).toContain('No matching records found');
  });

  it('ag-grid: rows split over the pinned and centre containers count once, after its quick filter', async () => {
    const results = await verdicts('/ag-grid', [
      'The grid has 5 rows\nThe Name of the first row is "Ada Lovelace"\nThe first row\'s Email is "ada@x.io"',
      'The grid has 10 rows',
      'Type "ad" into the Quick filter field\nThe grid shows 2 results\nThe grid shows "Ada Lovelace" and "Adam Smith"',
      'Type "ad" into the Quick filter field\nThe grid shows 5 results',
      'Type "ad" into the Quick filter field\nThe grid does not show "Adam Smith"',
      'Type "zzz" into the Quick filter field\nThe grid is empty',
      'Click "Age"\nThe table is sorted by Age\nThe last row\'s Name is "Grace Hopper"',
      'Click "Age"\nThe table is sorted by Name',
    ]);
    expect(results.map((r) => r.split(':')[0])).toEqual([
      'pass',
      'fail at 2',
      'pass',
      'fail at 3',
      'fail at 3',
      'pass',
      'pass',
      'fail at 3',
    ]);
  });

  it('Grid.js: its debounced search and its "No matching records found" row', async () => {
    const results = await verdicts('/gridjs', [
      'The table has 5 rows\nThe table shows "Ada Lovelace", "Linus Torvalds" and "Adam Smith"',
      'The table shows "Ada Lovelace" and "Ada King"',
      'Type "linus" into the "Type a keyword..." field\nThe table has 1 row\nThe first row\'s Email is "linus@x.io"',
      'Type "linus" into the "Type a keyword..." field\nThe table has 5 rows',
      'Type "nobody" into the "Type a keyword..." field\nThe table has 0 rows',
      'Type "nobody" into the "Type a keyword..." field\nThe table has 1 row',
    ]);
    expect(results.map((r) => r.split(':')[0])).toEqual([
      'pass',
      'fail at 2',
      'pass',
      'fail at 3',
      'pass',
      'fail at 3',
    ]);
  });
});
