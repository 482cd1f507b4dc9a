import { join } from 'node:path';
import { autocannon, type CannonResult } from './support/cannon.ts';
import { startJobsApi, type BenchContext } from './support/context.ts';
import { redisClient, sql } from './support/infra.ts';
import { CpuMeter, pidsByComm } from './support/proc.ts';
import { profileMarkdown, profilerNodeArgs, underProfiler, type ProfiledLoad } from './support/profiling.ts';
import { round, sleep } from './support/stats.ts';

/**
 * 1. Submission: POST /v1/jobs sustained against one jobs-api process with no worker (jobs only
 * queue), with autocannon in this process, for a couple of connection counts.
 */

export const SUBMISSION_AIMS = { rps: 2000, p99Ms: 50, errors: 0 };

export interface SubmissionRun {
  connections: number;
  durationS: number;
  requests: number;
  rps: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  /** Non-2xx responses + socket errors + timeouts (the aim is 0). */
  errors: number;
  non2xx: number;
  socketErrors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Jobs stored in Postgres and waiting in the BullMQ queue after the run (checks "accepted" = stored + queued). */
  jobsStored: number;
  jobsQueued: number;
  /** Percent of one core, over the measured run; `machine` is percent of all cores. */
  cpuPercent: Record<string, number>;
  /** CPU milliseconds per accepted request: jobs-api, and Postgres (machine-wide). */
  cpuMsPerRequest: { jobsApi: number; postgres: number };
  meetsAims: boolean;
}

export interface SubmissionResult {
  aims: typeof SUBMISSION_AIMS;
  body: Record<string, unknown>;
  logLevel: string;
  runs: SubmissionRun[];
  profile?: ProfiledLoad;
}

/** A valid job that would only ever talk to 127.0.0.1 (nothing runs it here). */
const BODY = {
  query: 'Open http://127.0.0.1:9/form\nType "Jane" into the Name field\nVerify the page contains "Thanks"',
  initial_url: 'http://127.0.0.1:9/',
  highlight_mouse: false,
  metadata: { bench: 'submission' },
};

function cannon(url: string, apiKey: string, connections: number, durationS: number): Promise<CannonResult> {
  return autocannon({
    url: `${url}/v1/jobs`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(BODY),
    connections,
    duration: durationS,
    timeout: 10,
  });
}

async function queued(redisUrl: string, prefix: string): Promise<number> {
  const redis = redisClient(redisUrl);
  try {
    return await redis.llen(`${prefix}:browser-jobs:wait`);
  } finally {
    redis.disconnect();
  }
}

export async function runSubmission(ctx: BenchContext): Promise<SubmissionResult> {
  const durationS = ctx.quick ? 5 : 30;
  const warmupS = ctx.quick ? 2 : 5;
  const runs: SubmissionRun[] = [];
  for (const connections of [10, 50]) {
    // A fresh process, an empty jobs table and an empty queue for every connection count.
    await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs CASCADE');
    const prefix = `${ctx.infra.prefix}-sub${connections}`;
    const { app, url } = await startJobsApi(ctx, prefix);
    try {
      ctx.log(`submission: ${connections} connections, ${warmupS} s warm-up, then ${durationS} s measured`);
      await cannon(url, ctx.apiKey, connections, warmupS);
      await sleep(1_000);
      const meter = new CpuMeter({
        'jobs-api': () => [app.pid],
        'postgres (all on the machine)': () => pidsByComm(['postgres']),
        'redis-server': () => pidsByComm(['redis-server']),
        'autocannon (bench process)': () => [process.pid],
      });
      meter.start();
      const r = await cannon(url, ctx.apiKey, connections, durationS);
      const cpuPercent = meter.stop();
      const statusCodes = Object.fromEntries(
        Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]),
      );
      const rows = await sql<{ count: string }>(ctx.infra.databaseUrl, 'select count(*) from jobs');
      const count = Number(rows[0]?.count ?? 0);
      const errors = r.non2xx + r.errors + r.timeouts;
      const run: SubmissionRun = {
        connections,
        durationS: r.duration,
        requests: r['2xx'] + r.non2xx,
        rps: round(r.requests.average, 0),
        latencyMs: {
          avg: round(r.latency.average ?? 0, 1),
          p50: round(r.latency.p50 ?? 0, 1),
          p90: round(r.latency.p90 ?? 0, 1),
          p99: round(r.latency.p99 ?? 0, 1),
          max: round(r.latency.max ?? 0, 1),
        },
        errors,
        non2xx: r.non2xx,
        socketErrors: r.errors,
        timeouts: r.timeouts,
        statusCodes,
        jobsStored: count,
        jobsQueued: await queued(ctx.infra.redisUrl, prefix),
        cpuPercent,
        cpuMsPerRequest: {
          jobsApi: round((cpuPercent['jobs-api']! * 10) / Math.max(r.requests.average, 1), 2),
          postgres: round(
            (cpuPercent['postgres (all on the machine)']! * 10) / Math.max(r.requests.average, 1),
            2,
          ),
        },
        meetsAims:
          r.requests.average >= SUBMISSION_AIMS.rps &&
          (r.latency.p99 ?? Infinity) <= SUBMISSION_AIMS.p99Ms &&
          errors === SUBMISSION_AIMS.errors,
      };
      runs.push(run);
      ctx.log(
        `submission: ${connections} conn → ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${errors} errors; jobs-api CPU ${cpuPercent['jobs-api']}% of a core`,
      );
    } finally {
      await app.stop();
    }
  }

  const result: SubmissionResult = {
    aims: SUBMISSION_AIMS,
    body: BODY,
    logLevel: 'info (default), JSON to a file',
    runs,
  };
  if (ctx.profile || runs.some((r) => !r.meetsAims)) result.profile = await profile(ctx);
  return result;
}

/** A separate jobs-api with V8's sampling profiler over a shorter load, so the measured runs stay clean. */
async function profile(ctx: BenchContext): Promise<SubmissionResult['profile']> {
  const connections = 10;
  const durationS = ctx.quick ? 5 : 10;
  const file = join(ctx.resultsDir, `${ctx.stamp}.jobs-api.cpuprofile.json`);
  await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs CASCADE');
  const prefix = `${ctx.infra.prefix}-prof`;
  const { app, url } = await startJobsApi(ctx, prefix, {
    name: 'jobs-api-profiled',
    nodeArgs: profilerNodeArgs,
    env: { BENCH_CPU_PROFILE: file },
  });
  try {
    ctx.log(`submission: profiling jobs-api for ${durationS} s at ${connections} connections`);
    await cannon(url, ctx.apiKey, connections, 3);
    return await underProfiler(app, file, connections, durationS, () =>
      cannon(url, ctx.apiKey, connections, durationS),
    );
  } finally {
    await app.stop();
  }
}

export function submissionMarkdown(r: SubmissionResult): string {
  const lines = [
    '## 1. Submission: `POST /v1/jobs`',
    '',
    `One jobs-api process, no worker (jobs only queue), autocannon in the bench process on the same machine; log level ${r.logLevel}. Aim: ≥ ${r.aims.rps} req/s, p99 ≤ ${r.aims.p99Ms} ms, 0 errors.`,
    '',
    '| connections | req/s | p50 ms | p90 ms | p99 ms | max ms | errors (non-2xx + socket + timeouts) | jobs stored / queued | jobs-api CPU | CPU ms per request (jobs-api / Postgres) | machine CPU | aims |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.connections} | ${run.rps} | ${run.latencyMs.p50} | ${run.latencyMs.p90} | ${run.latencyMs.p99} | ${run.latencyMs.max} | ${run.errors} (${run.non2xx} + ${run.socketErrors} + ${run.timeouts}) | ${run.jobsStored} / ${run.jobsQueued} | ${run.cpuPercent['jobs-api']}% of a core | ${run.cpuMsPerRequest.jobsApi} / ${run.cpuMsPerRequest.postgres} | ${run.cpuPercent.machine}% | ${run.meetsAims ? 'met' : '**not met**'} |`,
    ),
    '',
    `CPU during the measured runs (percent of one core): ${r.runs
      .map(
        (run) =>
          `${run.connections} conn: ${Object.entries(run.cpuPercent)
            .filter(([k]) => k !== 'machine')
            .map(([k, v]) => `${k} ${v}%`)
            .join(', ')}`,
      )
      .join('; ')}.`,
  ];
  if (r.profile) lines.push('', ...profileMarkdown('jobs-api', r.profile));
  return lines.join('\n');
}
