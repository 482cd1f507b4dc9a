import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CannonResult } from './cannon.ts';
import type { AppProcess } from './processes.ts';
import { summarizeProfile, type ProfileSummary } from './profile-summary.ts';
import { round, sleep } from './stats.ts';

/**
 * A load run under V8's sampling profiler of one app process, for the benchmarks that explain a
 * missed aim (or run with `--profile`): start the app with `profilerNodeArgs` and
 * `BENCH_CPU_PROFILE=<file>` in its environment, warm it up, then call `underProfiler`.
 */

export interface ProfiledLoad {
  connections: number;
  durationS: number;
  rpsUnderProfiler: number;
  file: string;
  summary: ProfileSummary;
}

/** Preloads bench/support/cpu-profiler.ts, which SIGWINCH starts and stops. */
export const profilerNodeArgs = [
  '--import',
  pathToFileURL(join(import.meta.dirname, 'cpu-profiler.ts')).href,
];

/** Profiles `app` while `load` runs; resolves once the profile is written and summarized. */
export async function underProfiler(
  app: AppProcess,
  file: string,
  connections: number,
  durationS: number,
  load: () => Promise<CannonResult>,
): Promise<ProfiledLoad> {
  process.kill(app.pid, 'SIGWINCH');
  await sleep(300);
  const result = await load();
  if (app.child.exitCode !== null || app.child.signalCode !== null) {
    throw new Error(`the profiled process stopped during the load:\n${app.tail()}`);
  }
  process.kill(app.pid, 'SIGWINCH');
  const deadline = Date.now() + 20_000;
  while (!(existsSync(file) && statSync(file).size > 0)) {
    if (Date.now() > deadline) throw new Error(`the profile was not written:\n${app.tail()}`);
    await sleep(200);
  }
  return {
    connections,
    durationS,
    rpsUnderProfiler: round(result.requests.average, 0),
    file,
    summary: summarizeProfile(file),
  };
}

/** The report's section on a profile: where the process spends its CPU. */
export function profileMarkdown(app: string, p: ProfiledLoad): string[] {
  return [
    `### Where ${app} spends its CPU (V8 sampling profile, ${p.durationS} s at ${p.connections} connections, ${p.rpsUnderProfiler} req/s under the profiler)`,
    '',
    `Main thread busy ${p.summary.busyPercent}% of ${Math.round(p.summary.sampledMs / 1000)} s. Each sample is charged to the innermost library on its stack (Node's socket writes made by ioredis count as ioredis):`,
    '',
    '| where | share of busy time |',
    '| --- | --- |',
    ...p.summary.selfByCategory
      .filter((c) => c.category !== 'idle')
      .map((c) => `| ${c.category} | ${c.percent}% |`),
    '',
    'Inclusive (a frame of it anywhere on the stack): ' +
      p.summary.inclusive.map((c) => `${c.category} ${c.percent}%`).join(', ') +
      '.',
    '',
    'Busiest functions (self time): ' +
      p.summary.topFunctions
        .slice(0, 8)
        .map((f) => `\`${f.fn}\` ${f.percent}%`)
        .join(', ') +
      '.',
    '',
    `Profile file: \`${p.file.replace(/^.*\/bench\//, 'bench/')}\` (open it in Chrome DevTools → Performance, or speedscope).`,
  ];
}
