import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, sep } from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import type { CorpusFamily, CorpusRoute, Family, Voice } from '../fixtures/plain-english/corpus-types.ts';

/**
 * Runs the plain-English corpus (bench/fixtures/plain-english): expands each test into its must-pass
 * case and its must-fail twin, serves the pages and the npm packages they load on 127.0.0.1, runs the
 * cases in a few tabs of one browser and judges each verdict. Shared by `bench/plain-english.ts` and
 * the CI spec (test/plain-english); it imports only types and Node, and the interpreter is passed in,
 * so the bench runs the built `dist/` and the spec the sources.
 */

export type Expect = 'succeeded' | 'failed';

export interface CorpusCase {
  /** `<test id>:pass` or `<test id>:fail`. */
  id: string;
  family: Family;
  voice: Voice;
  expect: Expect;
  /** The test as run, `$SITE` still in it. */
  text: string;
  /** The side of the marker this case took (for a must-fail case: the wrong expectation or page). */
  fragment: string;
}

const MARKER = /\{\{([^{}|]*)\|([^{}]*)\}\}/g;

/** Both cases of every test, in corpus order. Throws on a test without exactly one marker or a duplicate id. */
export function expandCases(families: readonly CorpusFamily[]): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const seen = new Set<string>();
  for (const { tests } of families) {
    for (const test of tests) {
      const markers = [...test.text.matchAll(MARKER)];
      if (markers.length !== 1)
        throw new Error(`${test.id}: ${markers.length} {{right|wrong}} markers, want 1`);
      if (seen.has(test.id)) throw new Error(`${test.id}: duplicate id`);
      seen.add(test.id);
      const [, right = '', wrong = ''] = markers[0] ?? [];
      const text = test.text.replace(/^\n+|\s+$/g, '').replace(/^[ \t]+/gm, '');
      for (const [expect, fragment] of [
        ['succeeded', right],
        ['failed', wrong],
      ] as const) {
        cases.push({
          id: `${test.id}:${expect === 'succeeded' ? 'pass' : 'fail'}`,
          family: test.family,
          voice: test.voice,
          expect,
          // A function, so "$2" in a fragment ("$20 per seat") is text, not a replacement pattern.
          text: text.replace(MARKER, () => fragment),
          fragment,
        });
      }
    }
  }
  return cases;
}

/** The number of step phrasings (non-empty lines) in the must-pass cases. */
export function countPhrasings(cases: readonly CorpusCase[]): number {
  return cases
    .filter((c) => c.expect === 'succeeded')
    .reduce((sum, c) => sum + c.text.split('\n').filter((line) => line.trim()).length, 0);
}

/** The checkout's root: the nearest folder up from `from` with a pnpm-workspace.yaml. */
export function repoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
    dir = up;
  }
  return dir;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export interface CorpusSite {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves every family's pages at their paths and `/pkg/<package>/<file>` from the packages in the
 * root's node_modules (devDependencies, installed by `pnpm install`: nothing is fetched at run time).
 */
export async function serveCorpus(families: readonly CorpusFamily[], root: string): Promise<CorpusSite> {
  const routes = new Map<string, CorpusRoute>();
  for (const family of families)
    for (const [path, route] of Object.entries(family.pages)) routes.set(path, route);
  const packages = new Map<string, string | null>();
  const packageDir = (name: string): string | null => {
    if (!packages.has(name)) {
      const dir = join(root, 'node_modules', ...name.split('/'));
      packages.set(name, existsSync(dir) ? realpathSync(dir) : null);
    }
    return packages.get(name) ?? null;
  };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const route = routes.get(path);
    if (route !== undefined) {
      const [type, body] =
        typeof route === 'string' ? ['text/html; charset=utf-8', route] : [route.contentType, route.body];
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
      return;
    }
    const match = /^\/pkg\/((?:@[^/]+\/)?[^/@]+)\/(.+)$/.exec(path);
    const dir = match?.[1] ? packageDir(match[1]) : null;
    const file = dir && match?.[2] ? normalize(join(dir, match[2])) : undefined;
    if (!dir || !file || !file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'max-age=3600',
      })
      .end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface CorpusLimits {
  navigationTimeoutMs: number;
  actionTimeoutMs: number;
  assertionTimeoutMs: number;
}

/** What the interpreter returned, as far as judging needs it. */
export interface TestRun {
  verdict: Expect;
  rejected: boolean;
  summary: string;
  steps: readonly { index: number; text: string; status: string; error?: string }[];
}

/**
 * Runs one test. `openPage` gives a fresh page in a context of its own; a runner that refuses the
 * query before any browser work (a step not understood) need not call it, which saves a context.
 */
export type RunTest = (options: {
  openPage: () => Promise<Page>;
  query: string;
  limits: CorpusLimits;
}) => Promise<TestRun>;

export interface CaseOutcome {
  id: string;
  family: Family;
  voice: Voice;
  expect: Expect;
  verdict: Expect;
  /** The verdict is the expected one. */
  right: boolean;
  /** The query was refused before the browser ran (a step not understood). */
  rejected: boolean;
  /**
   * For a must-fail case: it failed where the wrong expectation is (the failing step quotes it), or,
   * when the twin differs by its page, it failed while running rather than being refused.
   */
  failedAsIntended?: boolean;
  /** The step that failed (or the first not understood). */
  failedStep?: { index: number; text: string; error: string };
  summary: string;
  /** Uncaught errors of the page (a broken fixture shows here). */
  pageErrors: string[];
  ms: number;
}

/** Judges one run against its case. */
export function judge(test: CorpusCase, run: TestRun, pageErrors: string[], ms: number): CaseOutcome {
  const failed = run.steps.find((s) => s.status === 'failed');
  const outcome: CaseOutcome = {
    id: test.id,
    family: test.family,
    voice: test.voice,
    expect: test.expect,
    verdict: run.verdict,
    right: run.verdict === test.expect,
    rejected: run.rejected,
    summary: run.summary,
    pageErrors,
    ms,
  };
  if (failed) outcome.failedStep = { index: failed.index, text: failed.text, error: failed.error ?? '' };
  else if (run.rejected) {
    const quoted = /step (\d+): "([^\n]*)"/.exec(run.summary);
    outcome.failedStep = {
      index: Number(quoted?.[1] ?? 0),
      text: quoted?.[2] ?? '',
      error: 'not understood',
    };
  }
  if (test.expect === 'failed') {
    const fragment = test.fragment.trim().toLowerCase();
    const quotesIt = (text: string) => fragment !== '' && text.toLowerCase().includes(fragment);
    outcome.failedAsIntended =
      run.verdict === 'failed' &&
      !run.rejected &&
      (run.steps.some((s) => quotesIt(s.text)) ? quotesIt(failed?.text ?? '') : true);
  }
  return outcome;
}

/**
 * Runs the cases in `parallel` tabs of one browser (a fresh page per case, in one context per tab)
 * and returns the outcomes in the cases' order.
 */
export async function runCorpus(options: {
  browser: Browser;
  site: CorpusSite;
  cases: readonly CorpusCase[];
  runTest: RunTest;
  limitsFor: (test: CorpusCase) => CorpusLimits;
  parallel: number;
  onOutcome?: (outcome: CaseOutcome, done: number) => void;
}): Promise<CaseOutcome[]> {
  const { browser, site, cases, runTest } = options;
  const outcomes: CaseOutcome[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    // One context per tab, a fresh page per case: the pages keep no state between cases (no cookies
    // or storage), and the shared HTTP and code caches spare reloading the libraries every time.
    let context: BrowserContext | undefined;
    try {
      while (next < cases.length) {
        const index = next++;
        const test = cases[index] as CorpusCase;
        const started = Date.now();
        const pageErrors: string[] = [];
        const pages: Page[] = [];
        const openPage = async () => {
          context ??= await browser.createBrowserContext();
          const page = await context.newPage();
          pages.push(page);
          // Every tab behaves as the focused one (autofocus, focus events), as a job's only tab does.
          await page.emulateFocusedPage(true);
          page.on('pageerror', (error) =>
            pageErrors.push(error instanceof Error ? error.message : String(error)),
          );
          return page;
        };
        try {
          outcomes[index] = judge(test, await runOne(test, openPage), pageErrors, Date.now() - started);
        } finally {
          for (const page of pages) await page.close().catch(() => undefined);
        }
        options.onOutcome?.(outcomes[index] as CaseOutcome, ++done);
      }
    } finally {
      await context?.close().catch(() => undefined);
    }
  };
  const runOne = async (test: CorpusCase, openPage: () => Promise<Page>): Promise<TestRun> => {
    const unsite = (text: string) => text.replaceAll(site.url, '$SITE');
    try {
      const query = test.text.replaceAll('$SITE', site.url);
      const raw = await runTest({ openPage, query, limits: options.limitsFor(test) });
      return {
        ...raw,
        summary: unsite(raw.summary),
        steps: raw.steps.map((s) => ({
          ...s,
          text: unsite(s.text),
          ...(s.error ? { error: unsite(s.error) } : {}),
        })),
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { verdict: 'failed', rejected: false, summary: `the run threw: ${message}`, steps: [] };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
  return outcomes;
}
