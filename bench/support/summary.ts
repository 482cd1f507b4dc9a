import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';

/**
 * The summary table of latest.md, from the latest full-size result of every benchmark whichever run
 * produced it. bench/results/summary.json (kept in git) holds each benchmark's latest rows; every
 * full-size run (`--only` included, `--quick` never) replaces the rows of the benchmarks it ran and
 * the table is rewritten from the whole file.
 */

export interface SummaryRow {
  benchmark: string;
  aim: string;
  measured: string;
  /** Whether the aim was met; null for rows without an aim. */
  met: boolean | null;
}

interface SummaryFile {
  about: string;
  benchmarks: Record<string, { run: string; rows: SummaryRow[] }>;
}

const ABOUT =
  "Latest full-size result of each benchmark (written by node bench/run.ts; latest.md's summary table is made from it).";

function read(file: string): SummaryFile {
  if (!existsSync(file)) return { about: ABOUT, benchmarks: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as SummaryFile;
}

/** Stores the rows of the benchmarks a run produced; returns the summary section's markdown. */
export async function updateSummary(
  resultsDir: string,
  /** The run's start, e.g. 2026-11-25T12:00:00.000Z. */
  startedAt: string,
  rows: Map<string, SummaryRow[]>,
  order: readonly string[],
): Promise<string> {
  const file = join(resultsDir, 'summary.json');
  const summary = read(file);
  const run = startedAt.slice(0, 16).replace('T', ' ');
  for (const [name, benchRows] of rows) summary.benchmarks[name] = { run, rows: benchRows };
  const ordered: SummaryFile = {
    about: ABOUT,
    benchmarks: Object.fromEntries(
      Object.entries(summary.benchmarks).sort(
        ([a], [b]) => rank(order, a) - rank(order, b) || a.localeCompare(b),
      ),
    ),
  };
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(
    file,
    await prettier.format(JSON.stringify(ordered, null, 2), { ...options, filepath: file }),
  );
  return summaryMarkdown(ordered);
}

const rank = (order: readonly string[], name: string): number => {
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
};

function summaryMarkdown(summary: SummaryFile): string {
  const verdict = (met: boolean | null): string => (met === null ? '' : met ? 'met' : '**not met**');
  return [
    '## Summary',
    '',
    'The latest full-size result of each benchmark (from `bench/results/summary.json`); the last column says which run measured it.',
    '',
    '| benchmark | aim | measured | | run (UTC) |',
    '| --- | --- | --- | --- | --- |',
    ...Object.values(summary.benchmarks).flatMap(({ run, rows }) =>
      rows.map((r) => `| ${r.benchmark} | ${r.aim} | ${r.measured} | ${verdict(r.met)} | ${run} |`),
    ),
  ].join('\n');
}
