/**
 * The runner's benchmarks: `node bench/run.ts` runs all four; `--only pickup,interpreter` some of
 * them; `--quick` a short smoke run (not written to latest.md); `--profile` always profiles jobs-api.
 * Results: bench/results/<date>.json and bench/results/latest.md. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concurrencyMarkdown, runConcurrency, type ConcurrencyResult } from './concurrency.ts';
import { interpreterMarkdown, runInterpreterBench, type InterpreterResult } from './interpreter.ts';
import { pickupMarkdown, runPickup, type PickupResult } from './pickup.ts';
import { runSubmission, submissionMarkdown, type SubmissionResult } from './submission.ts';
import type { BenchContext } from './support/context.ts';
import { BENCH_DATABASE, prepareBenchInfra, type BenchInfra } from './support/infra.ts';
import { machineFacts, type MachineFacts } from './support/machine.ts';
import { machineBusyPercent } from './support/proc.ts';
import { installCleanupHandlers, killEverything, repoRoot } from './support/processes.ts';
import { updateLatestMarkdown, writeJson } from './support/report.ts';
import { withDeadline } from './support/stats.ts';

const BENCHES = ['submission', 'pickup', 'interpreter', 'concurrency'] as const;
type BenchName = (typeof BENCHES)[number];

/** Upper bounds of each benchmark's wall time (full size); a benchmark past it fails and is cleaned up. */
const DEADLINES_MS: Record<BenchName, number> = {
  submission: 6 * 60_000,
  pickup: 5 * 60_000,
  interpreter: 8 * 60_000,
  concurrency: 12 * 60_000,
};

interface Results {
  startedAt: string;
  finishedAt?: string;
  quick: boolean;
  ran: BenchName[];
  machine?: MachineFacts;
  infrastructure?: { servers: string; database: string; redisPrefix: string };
  submission?: SubmissionResult;
  pickup?: PickupResult;
  interpreter?: InterpreterResult;
  concurrency?: ConcurrencyResult;
  errors: { bench: string; message: string }[];
  /** Machine CPU (percent of all cores) just before each benchmark, with the bench idle. */
  background?: Record<string, { busyPercent: number; waitedS: number }>;
}

/** The machine may be shared: wait (a bounded time) for it to quieten down before measuring. */
const QUIET_WAIT_MS = 3 * 60_000;
const QUIET_BUSY_PERCENT = 25;

async function waitForQuiet(maxWaitMs: number): Promise<{ busyPercent: number; waitedS: number }> {
  const started = Date.now();
  for (;;) {
    const busyPercent = await machineBusyPercent(3_000);
    const waitedS = Math.round((Date.now() - started) / 1000);
    if (busyPercent <= QUIET_BUSY_PERCENT) return { busyPercent, waitedS };
    if (Date.now() - started >= maxWaitMs) {
      if (maxWaitMs > 0)
        log(`the machine is still ${busyPercent}% busy with other work after ${waitedS} s; measuring anyway`);
      return { busyPercent, waitedS };
    }
    log(
      `the machine is ${busyPercent}% busy with other work; waiting for it to quieten (up to ${Math.round(maxWaitMs / 1000)} s)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
}

function usage(): string {
  return [
    'usage: node bench/run.ts [--only NAME[,NAME…]] [--quick] [--profile]',
    `  NAME: ${BENCHES.join(', ')} (or 1-4)`,
    '  --quick    shorter runs for a smoke test; results go to <date>-quick.json only',
    '  --profile  profile jobs-api under load even when the submission aims are met',
  ].join('\n');
}

function parseArgs(argv: string[]): { only: BenchName[]; quick: boolean; profile: boolean } {
  let only: BenchName[] = [...BENCHES];
  let quick = false;
  let profile = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(usage());
      process.exit(0);
    } else if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice('--only='.length) : argv[++i];
      if (!value) throw new Error(`--only needs a value\n${usage()}`);
      only = value.split(',').map((raw) => {
        const name = /^\d$/.test(raw) ? BENCHES[Number(raw) - 1] : (raw.trim() as BenchName);
        if (!name || !BENCHES.includes(name)) throw new Error(`unknown benchmark "${raw}"\n${usage()}`);
        return name;
      });
    } else throw new Error(`unknown argument "${arg}"\n${usage()}`);
  }
  return { only: BENCHES.filter((b) => only.includes(b)), quick, profile };
}

function requireBuilt(): void {
  const needed = [
    'apps/jobs-api/dist/main.js',
    'apps/browser-worker/dist/main.js',
    'libs/browser-agent/dist/index.js',
    'tools/devstack/dist/infrastructure.js',
  ];
  const missing = needed.filter((file) => !existsSync(join(repoRoot, file)));
  if (missing.length)
    throw new Error(`not built: ${missing.join(', ')}. Run \`pnpm run build\` (make bench does).`);
}

const log = (message: string): void => {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

function machineMarkdown(results: Results): string {
  const m = results.machine!;
  return [
    '## Machine',
    '',
    `Last run: ${results.startedAt} (${results.ran.join(', ')}). ${m.cores} cores (${m.cpuModel}), ${Math.round(m.memoryMb / 1024)} GB memory, Linux ${m.kernel}, Node ${m.node}, ${m.chromium ?? 'Chromium ?'}, ffmpeg ${m.ffmpeg ?? '?'}, Postgres ${m.postgres ?? '?'}, Redis ${m.redis ?? '?'}, autocannon ${m.autocannon ?? '?'}, puppeteer-core ${m.puppeteer ?? '?'}; commit ${m.gitCommit ?? '?'}${m.gitDirty ? ' with uncommitted changes' : ''}; load average at start ${m.loadAverageAtStart.join(' / ')}. Everything (apps, Postgres, Redis, Chromium, the load generator) shares these cores. Other work on the machine just before each benchmark (percent of all cores): ${Object.entries(
      results.background ?? {},
    )
      .map(([name, b]) => `${name} ${b.busyPercent}%${b.waitedS ? ` (after waiting ${b.waitedS} s)` : ''}`)
      .join(', ')}.`,
  ].join('\n');
}

/**
 * The summary table, from the latest full-size result of each benchmark found in bench/results/
 * (this run's, or an earlier run's for the benchmarks this run skipped), each row with its run.
 */
function summaryMarkdown(resultsDir: string): string | undefined {
  const runs = readdirSync(resultsDir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}T[\d-]+Z\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as Results);
  const latest = <K extends BenchName>(
    name: K,
  ): { value: NonNullable<Results[K]>; at: string } | undefined => {
    const run = runs.findLast((r) => r[name] !== undefined);
    return run ? { value: run[name]!, at: run.startedAt.slice(0, 16).replace('T', ' ') } : undefined;
  };
  const sub = latest('submission');
  const p = latest('pickup');
  const i = latest('interpreter');
  const c = latest('concurrency');
  if (!sub || !p || !i || !c) return undefined;
  const yes = (ok: boolean) => (ok ? 'met' : '**not met**');
  return [
    '## Summary',
    '',
    '| benchmark | aim | measured | | run (UTC) |',
    '| --- | --- | --- | --- | --- |',
    ...sub.value.runs.map(
      (run) =>
        `| submission, ${run.connections} connections | ≥ ${sub.value.aims.rps} req/s, p99 ≤ ${sub.value.aims.p99Ms} ms, 0 errors | ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors | ${yes(run.meetsAims)} | ${sub.at} |`,
    ),
    `| pickup, POST → first step | p50 ≤ ${p.value.aims.p50Ms} ms | p50 ${p.value.toFirstStepMs.p50} ms, p95 ${p.value.toFirstStepMs.p95} ms (POST → running: p50 ${p.value.toClaimMs.p50} ms) | ${yes(p.value.meetsAims)} | ${p.at} |`,
    `| interpreter / hand-written Puppeteer | ≤ ${i.value.aims.ratio}× | ${i.value.ratio}× | ${yes(i.value.meetsAims.ratio)} | ${i.at} |`,
    `| recording overhead | ≤ ${i.value.aims.recordingOverheadPercent}% | +${i.value.recordingOverheadPercent}% (+${i.value.recordingOverheadToVerdictPercent}% up to the verdict) | ${yes(i.value.meetsAims.recording)} | ${i.at} |`,
    ...c.value.runs.map(
      (run) =>
        `| concurrency ${run.concurrency} | (no aim) | ${run.jobsPerMinute} jobs/min, ${run.memory.perConcurrentJobPssMb} MB PSS per concurrent job | | ${c.at} |`,
    ),
  ].join('\n');
}

async function main(): Promise<number> {
  const { only, quick, profile } = parseArgs(process.argv.slice(2));
  requireBuilt();
  const stamp = `${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}Z${quick ? '-quick' : ''}`;
  const resultsDir = join(repoRoot, 'bench', 'results');
  const logDir = mkdtempSync(join(tmpdir(), 'suite-bench-'));
  const artifactsDir = join(logDir, 'artifacts');
  mkdirSync(artifactsDir, { recursive: true });
  const results: Results = { startedAt: new Date().toISOString(), quick, ran: only, errors: [] };

  let infra: BenchInfra | undefined;
  installCleanupHandlers(async () => {
    await infra?.stop().catch(() => undefined);
  });
  log(`benchmarks: ${only.join(', ')}${quick ? ' (quick)' : ''}; app logs in ${logDir}`);
  try {
    infra = await prepareBenchInfra();
    results.infrastructure = { servers: infra.servers, database: BENCH_DATABASE, redisPrefix: infra.prefix };
    results.machine = await machineFacts(infra.databaseUrl, infra.redisUrl);
    const m = results.machine;
    log(
      `machine: ${m.cores} cores, ${m.memoryMb} MB, node ${m.node}, load ${m.loadAverageAtStart.join(' ')}`,
    );
    const ctx: BenchContext = {
      infra,
      logDir,
      artifactsDir,
      resultsDir,
      stamp,
      apiKey: `bench_${randomBytes(18).toString('base64url')}`,
      quick,
      profile,
      log,
    };
    const sections = new Map<string, string>();
    const runners = {
      submission: async () => {
        results.submission = await runSubmission(ctx);
        sections.set('submission', submissionMarkdown(results.submission));
      },
      pickup: async () => {
        results.pickup = await runPickup(ctx);
        sections.set('pickup', pickupMarkdown(results.pickup));
      },
      interpreter: async () => {
        results.interpreter = await runInterpreterBench(ctx);
        sections.set('interpreter', interpreterMarkdown(results.interpreter));
      },
      concurrency: async () => {
        results.concurrency = await runConcurrency(ctx);
        sections.set('concurrency', concurrencyMarkdown(results.concurrency));
      },
    } satisfies Record<BenchName, () => Promise<void>>;
    for (const name of only) {
      results.background ??= {};
      results.background[name] = await waitForQuiet(quick ? 0 : QUIET_WAIT_MS);
      const started = Date.now();
      try {
        await withDeadline(name, DEADLINES_MS[name], runners[name]());
        log(`${name}: done in ${Math.round((Date.now() - started) / 1000)} s`);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        results.errors.push({ bench: name, message });
        log(`${name} FAILED: ${message}`);
        killEverything(); // whatever the failed benchmark left running
      }
    }
    results.finishedAt = new Date().toISOString();
    const json = writeJson(resultsDir, stamp, results);
    log(`results: ${json}`);
    if (!quick) {
      sections.set('machine', machineMarkdown(results));
      const summary = summaryMarkdown(resultsDir);
      if (summary) sections.set('summary', summary);
      log(`summary: ${await updateLatestMarkdown(resultsDir, sections)}`);
    }
    printSummary(results);
    return results.errors.length ? 1 : 0;
  } finally {
    killEverything();
    await infra?.stop().catch(() => undefined);
    if (results.errors.length === 0) rmSync(logDir, { recursive: true, force: true });
    else log(`app logs kept in ${logDir}`);
  }
}

function printSummary(r: Results): void {
  const out: string[] = ['', '=== benchmark summary ==='];
  for (const run of r.submission?.runs ?? []) {
    out.push(
      `submission  ${String(run.connections).padStart(2)} conn: ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, errors ${run.errors} → ${run.meetsAims ? 'aims met' : 'AIMS NOT MET'}`,
    );
  }
  if (r.submission?.profile) {
    const top = r.submission.profile.summary.selfByCategory
      .filter((c) => c.category !== 'idle')
      .slice(0, 6)
      .map((c) => `${c.category} ${c.percent}%`)
      .join(', ');
    out.push(`  jobs-api profile (share of busy CPU): ${top}`);
  }
  if (r.pickup) {
    const p = r.pickup;
    out.push(
      `pickup      POST → first step p50 ${p.toFirstStepMs.p50} ms, p95 ${p.toFirstStepMs.p95} ms; POST → running p50 ${p.toClaimMs.p50} ms, p95 ${p.toClaimMs.p95} ms → ${p.meetsAims ? 'aim met' : 'AIM NOT MET'}`,
    );
  }
  if (r.interpreter) {
    const i = r.interpreter;
    out.push(
      `interpreter ${i.ratio}× hand-written Puppeteer (p50 ${i.variants.interpreter.totalMs.p50} vs ${i.variants.puppeteer.totalMs.p50} ms) → ${i.meetsAims.ratio ? 'aim met' : 'AIM NOT MET'}; recording +${i.recordingOverheadPercent}% (+${i.recordingOverheadToVerdictPercent}% to the verdict) → ${i.meetsAims.recording ? 'aim met' : 'AIM NOT MET'}`,
    );
  }
  for (const run of r.concurrency?.runs ?? []) {
    out.push(
      `concurrency ${run.concurrency}: ${run.succeeded}/${run.jobs} ok, ${run.jobsPerMinute} jobs/min, PSS idle ${run.memory.idle.pssMb} MB → peak ${run.memory.peak.pssMb} MB (${run.memory.perConcurrentJobPssMb} MB per concurrent job; RSS ${run.memory.perConcurrentJobRssMb} MB)`,
    );
  }
  for (const e of r.errors) out.push(`ERROR in ${e.bench}: ${e.message.split('\n')[0]}`);
  console.log(out.join('\n'));
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`[bench] ${error.message}`);
    killEverything();
    process.exit(1);
  },
);
