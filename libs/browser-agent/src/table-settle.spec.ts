import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { DEBOUNCED_TABLE, DIV_GRID, LOADING_TABLE, PAGED_LIST, SMALL_GRID } from '../testing/table-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const LIMITS: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 3000,
  assertionTimeoutMs: 1500,
};

describe('counts of rows read the settled table, data rows only (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite({
      '/users': DEBOUNCED_TABLE,
      '/orders': LOADING_TABLE,
      '/cars': DIV_GRID,
      '/grid': SMALL_GRID,
      '/paged': PAGED_LIST,
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: LIMITS });
  }

  /** The run failed, at the step saying `text`. */
  function failsAt(result: RunResult, text: string): string {
    expect(result.verdict).toBe('failed');
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed?.text).toContain(text);
    return failed?.error ?? '';
  }

  it('counts the data rows after a debounced filter has run', async () => {
    const result = await run(`Open $SITE/users
      Type "ad" into the Search field
      The Users table has 2 rows`);
    expect(result.verdict).toBe('succeeded');
  });

  it('fails a count that only held before the debounced filter ran', async () => {
    const result = await run(`Open $SITE/users
      Type "ad" into the Search field
      The Users table has 5 rows`);
    expect(failsAt(result, 'has 5 rows')).toContain('2 data rows');
  });

  it('counts no header, footer or other table rows: 5 users, not 6, 7 or 9', async () => {
    expect((await run(`Open $SITE/users\nThe Users table has 5 rows`)).verdict).toBe('succeeded');
    for (const wrong of [6, 7, 9]) {
      failsAt(await run(`Open $SITE/users\nThe Users table has ${wrong} rows`), `${wrong} rows`);
    }
  });

  it('never counts the "No matching records found" row', async () => {
    const none = await run(`Open $SITE/users
      Type "zzz" into the Search field
      The Users table has 0 rows`);
    expect(none.verdict).toBe('succeeded');
    const one = await run(`Open $SITE/users
      Type "zzz" into the Search field
      The Users table has 1 row`);
    expect(failsAt(one, '1 row')).toContain('No matching records found');
  });

  it('an unnamed row count on a page of two tables names the ambiguity instead of adding them up', async () => {
    const result = await run(`Open $SITE/users\nThere are 6 rows`);
    expect(failsAt(result, '6 rows')).toContain('2 tables');
  });

  it('waits for rows that arrive after load, and a "Loading…" row is not a row', async () => {
    expect((await run(`Open $SITE/orders\nThe table has 3 rows`)).verdict).toBe('succeeded');
    failsAt(await run(`Open $SITE/orders\nThe table has 1 row`), '1 row');
  });

  it('an ARIA grid with pinned and centre containers counts each row once, virtualised rows by aria-rowcount', async () => {
    expect((await run(`Open $SITE/cars\nThe table has 1000 rows`)).verdict).toBe('succeeded');
    failsAt(await run(`Open $SITE/cars\nThe table has 6 rows`), '6 rows');
    failsAt(await run(`Open $SITE/cars\nThe table has 3 rows`), '3 rows');
  });

  it('a div grid filtered after a pause: the filtered count holds, the pre-filter count fails', async () => {
    const pass = await run(`Open $SITE/grid
      Type "a" into the Filter field
      There are 2 rows`);
    expect(pass.verdict).toBe('succeeded');
    failsAt(
      await run(`Open $SITE/grid
      Type "a" into the Filter field
      There are 3 rows`),
      '3 rows',
    );
    failsAt(
      await run(`Open $SITE/grid
      Type "a" into the Filter field
      There are at least 3 rows`),
      'at least 3 rows',
    );
  });

  it('reads a grid row in display order (aria-rowindex), its cells by aria-colindex', async () => {
    const pass = await run(`Open $SITE/cars
      The first row's Make is "Toyota"
      The Model of the first row is "Celica"
      The Price column contains "72000"
      Row 3 contains "Porsche"`);
    expect(pass.verdict).toBe('succeeded');
    failsAt(await run(`Open $SITE/cars\nThe first row's Make is "Ford"`), 'Make is');
    // The header says ascending; the rows are not: the data decides.
    expect(failsAt(await run(`Open $SITE/cars\nThe table is sorted by Model`), 'sorted')).toContain(
      'Boxster',
    );
  });

  it('sorts, reads cells and pages on a plain table', async () => {
    const sorted = await run(`Open $SITE/orders
      Click "Name"
      The table is sorted by Name
      The first row's Name is "Anvil"
      The price of "Blue mug" is "€12"`);
    expect(sorted.verdict).toBe('succeeded');
    failsAt(await run(`Open $SITE/orders\nClick "Name"\nThe table is sorted by Price`), 'sorted by Price');
    failsAt(await run(`Open $SITE/orders\nThe table shows "€12" and "€1"`), 'shows');
    expect((await run(`Open $SITE/paged\nPage 2 of 5 is shown`)).verdict).toBe('succeeded');
    failsAt(await run(`Open $SITE/paged\nPage 2 of 4 is shown`), 'Page 2 of 4');
    failsAt(await run(`Open $SITE/paged\nPage 3 is shown`), 'Page 3');
  });
});
