import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { compileUserPattern, interpretQuery } from '../libs/browser-agent/dist/index.js';

/**
 * Issue 32: how long hostile test text holds a process. The interpreter reading 20,000 characters
 * of adversarial instructions (what `POST /v1/instructions/check` and a worker do), and RE2
 * matching catastrophic patterns against long text (what a "matches" check does). Standalone:
 * `node bench/hostile-input.ts` after `pnpm run build`; results in bench/results/hostile-input.md.
 */

const QUERY_MAX = 20_000;

const QUERIES: Record<string, string> = {
  '19,985 spaces in a step': `Click${' '.repeat(19_985)}"Save"`,
  '10,000 unclosed "“"': '“a'.repeat(10_000),
  '10,000 "a." labels': 'a.'.repeat(10_000),
  '"a and " x 3,000': 'a and '.repeat(3_000),
  '40 "and"s that each read as a step': `${'the url is /x and '.repeat(40)}the "a" "b"`,
  '200 steps of 99 characters': `${'Click "x" '.repeat(9)}\n`.repeat(200).slice(0, QUERY_MAX),
  '80 lines of 13 "and"s': `${'the url is /x and '.repeat(13)}the "a" "b"\n`.repeat(80).slice(0, QUERY_MAX),
};

const PATTERNS: [string, string, string][] = [
  ['/^(a+)+$/', '33 characters', `${'a'.repeat(32)}!`],
  ['/^(a+)+$/', '1 MB', `${'a'.repeat(1_000_000)}!`],
  ['/(a|aa)+$/', '1 MB', `${'a'.repeat(1_000_000)}!`],
  ['/(.*a){20}/s', '1 MB', 'a'.repeat(1_000_000)],
];

function time(fn: () => unknown, rounds = 5): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

export function runHostileInput(): string[] {
  const lines = ['| input | characters | median ms | result |', '| --- | ---: | ---: | --- |'];
  for (const [name, query] of Object.entries(QUERIES)) {
    let outcome = '';
    const ms = time(() => {
      const read = interpretQuery(query);
      outcome = read.ok ? `${read.steps.length} steps` : read.limit ? 'refused (limit)' : 'not understood';
    });
    lines.push(`| ${name} | ${query.length} | ${ms.toFixed(1)} | ${outcome} |`);
  }
  for (const [pattern, size, text] of PATTERNS) {
    let matched = false;
    const ms = time(() => (matched = compileUserPattern(pattern).test(text)));
    lines.push(
      `| \`${pattern.replace(/\|/g, '\\|')}\` on ${size} | ${text.length} | ${ms.toFixed(1)} | ${matched ? 'match' : 'no match'} |`,
    );
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(runHostileInput().join('\n'));
}
