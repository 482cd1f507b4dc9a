import { join } from 'node:path';
import {
  autocannon,
  cpuMsPerRequest,
  loadFigures,
  type CannonResult,
  type LoadFigures,
} from './support/cannon.ts';
import { startJobsApi, type BenchContext } from './support/context.ts';
import { queuedJobs, sql } from './support/infra.ts';
import { CpuMeter, pidsByComm } from './support/proc.ts';
import { profileMarkdown, profilerNodeArgs, underProfiler, type ProfiledLoad } from './support/profiling.ts';
import { sleep } from './support/stats.ts';

/**
 * 1. Submission: POST /v1/jobs sustained against one jobs-api process with no worker (jobs only
 * queue), with autocannon in this process, for a couple of connection counts.
 */

export const SUBMISSION_AIMS = { rps: 2000, p99Ms: 50, errors: 0 };

export interface SubmissionRun extends LoadFigures {
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

/** A 2xx answer whose body is not a queued job record counts as an error (a "bad body"). */
function queuedJob(body: string): boolean {
  try {
    const job = JSON.parse(body) as { id?: unknown; status?: unknown };
    return typeof job.id === 'string' && job.status === 'queued';
  } catch {
    return false;
  }
}

function cannon(url: string, apiKey: string, connections: number, durationS: number): Promise<CannonResult> {
  return autocannon({
    url: `${url}/v1/jobs`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(BODY),
    verifyBody: queuedJob,
    connections,
    duration: durationS,
    timeout: 10,
  });
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
      const figures = loadFigures(connections, r);
      const rows = await sql<{ count: string }>(ctx.infra.databaseUrl, 'select count(*) from jobs');
      const count = Number(rows[0]?.count ?? 0);
      const run: SubmissionRun = {
        ...figures,
        jobsStored: count,
        jobsQueued: await queuedJobs(ctx.infra.redisUrl, prefix),
        cpuPercent,
        cpuMsPerRequest: {
          jobsApi: cpuMsPerRequest(cpuPercent['jobs-api'], figures.rps),
          postgres: cpuMsPerRequest(cpuPercent['postgres (all on the machine)'], figures.rps),
        },
        meetsAims:
          figures.rps >= SUBMISSION_AIMS.rps &&
          figures.latencyMs.p99 <= SUBMISSION_AIMS.p99Ms &&
          figures.errors === SUBMISSION_AIMS.errors,
      };
      runs.push(run);
      ctx.log(
        `submission: ${connections} conn → ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors; jobs-api CPU ${cpuPercent['jobs-api']}% of a core`,
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
    '| connections | req/s | p50 ms | p90 ms | p99 ms | max ms | errors (non-2xx + bad body + socket + timeouts) | jobs stored / queued | jobs-api CPU | CPU ms per request (jobs-api / Postgres) | machine CPU | aims |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.connections} | ${run.rps} | ${run.latencyMs.p50} | ${run.latencyMs.p90} | ${run.latencyMs.p99} | ${run.latencyMs.max} | ${run.errors} (${run.non2xx} + ${run.badBodies} + ${run.socketErrors} + ${run.timeouts}) | ${run.jobsStored} / ${run.jobsQueued} | ${run.cpuPercent['jobs-api']}% of a core | ${run.cpuMsPerRequest.jobsApi} / ${run.cpuMsPerRequest.postgres} | ${run.cpuPercent.machine}% | ${run.meetsAims ? 'met' : '**not met**'} |`,
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
