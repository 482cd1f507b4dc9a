import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentLog, interpretQuery, launchLocalBrowser, runInterpreter } from '@suite/browser-agent';
import type { Browser } from 'puppeteer-core';
import { COMPOUND_SENTENCES } from '../../bench/fixtures/plain-english/compound-sentences.js';
import { DATES_AND_TIMES } from '../../bench/fixtures/plain-english/dates-and-times.js';
import { DIALOGS } from '../../bench/fixtures/plain-english/dialogs.js';
import { FORMS_AND_LOGIN } from '../../bench/fixtures/plain-english/forms-and-login.js';
import { MENUS } from '../../bench/fixtures/plain-english/menus.js';
import { NAVIGATION } from '../../bench/fixtures/plain-english/navigation.js';
import { PLURAL_AND_ORDINAL } from '../../bench/fixtures/plain-english/plural-and-ordinal.js';
import { RICH_TEXT } from '../../bench/fixtures/plain-english/rich-text.js';
import { SELECTS_AND_AUTOCOMPLETE } from '../../bench/fixtures/plain-english/selects-and-autocomplete.js';
import { SLIDERS_AND_SPINNERS } from '../../bench/fixtures/plain-english/sliders-and-spinners.js';
import { TABLES_AND_GRIDS } from '../../bench/fixtures/plain-english/tables-and-grids.js';
import { TABS_AND_ACCORDIONS } from '../../bench/fixtures/plain-english/tabs-and-accordions.js';
import { TODO_APPS } from '../../bench/fixtures/plain-english/todo-apps.js';
import { TREES } from '../../bench/fixtures/plain-english/trees.js';
import { VALUES_FROM_THE_PAGE } from '../../bench/fixtures/plain-english/values-from-the-page.js';
import { WEB_TASKS } from '../../bench/fixtures/plain-english/web-tasks.js';
import { WEB_TASKS_MORE } from '../../bench/fixtures/plain-english/web-tasks-more.js';
import { LIBRARY_PAGES } from '../../bench/fixtures/plain-english/library-pages.js';
import { CORPUS } from '../../bench/fixtures/plain-english/corpus.js';
import type { CorpusFamily } from '../../bench/fixtures/plain-english/corpus-types.js';
import {
  type CaseOutcome,
  type CorpusCase,
  type CorpusLimits,
  type CorpusSite,
  expandCases,
  repoRoot,
  runCorpus,
  type RunTest,
  serveCorpus,
} from '../../bench/support/plain-english-corpus.js';

/**
 * "No new phrasing may break an old one" (issue 33): the plain-English corpus of
 * bench/fixtures/plain-english in CI. Every must-pass case the committed baseline records as
 * succeeding must still succeed, and no must-fail case may succeed, except the known false passes
 * the baseline lists with their reason (shown here as todo, so the list stays visible). Regenerate
 * the baseline with `node bench/plain-english.ts --baseline` after `pnpm run build`.
 *
 * The corpus runs as several spec files (plain-english-corpus-*.spec.ts), each with some of the
 * families (PARTS), so Jest's two workers share its minutes instead of one running it alone;
 * plain-english-corpus.spec.ts checks that the parts hold every family once.
 */

/** Every family, as the bench lists them (`bench/fixtures/plain-english/corpus.ts`). */
export const FAMILIES: readonly CorpusFamily[] = CORPUS;

/** The spec files' families, about a third of the cases each (web tasks alone are a quarter). */
export const PARTS = {
  'web tasks, forms': [WEB_TASKS, FORMS_AND_LOGIN],
  'sentences, lists, tables, selects, dates': [
    COMPOUND_SENTENCES,
    PLURAL_AND_ORDINAL,
    TODO_APPS,
    TABLES_AND_GRIDS,
    SELECTS_AND_AUTOCOMPLETE,
    DATES_AND_TIMES,
  ],
  'widgets, navigation, values': [
    SLIDERS_AND_SPINNERS,
    MENUS,
    TABS_AND_ACCORDIONS,
    DIALOGS,
    RICH_TEXT,
    TREES,
    NAVIGATION,
    VALUES_FROM_THE_PAGE,
    WEB_TASKS_MORE,
    LIBRARY_PAGES,
  ],
} satisfies Record<string, CorpusFamily[]>;

interface Baseline {
  passing: string[];
  knownFalsePasses: Record<string, string>;
  unstable: Record<string, string>;
}

export const ROOT = repoRoot(import.meta.dirname);
export const baseline = JSON.parse(
  readFileSync(join(import.meta.dirname, 'plain-english-baseline.json'), 'utf8'),
) as Baseline;

/** Generous for the cases that must pass: a loaded machine must not turn them into failures. */
const MUST_PASS: CorpusLimits = {
  navigationTimeoutMs: 30_000,
  actionTimeoutMs: 10_000,
  assertionTimeoutMs: 5_000,
};
/** Short for the cases that must fail: a shorter wait can only make a run fail sooner, never pass. */
const MUST_FAIL: CorpusLimits = {
  navigationTimeoutMs: 30_000,
  actionTimeoutMs: 2_000,
  assertionTimeoutMs: 1_000,
};

/**
 * One part of the corpus: its families' cases (ids are unique across the corpus, so the baseline's
 * lists apply as they are) and the baseline's todo lines for them.
 */
export function describeCorpusPart(part: keyof typeof PARTS): void {
  const families: CorpusFamily[] = PARTS[part];
  const cases = expandCases(families);
  const ids = new Set(cases.map((c) => c.id));
  const passing = new Set(baseline.passing);
  const toRun = cases.filter((c) =>
    c.expect === 'succeeded' ? passing.has(c.id) : !(c.id in baseline.knownFalsePasses),
  );

  describe(`the plain-English corpus in real Chromium (bench/fixtures/plain-english): ${part}`, () => {
    const outcomes = new Map<string, CaseOutcome>();
    const rerunPassed: string[] = [];
    let browser: Browser | undefined;
    let site: CorpusSite | undefined;

    beforeAll(async () => {
      // Every family's pages: a case may open one of another family's (compound sentences log in).
      site = await serveCorpus(FAMILIES, ROOT);
      browser = await launchLocalBrowser();
      // As runInstructionTest: a query with a step not understood is refused before any browser work.
      const runTest: RunTest = async ({ openPage, query, limits }) => {
        const interpreted = interpretQuery(query);
        if (!interpreted.ok)
          return { verdict: 'failed', rejected: true, summary: interpreted.summary, steps: [] };
        const page = await openPage();
        const result = await runInterpreter({ page, steps: interpreted.steps, log: new AgentLog(), limits });
        return { verdict: result.verdict, rejected: false, summary: result.summary, steps: result.steps };
      };
      const options = {
        browser,
        site,
        runTest,
        limitsFor: (c: CorpusCase) => (c.expect === 'succeeded' ? MUST_PASS : MUST_FAIL),
      };
      const list = await runCorpus({ ...options, cases: toRun, parallel: 4 });
      for (const outcome of list) outcomes.set(outcome.id, outcome);
      // A busy 2-core CI machine runs four pages at once next to other suites: a must-pass case that
      // failed gets one more run, alone. A phrasing that broke fails that run too; a case that only
      // lost a race with the machine's load does not, and is listed below. (More than 10 failed in
      // one part: something broke, and running them again would only take time.)
      const again = toRun.filter(
        (c) => c.expect === 'succeeded' && outcomes.get(c.id)?.verdict !== 'succeeded',
      );
      if (again.length > 0 && again.length <= 10) {
        for (const outcome of await runCorpus({ ...options, cases: again, parallel: 1 })) {
          if (outcome.verdict === 'succeeded') rerunPassed.push(outcome.id);
          outcomes.set(outcome.id, outcome);
        }
      }
    }, 20 * 60_000);

    afterAll(async () => {
      if (rerunPassed.length > 0)
        process.stdout.write(
          `plain-English corpus: passed only when run again alone: ${rerunPassed.join(', ')}\n`,
        );
      await browser?.close();
      await site?.close();
    });

    for (const test of toRun) {
      if (test.expect === 'succeeded') {
        it(`${test.id} still succeeds (${test.family}, ${test.voice})`, () => {
          const outcome = outcomes.get(test.id);
          expect({ verdict: outcome?.verdict, failedStep: outcome?.failedStep }).toEqual({
            verdict: 'succeeded',
            failedStep: undefined,
          });
        });
      } else {
        it(`${test.id} does not succeed (${test.family}, ${test.voice})`, () => {
          const outcome = outcomes.get(test.id);
          expect({
            verdict: outcome?.verdict,
            summary: outcome?.verdict === 'failed' ? '' : outcome?.summary,
          }).toEqual({
            verdict: 'failed',
            summary: '',
          });
        });
      }
    }

    for (const [id, reason] of Object.entries(baseline.knownFalsePasses)) {
      if (ids.has(id)) it.todo(`KNOWN FALSE PASS ${id}: ${reason}`);
    }
    for (const [id, reason] of Object.entries(baseline.unstable)) {
      if (ids.has(id)) it.todo(`UNSTABLE (its verdict hangs on timing) ${id}: ${reason}`);
    }
  });
}
