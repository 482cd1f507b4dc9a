/**
 * The suite's benchmarks: `node bench/run.ts` runs all of them; `--only pickup,auth-me` some of
 * them; `--quick` a short smoke run (not written to latest.md); `--profile` always profiles the app under test (jobs-api, project-host, agent-gateway).
 * Results: bench/results/<date>.json, bench/results/latest.md and bench/results/summary.json. See
 * bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  authLoginMarkdown,
  authMeMarkdown,
  authRefreshMarkdown,
  runAuthLogin,
  runAuthMe,
  runAuthRefresh,
  type AuthLoginResult,
  type AuthMeResult,
  type AuthRefreshResult,
} from './auth.ts';
import { fairShareMarkdown, runFairShare, type FairShareResult } from './fair-share.ts';
import { hybridMarkdown, runHybridBench, type HybridResult } from './hybrid.ts';
import { concurrencyMarkdown, runConcurrency, type ConcurrencyResult } from './concurrency.ts';
import { gatewaySendMarkdown, runGatewaySend, type GatewaySendResult } from './gateway-send.ts';
import { gatewaySseMarkdown, runGatewaySse, type GatewaySseResult } from './gateway-sse.ts';
import { interpreterMarkdown, runInterpreterBench, type InterpreterResult } from './interpreter.ts';
import { pickupMarkdown, runPickup, type PickupResult } from './pickup.ts';
import {
  plainEnglishMarkdown,
  runPlainEnglish,
  writePlainEnglishReport,
  type PlainEnglishResult,
} from './plain-english.ts';
import { realAppsMarkdown, runRealApps, writeRealAppsReport, type RealAppsResult } from './real-apps.ts';
import { runSubmission, submissionMarkdown, type SubmissionResult } from './submission.ts';
import { apiCpu, runSuiteLoad, suiteLoadMarkdown, workersLabel, type SuiteLoadResult } from './suite-load.ts';
import {
  runTenantScale,
  tenantScaleMarkdown,
  type TenantScaleResult,
  type TenantServersMode,
} from './tenant-scale.ts';
import type { BenchContext } from './support/context.ts';
import { BENCH_DATABASE, prepareBenchInfra, type BenchInfra } from './support/infra.ts';
import { machineFacts, type MachineFacts } from './support/machine.ts';
import { machineBusyPercent } from './support/proc.ts';
import { installCleanupHandlers, killEverything, repoRoot } from './support/processes.ts';
import { updateLatestMarkdown, writeJson } from './support/report.ts';
import { withDeadline } from './support/stats.ts';
import { updateSummary, type SummaryRow } from './support/summary.ts';

const BENCHES = [
  'submission',
  'pickup',
  'interpreter',
  'concurrency',
  'auth-me',
  'auth-refresh',
  'auth-login',
  'gateway-send',
  'gateway-sse',
  'suite-load',
  'tenant-scale',
  'real-apps',
  'fair-share',
  'plain-english',
  'hybrid',
] as const;
type BenchName = (typeof BENCHES)[number];
/**
 * Sections of latest.md and summary.json: the benchmarks, and the interpreter benchmark's run with
 * `--busy-neighbour` beside its idle one (each kept until a run of the same kind replaces it).
 */
const REPORTS = BENCHES.flatMap((b) => (b === 'interpreter' ? [b, 'interpreter-busy'] : [b]));
const reportName = (name: BenchName, busyNeighbour: boolean): string =>
  name === 'interpreter' && busyNeighbour ? 'interpreter-busy' : name;
/** Run only when named (`--only tenant-scale`): 1,000 tenant databases take ~10 minutes and 7.5 GB. */
const ON_REQUEST: readonly BenchName[] = ['tenant-scale'];

/** Upper bounds of each benchmark's wall time (full size); a benchmark past it fails and is cleaned up. */
const DEADLINES_MS: Record<BenchName, number> = {
  submission: 6 * 60_000,
  pickup: 5 * 60_000,
  interpreter: 8 * 60_000,
  concurrency: 12 * 60_000,
  'auth-me': 4 * 60_000,
  'auth-refresh': 5 * 60_000,
  'auth-login': 4 * 60_000,
  'gateway-send': 4 * 60_000,
  'gateway-sse': 4 * 60_000,
  'suite-load': 14 * 60_000,
  'tenant-scale': 75 * 60_000,
  'real-apps': 15 * 60_000,
  'fair-share': 12 * 60_000,
  'plain-english': 40 * 60_000,
  hybrid: 6 * 60_000,
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
  'auth-me'?: AuthMeResult;
  'auth-refresh'?: AuthRefreshResult;
  'auth-login'?: AuthLoginResult;
  'gateway-send'?: GatewaySendResult;
  'gateway-sse'?: GatewaySseResult;
  'suite-load'?: SuiteLoadResult;
  'tenant-scale'?: TenantScaleResult;
  'real-apps'?: RealAppsResult;
  'fair-share'?: FairShareResult;
  'plain-english'?: PlainEnglishResult;
  hybrid?: HybridResult;
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
    'usage: node bench/run.ts [--only NAME[,NAME…]] [--quick] [--profile] [--busy-neighbour] [--projects N] [--tenant-servers one|two|both]',
    `  NAME: ${BENCHES.join(', ')} (or 1-${BENCHES.length})`,
    '  --quick    shorter runs for a smoke test; results go to <date>-quick.json only',
    '  --profile  profile the app under load (submission, auth-me, auth-refresh, gateway-send) even when the aims are met',
    '  --busy-neighbour  interpreter: keep one core busy with a load generator during the measured rounds',
    `  ${ON_REQUEST.join(', ')}: only when named; --projects N (default 1000) and --tenant-servers (default both) size it`,
  ].join('\n');
}

interface Args {
  only: BenchName[];
  quick: boolean;
  profile: boolean;
  busyNeighbour: boolean;
  projects?: number;
  tenantServers?: TenantServersMode[];
}

function parseArgs(argv: string[]): Args {
  let only: BenchName[] = BENCHES.filter((b) => !ON_REQUEST.includes(b));
  let quick = false;
  let profile = false;
  let busyNeighbour = false;
  let projects: number | undefined;
  let tenantServers: TenantServersMode[] | undefined;
  const valueOf = (arg: string, i: number): string => {
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
    if (!value) throw new Error(`${arg.split('=')[0]} needs a value\n${usage()}`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(usage());
      process.exit(0);
    } else if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--busy-neighbour') busyNeighbour = true;
    else if (arg === '--projects' || arg.startsWith('--projects=')) {
      const value = valueOf(arg, i);
      if (!arg.includes('=')) i++;
      projects = Number(value);
      if (!Number.isInteger(projects) || projects < 1)
        throw new Error(`--projects must be a whole number ≥ 1`);
    } else if (arg === '--tenant-servers' || arg.startsWith('--tenant-servers=')) {
      const value = valueOf(arg, i);
      if (!arg.includes('=')) i++;
      if (!['one', 'two', 'both'].includes(value))
        throw new Error(`--tenant-servers must be one, two or both`);
      tenantServers = value === 'both' ? ['one', 'two'] : [value as TenantServersMode];
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice('--only='.length) : argv[++i];
      if (!value) throw new Error(`--only needs a value\n${usage()}`);
      only = value.split(',').map((raw) => {
        const name = /^\d+$/.test(raw) ? BENCHES[Number(raw) - 1] : (raw.trim() as BenchName);
        if (!name || !BENCHES.includes(name)) throw new Error(`unknown benchmark "${raw}"\n${usage()}`);
        return name;
      });
    } else throw new Error(`unknown argument "${arg}"\n${usage()}`);
  }
  return {
    only: BENCHES.filter((b) => only.includes(b)),
    quick,
    profile,
    busyNeighbour,
    ...(projects ? { projects } : {}),
    ...(tenantServers ? { tenantServers } : {}),
  };
}

function requireBuilt(): void {
  const needed = [
    'apps/jobs-api/dist/main.js',
    'apps/browser-worker/dist/main.js',
    'apps/project-host/dist/main.js',
    'apps/agent-gateway/dist/main.js',
    'libs/db/dist/tenant-provisioning.js',
    'libs/browser-agent/dist/index.js',
    'libs/queue/dist/index.js',
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

/** The summary table's rows of each benchmark (see support/summary.ts), from its result. */
const SUMMARY_ROWS: { [K in BenchName]: (r: NonNullable<Results[K]>) => SummaryRow[] } = {
  submission: (r) =>
    r.runs.map((run) => ({
      benchmark: `submission, ${run.connections} connections`,
      aim: `≥ ${r.aims.rps} req/s, p99 ≤ ${r.aims.p99Ms} ms, 0 errors`,
      measured: `${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors`,
      met: run.meetsAims,
    })),
  pickup: (p) => [
    {
      benchmark: 'pickup, POST → first step',
      aim: `p50 ≤ ${p.aims.p50Ms} ms`,
      measured: `p50 ${p.toFirstStepMs.p50} ms, p95 ${p.toFirstStepMs.p95} ms (POST → running: p50 ${p.toClaimMs.p50} ms)`,
      met: p.meetsAims,
    },
  ],
  interpreter: (i) => {
    const busy = i.busyNeighbour ? ', busy neighbour' : '';
    const aim = i.busyNeighbour ? i.aims.recordingOverheadBusyPercent : i.aims.recordingOverheadPercent;
    return [
      {
        benchmark: `interpreter / hand-written Puppeteer${busy}`,
        aim: `≤ ${i.aims.ratio}×`,
        measured: `${i.ratio}×`,
        met: i.meetsAims.ratio,
      },
      {
        benchmark: `recording overhead (whole job, to its end)${busy}`,
        aim: `≤ ${aim}%`,
        measured: `+${i.recordingOverheadPercent}% (+${i.recordingOverheadToVerdictPercent}% up to the verdict; +${i.recordingOverheadToFilePercent}% until the file is complete)${i.baseline ? `; before the change, same run: +${i.baseline.recordingOverheadPercent}%` : ''}`,
        met: i.meetsAims.recording,
      },
      {
        benchmark: `recording overhead in CPU-seconds per job${busy}`,
        aim: `≤ ${aim}%`,
        measured: `+${i.cpuOverheadPercent}% (${i.cpuSeconds.interpreter?.total.p50} → ${i.cpuSeconds[i.headline ?? 'interpreter+video']?.total.p50} CPU-s per job, medians; capture \`${i.headline === 'interpreter+x11grab' ? 'x11grab' : 'browser'}\`)`,
        met: i.meetsAims.recordingCpu,
      },
      {
        benchmark: `recording: verdict → job end (p95)${busy}`,
        aim: `≤ ${i.aims.verdictToJobEndMs} ms`,
        measured: `${i.verdictToJobEndP95Ms} ms`,
        met: i.meetsAims.verdictToJobEnd,
      },
      {
        benchmark: `recording: job end → video complete (max)${busy}`,
        aim: `≤ ${i.aims.jobEndToVideoMs} ms`,
        measured: `${i.jobEndToVideoMaxMs} ms`,
        met: i.meetsAims.jobEndToVideo,
      },
    ];
  },
  concurrency: (c) =>
    c.runs
      .filter((run) => run.code !== 'baseline')
      .map((run) => {
        const before = c.runs.find((b) => b.code === 'baseline' && b.concurrency === run.concurrency);
        return {
          benchmark: `concurrency ${run.concurrency}`,
          aim: '(no aim)',
          measured: `${run.jobsPerMinute} jobs/min, ${run.memory.perConcurrentJobPssMb} MB PSS per concurrent job${before ? `; before the change, same run: ${before.jobsPerMinute} jobs/min, ${before.memory.perConcurrentJobPssMb} MB` : ''}`,
          met: null,
        };
      }),
  'auth-me': (r) =>
    r.runs.map((run) => ({
      benchmark: `auth: GET /api/user/me, ${run.connections} connections`,
      aim: `≥ ${r.aims.rps} req/s, 0 errors`,
      measured: `${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors`,
      met: run.meetsAims,
    })),
  'auth-refresh': (r) =>
    r.runs.map((run) => ({
      benchmark: `auth: refresh rotation, ${run.chains} chains`,
      aim: `≥ ${r.aims.rps} req/s, 0 errors`,
      measured: `${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors, ${run.chainBreaks} chain breaks`,
      met: run.meetsAims,
    })),
  'auth-login': (r) =>
    r.runs.map((run) => ({
      benchmark: `auth: login, ${run.connections} connections`,
      aim: `≥ ${Math.round(r.aims.shareOfRaw * 100)}% of raw bcrypt (cost ${r.bcryptCost})`,
      measured: `${run.rps} logins/s = ${Math.round(run.shareOfRaw * 1000) / 10}% of ${r.raw.comparesPerSecond} compares/s, p99 ${run.latencyMs.p99} ms, ${run.errors} errors`,
      met: run.meetsAims,
    })),
  'gateway-send': (r) =>
    r.runs.map((run) => ({
      benchmark: `A2A SendMessage, ${run.connections} connections`,
      aim: `≥ ${r.aims.rps} req/s, 0 errors`,
      measured: `${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors`,
      met: run.meetsAims,
    })),
  'gateway-sse': (r) => [
    {
      benchmark: `A2A SSE fan-out, ${r.subscribers} subscribers`,
      aim: `p99 ≤ ${r.aims.p99Ms} ms, every event to every subscriber`,
      measured: `p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; ${r.receivedEvery}/${r.subscribers} got every event`,
      met: r.meetsAims,
    },
  ],
  'suite-load': (r) =>
    r.runs.map((run) => ({
      benchmark: `suite load, ${workersLabel(run.workers)} × ${run.replicas} APIs`,
      aim: '(no aim)',
      measured: `submit ${run.flood.load.rps} req/s with workers busy (p99 ${run.flood.load.latencyMs.p99} ms, ${run.flood.load.errors} errors); ${run.batch.succeeded}/${run.batch.jobs} ok, ${run.batch.jobsPerMinute} jobs/min, POST → running p50 ${run.batch.pickupMs.p50} ms, queue wait p50 ${run.batch.queueWaitS.p50} s`,
      met: null,
    })),
  'tenant-scale': (r) =>
    r.runs.map((run) => ({
      benchmark: `many projects: ${run.projects} on one host, ${run.mode} tenant server${run.mode === 'one' ? '' : 's'}`,
      aim: '0 errors, no "too many clients"',
      measured: `${run.errors} errors, peak ${run.peakConnections} connections (max ${r.maxConnections}), GET /me cold p50 ${run.cold.latencyMs.p50} / p99 ${run.cold.latencyMs.p99} ms, warm p50 ${run.warm.latencyMs.p50} / p99 ${run.warm.latencyMs.p99} ms, creation p50 ${run.create.latencyMs.p50} ms, ${Math.round(Math.max(...run.servers.map((s) => s.bytesPerTenant)) / 104857.6) / 10} MB per project`,
      met: run.meetsAims,
    })),
  'real-apps': (r) => [
    {
      benchmark: 'real-app verdicts (plain-English tests on third-party component apps)',
      aim: `≥ ${r.aims.correctPercent}% correct, no false success`,
      measured: `${r.correct}/${r.total} (${r.correctPercent}%), ${r.falseSuccesses} false successes, step p50 ${r.stepMs.p50} ms`,
      met: r.meetsAims,
    },
  ],
  'fair-share': (r) => [
    {
      benchmark: `fair share: owner B's ${r.newcomerJobs} jobs after owner A's ${r.floodJobs}`,
      aim: "B's i-th job starts within (ahead + 2·i) job starts",
      measured: `waits ${r.newcomer.map((n) => n.waitMs).join(', ')} ms (bounds ${r.newcomer.map((n) => n.boundMs).join(', ')} ms); FIFO ≈ ${Math.round(r.fifoFirstWaitMs / 1000)} s for B's first`,
      met: r.meetsAims,
    },
  ],
  'plain-english': (r) => [
    {
      benchmark: `plain-English corpus (${r.tests} tests and their must-fail twins, ${r.phrasings} phrasings)`,
      aim: '≥ 95% right verdicts, no false pass',
      measured: `${r.right}/${r.cases} (${r.rightPercent}%) right, must-pass ${r.mustPassRight}/${r.mustPass}, ${r.falsePasses.length} false passes`,
      met: r.rightPercent >= 95 && r.falsePasses.length === 0,
    },
  ],
  hybrid: (r) => [
    {
      benchmark: 'hybrid engine: handed-over steps resolved offline on the second run',
      aim: `${r.aims.offlinePercent}%, 0 model calls`,
      measured: `${r.offlineSteps}/${r.handedSteps} (${r.offlinePercent}%), ${r.secondRunModelCalls} model calls`,
      met: r.meetsAims,
    },
  ],
};

function summaryRowsOf(results: Results, busyNeighbour: boolean): Map<string, SummaryRow[]> {
  const rows = new Map<string, SummaryRow[]>();
  for (const name of results.ran) {
    const value = results[name];
    if (value === undefined) continue;
    rows.set(
      reportName(name, busyNeighbour),
      (SUMMARY_ROWS[name] as (r: typeof value) => SummaryRow[])(value),
    );
  }
  return rows;
}

async function main(): Promise<number> {
  const { only, quick, profile, busyNeighbour, projects, tenantServers } = parseArgs(process.argv.slice(2));
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
      busyNeighbour,
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
        sections.set(reportName('interpreter', busyNeighbour), interpreterMarkdown(results.interpreter));
      },
      concurrency: async () => {
        results.concurrency = await runConcurrency(ctx);
        sections.set('concurrency', concurrencyMarkdown(results.concurrency));
      },
      'auth-me': async () => {
        results['auth-me'] = await runAuthMe(ctx);
        sections.set('auth-me', authMeMarkdown(results['auth-me']));
      },
      'auth-refresh': async () => {
        results['auth-refresh'] = await runAuthRefresh(ctx);
        sections.set('auth-refresh', authRefreshMarkdown(results['auth-refresh']));
      },
      'auth-login': async () => {
        results['auth-login'] = await runAuthLogin(ctx);
        sections.set('auth-login', authLoginMarkdown(results['auth-login']));
      },
      'gateway-send': async () => {
        results['gateway-send'] = await runGatewaySend(ctx);
        sections.set('gateway-send', gatewaySendMarkdown(results['gateway-send']));
      },
      'gateway-sse': async () => {
        results['gateway-sse'] = await runGatewaySse(ctx);
        sections.set('gateway-sse', gatewaySseMarkdown(results['gateway-sse']));
      },
      'suite-load': async () => {
        results['suite-load'] = await runSuiteLoad(ctx);
        sections.set('suite-load', suiteLoadMarkdown(results['suite-load']));
      },
      'tenant-scale': async () => {
        results['tenant-scale'] = await runTenantScale(ctx, {
          ...(projects ? { projects } : {}),
          ...(tenantServers ? { modes: tenantServers } : {}),
        });
        sections.set('tenant-scale', tenantScaleMarkdown(results['tenant-scale']));
      },
      'real-apps': async () => {
        results['real-apps'] = await runRealApps({ log });
        // Its own report (bench/results/real-apps.md) too, as `node bench/real-apps.ts` writes it.
        if (!quick) await writeRealAppsReport(results['real-apps']);
        sections.set('real-apps', await realAppsMarkdown(results['real-apps'], '## 12. Real apps'));
      },
      'fair-share': async () => {
        results['fair-share'] = await runFairShare(ctx);
        sections.set('fair-share', fairShareMarkdown(results['fair-share']));
      },
      'plain-english': async () => {
        results['plain-english'] = await runPlainEnglish({ log });
        // Its own report (bench/results/plain-english.md) too, as `node bench/plain-english.ts` writes it.
        if (!quick) await writePlainEnglishReport(results['plain-english']);
        sections.set(
          'plain-english',
          await plainEnglishMarkdown(results['plain-english'], '## 14. Plain-English corpus'),
        );
      },
      hybrid: async () => {
        results.hybrid = await runHybridBench({ log });
        sections.set('hybrid', hybridMarkdown(results.hybrid));
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
      sections.set(
        'summary',
        await updateSummary(resultsDir, results.startedAt, summaryRowsOf(results, busyNeighbour), REPORTS),
      );
      log(`summary: ${await updateLatestMarkdown(resultsDir, sections, REPORTS)}`);
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
      `interpreter ${i.ratio}× hand-written Puppeteer (p50 ${i.variants.interpreter?.totalMs.p50} vs ${i.variants.puppeteer?.totalMs.p50} ms) → ${i.meetsAims.ratio ? 'aim met' : 'AIM NOT MET'}; recording +${i.recordingOverheadPercent}% to the job's end (+${i.recordingOverheadToVerdictPercent}% to the verdict, +${i.recordingOverheadToFilePercent}% to the file), +${i.cpuOverheadPercent}% CPU-seconds per job${i.busyNeighbour ? ', with a busy neighbour' : ''} → ${i.meetsAims.recording && i.meetsAims.recordingCpu && i.meetsAims.verdictToJobEnd && i.meetsAims.jobEndToVideo ? 'aims met' : 'AIM NOT MET'}`,
    );
  }
  for (const run of r.concurrency?.runs ?? []) {
    out.push(
      `concurrency ${run.concurrency}${run.code === 'baseline' ? ' (baseline)' : ''}: ${run.succeeded}/${run.jobs} ok, ${run.jobsPerMinute} jobs/min, PSS idle ${run.memory.idle.pssMb} MB → peak ${run.memory.peak.pssMb} MB (${run.memory.perConcurrentJobPssMb} MB per concurrent job; RSS ${run.memory.perConcurrentJobRssMb} MB)`,
    );
  }
  for (const run of r['suite-load']?.runs ?? []) {
    out.push(
      `suite-load  ${workersLabel(run.workers)} × ${run.replicas} APIs: submit ${run.flood.load.rps} req/s busy (p99 ${run.flood.load.latencyMs.p99} ms, ${run.flood.load.errors} errors); batch ${run.batch.succeeded}/${run.batch.jobs} ok, ${run.batch.jobsPerMinute} jobs/min, POST → running p50 ${run.batch.pickupMs.p50} / p95 ${run.batch.pickupMs.p95} ms; CPU APIs ${apiCpu(run.batch.cpuPercent)}%, machine ${run.batch.cpuPercent.machine}%`,
    );
  }
  for (const name of [
    ...BENCHES.slice(4, 9),
    'tenant-scale' as const,
    'real-apps' as const,
    'fair-share' as const,
    'plain-english' as const,
    'hybrid' as const,
  ]) {
    const value = r[name];
    if (value === undefined) continue;
    for (const row of (SUMMARY_ROWS[name] as (x: typeof value) => SummaryRow[])(value))
      out.push(
        `${row.benchmark}: ${row.measured}${row.met === null ? '' : row.met ? ' → aim met' : ' → AIM NOT MET'}`,
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
