import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';

/**
 * bench/results/<stamp>.json holds every figure of a run (git-ignored); bench/results/latest.md is
 * the readable summary that is kept in git. Each benchmark owns one marked section of latest.md, so
 * running only some of them (`--only`) updates those sections and leaves the others as they were.
 */

const start = (name: string) => `<!-- bench:${name}:start -->`;
const end = (name: string) => `<!-- bench:${name}:end -->`;

export function writeJson(resultsDir: string, stamp: string, data: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

function readSections(file: string, order: readonly string[]): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(file)) return sections;
  const text = readFileSync(file, 'utf8');
  for (const name of order) {
    const from = text.indexOf(start(name));
    const to = text.indexOf(end(name));
    if (from !== -1 && to > from) sections.set(name, text.slice(from + start(name).length, to).trim());
  }
  return sections;
}

/**
 * Replaces the given sections of latest.md (keeping the others) and formats it like the repository
 * does. Sections appear in this order: the summary, the machine, then `benches` as given.
 */
export async function updateLatestMarkdown(
  resultsDir: string,
  updates: Map<string, string>,
  benches: readonly string[],
): Promise<string> {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, 'latest.md');
  const order = ['summary', 'machine', ...benches];
  const sections = readSections(file, order);
  for (const [name, body] of updates) sections.set(name, body);
  const parts = [
    '# Benchmark results',
    '',
    'Written by `node bench/run.ts` (see `bench/README.md`); every figure of a run is in `bench/results/<date>.json`.',
  ];
  for (const name of order) {
    const body = sections.get(name);
    if (body === undefined) continue;
    parts.push('', start(name), '', body, '', end(name));
  }
  const options = (await prettier.resolveConfig(file)) ?? {};
  const formatted = await prettier.format(`${parts.join('\n')}\n`, { ...options, filepath: file });
  writeFileSync(file, formatted);
  return file;
}
