import { loadavg } from 'node:os';
import { createQueue, createRedisConnection, QueueName, type TypedQueue } from '../libs/queue/dist/index.js';
import { autocannon, loadFigures, type CannonResult, type LoadFigures } from './support/cannon.ts';
import { startJobsApi, startWorker, type BenchContext, type StartedApi } from './support/context.ts';
import { sql } from './support/infra.ts';
import type { AppProcess } from './support/processes.ts';
import { CpuMeter, pidsByComm, processTree } from './support/proc.ts';
import { JobWatcher } from './support/runner-api.ts';
import { fiveStepQuery, startSite } from './support/site.ts';
import { round, sleep, summarize, type Summary } from './support/stats.ts';

/**
 * 10. The whole suite on one machine: N jobs-api replicas (one Redis prefix, one database, requests
 * spread over them round-robin like a Kubernetes Service) and M browser workers (1, 2, 4; concurrency
 * 1 each, fresh processes for every M). For each M: the submission rate while the workers are busy
 * (an autocannon flood, removed afterwards), then a batch of 5-step jobs submitted at once: completion
 * rate, POST → `running` and queue wait.
 */

/** Replicas of jobs-api; `BENCH_API_REPLICAS` overrides. */
const REPLICAS = Math.max(1, Number(process.env.BENCH_API_REPLICAS ?? 2) || 2);
const WORKER_COUNTS = [1, 2, 4];
const FLOOD_CONNECTIONS_PER_REPLICA = 10;
const FLOOD_TAG = 'suite-load-flood';
const BATCH_TAG = 'suite-load-batch';

type Queue = TypedQueue<typeof QueueName.BrowserJobs>;

export interface SuiteLoadFlood {
  connections: number;
  load: LoadFigures;
  /** Flood jobs stored in Postgres (every 2xx answer is one). */
  stored: number;
  /** Flood jobs a worker claimed before the flood was removed (they ran to their end). */
  ranByWorkers: number;
  /** Queued flood rows marked `cancelled` with SQL, and BullMQ jobs removed by `Queue.drain`. */
  cancelled: number;
  drained: number;
  /** From the end of the flood until no job ran and the queue was empty. */
  cleanupS: number;
  cpuPercent: Record<string, number>;
}

export interface SuiteLoadBatch {
  jobs: number;
  succeeded: number;
  failed: number;
  /** No final status within the time limit. */
  unfinished: number;
  failures: { id: string; status: string; summary: string | null; error: string | null }[];
  /** First POST sent → last final status received. */
  wallS: number;
  /** Jobs that reached a final status, per minute of wallS. */
  jobsPerMinute: number;
  /** POST response → the `running` status event at the bench (queue wait + claim + pub/sub). */
  pickupMs: Summary;
  /** The same for the first M jobs claimed (each found an idle worker). */
  firstWavePickupMs: Summary;
  /** created_at → started_at (SQL). */
  queueWaitS: Summary;
  /** started_at → finished_at (SQL). */
  jobDurationS: Summary;
  /** Batch jobs per worker (worker_id). */
  jobsPerWorker: Record<string, number>;
  cpuPercent: Record<string, number>;
}

export interface SuiteLoadRun {
  workers: number;
  replicas: number;
  /** os.loadavg() when this M started. */
  loadAverage: number[];
  /** Workers that ran a warm-up job (each should). */
  warmedWorkers: number;
  flood: SuiteLoadFlood;
  batch: SuiteLoadBatch;
}

export interface SuiteLoadResult {
  replicas: number;
  workerCounts: number[];
  workerConcurrency: number;
  floodS: number;
  floodConnectionsPerReplica: number;
  batchJobs: number;
  query: string;
  runs: SuiteLoadRun[];
}

/** The job every client sends: the 5-step test with the API's defaults (video, drawn cursor). */
const jobBody = (siteUrl: string, tag: string): Record<string, unknown> => ({
  query: fiveStepQuery(siteUrl),
  initial_url: `${siteUrl}/`,
  metadata: { bench: tag },
});

async function startReplicas(ctx: BenchContext, prefix: string, count: number): Promise<StartedApi[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => startJobsApi(ctx, prefix, { name: `jobs-api-r${i + 1}` })),
  );
}

async function startWorkers(ctx: BenchContext, prefix: string, count: number): Promise<AppProcess[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => startWorker(ctx, prefix, 1, `browser-worker-${count}-${i + 1}`)),
  );
}

const WORKER_TREES = 'worker trees (node, chromium, ffmpeg)';
const POSTGRES = 'postgres (all on the machine)';

/**
 * CPU groups: each replica, the workers' trees, Postgres, Redis, the bench. A job's ffmpeg and its
 * Chromium renderers, and Postgres backends, exit within the interval: counted once reaped.
 */
function cpuMeter(replicas: StartedApi[], workers: AppProcess[]): CpuMeter {
  const groups: Record<string, () => number[]> = {};
  replicas.forEach((r, i) => (groups[`jobs-api r${i + 1}`] = () => [r.app.pid]));
  groups[WORKER_TREES] = () => workers.flatMap((w) => processTree(w.pid).map((p) => p.pid));
  groups[POSTGRES] = () => pidsByComm(['postgres']);
  groups['redis-server'] = () => pidsByComm(['redis-server']);
  groups['bench process (autocannon, watcher)'] = () => [process.pid];
  return new CpuMeter(groups, { withReaped: [WORKER_TREES, POSTGRES] });
}

/** Sum of the replicas' CPU (percent of one core). */
export const apiCpu = (cpu: Record<string, number>): number =>
  round(
    Object.entries(cpu)
      .filter(([k]) => k.startsWith('jobs-api'))
      .reduce((a, [, v]) => a + v, 0),
  );

/**
 * One warm-up job per worker: M jobs at once and M idle workers of concurrency 1, so each takes one
 * (each launches its Chromium). Checked through worker_id; a worker left out gets another round.
 */
async function warmWorkers(
  ctx: BenchContext,
  replicas: StartedApi[],
  watcher: JobWatcher,
  siteUrl: string,
  count: number,
): Promise<number> {
  const warmed = new Set<string>();
  for (let attempt = 0; attempt < 3 && warmed.size < count; attempt++) {
    const submitted = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        replicas[i % replicas.length]!.api.submit(jobBody(siteUrl, 'suite-load-warm')),
      ),
    );
    const ids = submitted.map((s) => s.job.id);
    for (const id of ids) await watcher.waitForFinal(id, 120_000);
    const rows = await sql<{ worker_id: string | null }>(
      ctx.infra.databaseUrl,
      'select worker_id from jobs where id = any($1::uuid[])',
      [ids],
    );
    for (const row of rows) if (row.worker_id) warmed.add(row.worker_id);
  }
  return warmed.size;
}

/** Jobs still running (Postgres) or still in the queue (BullMQ: waiting, prioritized, delayed, active). */
async function inFlight(ctx: BenchContext, queue: Queue): Promise<{ running: number; queued: number }> {
  const [row] = await sql<{ running: string }>(
    ctx.infra.databaseUrl,
    "select count(*) as running from jobs where status = 'running'",
  );
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
  return {
    running: Number(row?.running ?? 0),
    queued: Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

async function waitForIdle(ctx: BenchContext, queue: Queue, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await inFlight(ctx, queue);
    if (now.running === 0 && now.queued === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `still ${now.running} jobs running and ${now.queued} in the queue after ${timeoutMs / 1000} s`,
      );
    await sleep(500);
  }
}

/** `POST /v1/jobs` from autocannon, connections spread over the replicas (connection i → replica i mod N). */
function postJobs(
  ctx: BenchContext,
  replicas: StartedApi[],
  body: Record<string, unknown>,
  durationS: number,
): Promise<CannonResult> {
  return autocannon({
    url: replicas.map((replica) => `${replica.url}/v1/jobs`),
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
    body: JSON.stringify(body),
    connections: replicas.length * FLOOD_CONNECTIONS_PER_REPLICA,
    duration: durationS,
    timeout: 10,
  });
}

/**
 * Submission rate with the workers busy: autocannon against every replica (connections spread over
 * the URLs round-robin), posting the same job the workers run. Then the flood is removed: its still
 * queued rows are marked cancelled in Postgres (what `DELETE /v1/jobs/{id}` does, in one statement;
 * a worker that still gets one of them skips it, since its claim needs `queued`), the queue is drained
 * (`Queue.drain`, delayed retries included), and the bench waits until no job runs.
 */
async function flood(
  ctx: BenchContext,
  replicas: StartedApi[],
  workers: AppProcess[],
  queue: Queue,
  siteUrl: string,
  durationS: number,
): Promise<SuiteLoadFlood> {
  const connections = replicas.length * FLOOD_CONNECTIONS_PER_REPLICA;
  const meter = cpuMeter(replicas, workers);
  meter.start();
  const r = await postJobs(ctx, replicas, jobBody(siteUrl, FLOOD_TAG), durationS);
  const cpuPercent = meter.stop();
  const floodEnded = Date.now();
  const cancelled = await sql<{ id: string }>(
    ctx.infra.databaseUrl,
    `update jobs set status = 'cancelled', finished_at = now(), summary = 'Cancelled before it started.'
     where status = 'queued' and metadata->>'bench' = $1 returning id`,
    [FLOOD_TAG],
  );
  const before = await queue.getJobCounts('waiting', 'prioritized', 'delayed');
  await queue.drain(true);
  await waitForIdle(ctx, queue, 180_000);
  const cleanupS = round((Date.now() - floodEnded) / 1000, 1);
  const counts = await sql<{ stored: string; ran: string }>(
    ctx.infra.databaseUrl,
    `select count(*) as stored, count(*) filter (where started_at is not null) as ran
     from jobs where metadata->>'bench' = $1`,
    [FLOOD_TAG],
  );
  return {
    connections,
    load: loadFigures(connections, r),
    stored: Number(counts[0]?.stored ?? 0),
    ranByWorkers: Number(counts[0]?.ran ?? 0),
    cancelled: cancelled.length,
    drained: Object.values(before).reduce((a, b) => a + b, 0),
    cleanupS,
    cpuPercent,
  };
}

interface BatchRow {
  id: string;
  status: string;
  summary: string | null;
  error: string | null;
  worker_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** B jobs submitted at once across the replicas; followed to their final status over Redis pub/sub. */
async function batch(
  ctx: BenchContext,
  replicas: StartedApi[],
  workers: AppProcess[],
  watcher: JobWatcher,
  siteUrl: string,
  jobs: number,
): Promise<SuiteLoadBatch> {
  const meter = cpuMeter(replicas, workers);
  meter.start();
  const submitted = await Promise.all(
    Array.from({ length: jobs }, (_, i) =>
      replicas[i % replicas.length]!.api.submit(jobBody(siteUrl, BATCH_TAG)),
    ),
  );
  const firstSent = Math.min(...submitted.map((s) => s.sentAt));
  const deadline = firstSent + Math.max(240_000, jobs * 20_000);
  let lastFinal = firstSent;
  for (const { job } of submitted) {
    try {
      lastFinal = Math.max(lastFinal, await watcher.waitForFinal(job.id, Math.max(1, deadline - Date.now())));
    } catch {
      // counted as unfinished below
    }
  }
  const cpuPercent = meter.stop();
  const ids = submitted.map((s) => s.job.id);
  const rows = await sql<BatchRow>(
    ctx.infra.databaseUrl,
    `select id, status, summary, error, worker_id, created_at, started_at, finished_at
     from jobs where id = any($1::uuid[])`,
    [ids],
  );
  const finished = rows.filter((row) => ['succeeded', 'failed', 'cancelled'].includes(row.status));
  const respondedAt = new Map(submitted.map((s) => [s.job.id, s.respondedAt]));
  const pickup = (id: string): number | null => {
    const running = watcher.receivedAt(id, 'running');
    return running === undefined ? null : running - respondedAt.get(id)!;
  };
  const pickups = ids.map(pickup).filter((v): v is number => v !== null);
  const started = rows
    .filter((row) => row.started_at !== null)
    .sort((a, b) => a.started_at!.getTime() - b.started_at!.getTime());
  const firstWave = started
    .slice(0, workers.length)
    .map((row) => pickup(row.id))
    .filter((v): v is number => v !== null);
  const jobsPerWorker: Record<string, number> = {};
  for (const row of started)
    jobsPerWorker[row.worker_id ?? '?'] = (jobsPerWorker[row.worker_id ?? '?'] ?? 0) + 1;
  const wallS = (lastFinal - firstSent) / 1000;
  return {
    jobs,
    succeeded: rows.filter((row) => row.status === 'succeeded').length,
    failed: rows.filter((row) => row.status === 'failed').length,
    unfinished: jobs - finished.length,
    failures: rows
      .filter((row) => row.status !== 'succeeded')
      .map((row) => ({ id: row.id, status: row.status, summary: row.summary, error: row.error })),
    wallS: round(wallS, 2),
    jobsPerMinute: round((finished.length / Math.max(wallS, 0.001)) * 60, 1),
    pickupMs: summarize(pickups, 0),
    firstWavePickupMs: summarize(firstWave, 0),
    queueWaitS: summarize(
      started.map((row) => (row.started_at!.getTime() - row.created_at.getTime()) / 1000),
      2,
    ),
    jobDurationS: summarize(
      started
        .filter((row) => row.finished_at !== null)
        .map((row) => (row.finished_at!.getTime() - row.started_at!.getTime()) / 1000),
      2,
    ),
    jobsPerWorker,
    cpuPercent,
  };
}

async function runWorkerCount(
  ctx: BenchContext,
  setup: { prefix: string; replicas: StartedApi[]; watcher: JobWatcher; queue: Queue; siteUrl: string },
  count: number,
  sizes: { floodS: number; batchJobs: number },
): Promise<SuiteLoadRun> {
  const { prefix, replicas, watcher, queue, siteUrl } = setup;
  await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs CASCADE'); // nothing runs: every M starts empty
  const loadAverage = loadavg().map((v) => round(v, 2));
  const workers = await startWorkers(ctx, prefix, count);
  try {
    ctx.log(`suite-load: ${workersLabel(count)} × ${replicas.length} APIs: warming the workers`);
    const warmedWorkers = await warmWorkers(ctx, replicas, watcher, siteUrl, count);
    ctx.log(`suite-load: ${workersLabel(count)}: ${sizes.floodS} s of POST /v1/jobs with the workers busy`);
    const floodResult = await flood(ctx, replicas, workers, queue, siteUrl, sizes.floodS);
    ctx.log(
      `suite-load: ${workersLabel(count)}: ${floodResult.load.rps} req/s, p99 ${floodResult.load.latencyMs.p99} ms, ${floodResult.load.errors} errors; flood removed in ${floodResult.cleanupS} s (${floodResult.cancelled} cancelled, ${floodResult.ranByWorkers} ran); ${sizes.batchJobs} jobs at once`,
    );
    const batchResult = await batch(ctx, replicas, workers, watcher, siteUrl, sizes.batchJobs);
    ctx.log(
      `suite-load: ${workersLabel(count)}: ${batchResult.succeeded}/${batchResult.jobs} succeeded in ${batchResult.wallS} s → ${batchResult.jobsPerMinute} jobs/min; POST → running p50 ${batchResult.pickupMs.p50} ms, queue wait p50 ${batchResult.queueWaitS.p50} s`,
    );
    return {
      workers: count,
      replicas: replicas.length,
      loadAverage,
      warmedWorkers,
      flood: floodResult,
      batch: batchResult,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop(20_000)));
  }
}

export async function runSuiteLoad(ctx: BenchContext): Promise<SuiteLoadResult> {
  const sizes = { apiWarmupS: ctx.quick ? 1 : 3, floodS: ctx.quick ? 3 : 10, batchJobs: ctx.quick ? 4 : 24 };
  const prefix = `${ctx.infra.prefix}-load`;
  const site = await startSite();
  const watcher = await JobWatcher.open(ctx.infra.redisUrl, prefix);
  const connection = createRedisConnection(ctx.infra.redisUrl, { connectionName: 'bench-suite-load' });
  // libs/queue's own queue (name and defaults); the prefix is the apps' REDIS_PREFIX.
  const queue = createQueue(QueueName.BrowserJobs, connection, { prefix });
  const replicas: StartedApi[] = [];
  const runs: SuiteLoadRun[] = [];
  try {
    replicas.push(...(await startReplicas(ctx, prefix, REPLICAS)));
    // Fresh processes: a short load first, so the first worker count does not measure a cold JIT.
    ctx.log(`suite-load: ${REPLICAS} jobs-api replicas up; ${sizes.apiWarmupS} s of warm-up load, no worker`);
    await postJobs(ctx, replicas, jobBody(site.url, 'suite-load-api-warmup'), sizes.apiWarmupS);
    await queue.drain(true); // nothing consumes it; the rows go with the TRUNCATE below
    for (const count of WORKER_COUNTS) {
      runs.push(
        await runWorkerCount(ctx, { prefix, replicas, watcher, queue, siteUrl: site.url }, count, sizes),
      );
    }
    return {
      replicas: REPLICAS,
      workerCounts: WORKER_COUNTS,
      workerConcurrency: 1,
      floodS: sizes.floodS,
      floodConnectionsPerReplica: FLOOD_CONNECTIONS_PER_REPLICA,
      batchJobs: sizes.batchJobs,
      query: fiveStepQuery(site.url),
      runs,
    };
  } finally {
    watcher.close();
    await queue.close().catch(() => undefined);
    connection.disconnect();
    await Promise.all(replicas.map((r) => r.app.stop()));
    await site.close();
  }
}

const cpuOf = (run: SuiteLoadRun, key: string): number => run.batch.cpuPercent[key] ?? 0;

export const workersLabel = (n: number): string => `${n} worker${n === 1 ? '' : 's'}`;

/** A few sentences on how the figures move from the fewest to the most workers, from the figures themselves. */
function scaling(r: SuiteLoadResult): string {
  const first = r.runs[0];
  const last = r.runs.at(-1);
  if (!first || !last || first === last) return '';
  const gain = last.batch.jobsPerMinute / Math.max(first.batch.jobsPerMinute, 0.001);
  const added = last.workers / first.workers;
  const saturated = r.runs.filter((run) => run.batch.cpuPercent.machine! >= 85).map((run) => run.workers);
  const notOk = r.runs.filter((run) => run.batch.succeeded !== run.batch.jobs);
  return [
    `From ${first.workers} to ${last.workers} workers (${added}×) the completion rate went from ${first.batch.jobsPerMinute} to ${last.batch.jobsPerMinute} jobs/min (${round(gain, 2)}×), the median queue wait from ${first.batch.queueWaitS.p50} to ${last.batch.queueWaitS.p50} s and the median job duration from ${first.batch.jobDurationS.p50} to ${last.batch.jobDurationS.p50} s.`,
    saturated.length
      ? `The machine's CPU (all cores) was ≥ 85 % busy during the batch with ${saturated.join(', ')} workers (other work on the machine meanwhile: ${r.runs.map((run) => `${cpuOf(run, 'everything else')}%`).join(' / ')} of a core).`
      : `The machine's CPU stayed below 85 % during the batches (${r.runs.map((run) => `${run.batch.cpuPercent.machine}%`).join(' / ')}).`,
    gain >= added * 0.9
      ? 'The completion rate grew about as fast as the workers.'
      : `APIs, Postgres, Redis and every Chromium share 2 cores, so each added worker adds less: ${round(gain, 2)}× the jobs per minute for ${added}× the workers, each job ${round(last.batch.jobDurationS.p50 / Math.max(first.batch.jobDurationS.p50, 0.001), 2)}× slower (median), while the workers' process trees used ${r.runs.map((run) => cpuOf(run, WORKER_TREES)).join(' → ')} % of a core.`,
    `Submission with the workers busy: ${r.runs.map((run) => `${run.flood.load.rps} req/s with ${run.workers}`).join(', ')} (p99 ${r.runs.map((run) => run.flood.load.latencyMs.p99).join(' / ')} ms), the replicas getting ${r.runs.map((run) => apiCpu(run.flood.cpuPercent)).join(' / ')} % of a core between them while the workers took ${r.runs.map((run) => run.flood.cpuPercent[WORKER_TREES]).join(' / ')} %: they share the same cores.`,
    notOk.length === 0
      ? 'Every batch job succeeded.'
      : `**Not every batch job succeeded**: ${notOk.map((run) => `${workersLabel(run.workers)}: ${run.batch.succeeded}/${run.batch.jobs} (${run.batch.failed} failed, ${run.batch.unfinished} unfinished)`).join('; ')}; their summaries are in the results JSON.`,
  ].join(' ');
}

export function suiteLoadMarkdown(r: SuiteLoadResult): string {
  return [
    `## 10. The whole suite under load: ${r.replicas} API replicas, ${r.workerCounts.join(' / ')} workers`,
    '',
    `${r.replicas} jobs-api processes on one Redis prefix and one database; clients spread requests over them round-robin (autocannon connection by connection, the batch request by request), as a Kubernetes Service would. For each worker count M: M browser-worker processes (concurrency ${r.workerConcurrency} each, fresh for each M, every one warmed with a job), then (1) ${r.floodS} s of \`POST /v1/jobs\` from autocannon with ${r.floodConnectionsPerReplica} connections per replica, posting the 5-step test the workers run, so they are busy throughout; afterwards the flood's queued rows are marked cancelled with one SQL statement, the BullMQ queue is drained (\`Queue.drain\`) and the bench waits until no job runs; (2) ${r.batchJobs} jobs of the 5-step test (video and drawn cursor, the API's defaults) submitted at once across the replicas and followed over Redis pub/sub. Completion rate: jobs that ended, per minute from the first POST to the last final status. POST → running: from the POST's response to the \`running\` status event at the bench (queue wait, claim and pub/sub); the first wave is the first M jobs claimed, which found an idle worker. Everything shares the machine's cores.`,
    '',
    '| workers | API replicas | submit req/s (workers busy) | submit p50 / p99 ms | submit errors | batch jobs ok | wall s | jobs/min | POST → running p50 / p95 ms | first wave p50 ms | queue wait p50 / p95 s | job p50 s | CPU APIs / workers / Postgres / Redis / other (% of a core) | machine CPU | load avg at start |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.workers} | ${run.replicas} | ${run.flood.load.rps} | ${run.flood.load.latencyMs.p50} / ${run.flood.load.latencyMs.p99} | ${run.flood.load.errors} | ${run.batch.succeeded}/${run.batch.jobs} | ${run.batch.wallS} | ${run.batch.jobsPerMinute} | ${run.batch.pickupMs.p50} / ${run.batch.pickupMs.p95} | ${run.batch.firstWavePickupMs.p50} | ${run.batch.queueWaitS.p50} / ${run.batch.queueWaitS.p95} | ${run.batch.jobDurationS.p50} | ${apiCpu(run.batch.cpuPercent)} / ${cpuOf(run, WORKER_TREES)} / ${cpuOf(run, POSTGRES)} / ${cpuOf(run, 'redis-server')} / ${cpuOf(run, 'everything else')} | ${run.batch.cpuPercent.machine}% | ${run.loadAverage[0]} |`,
    ),
    '',
    `The flood (jobs stored in Postgres; the workers ran those they claimed before it was removed, the rest were cancelled): ${r.runs
      .map(
        (run) =>
          `${workersLabel(run.workers)}: ${run.flood.stored} stored, ${run.flood.ranByWorkers} ran, ${run.flood.cancelled} cancelled, ${run.flood.drained} drained from the queue, removed in ${run.flood.cleanupS} s, CPU APIs ${apiCpu(run.flood.cpuPercent)}% / workers ${run.flood.cpuPercent[WORKER_TREES]}% / Postgres ${run.flood.cpuPercent[POSTGRES]}% of a core`,
      )
      .join('; ')}. Batch jobs per worker: ${r.runs
      .map((run) => `${run.workers}: ${Object.values(run.batch.jobsPerWorker).join(' + ')}`)
      .join('; ')}. Per replica during the batch (percent of a core): ${r.runs
      .map(
        (run) =>
          `${run.workers}: ${Object.entries(run.batch.cpuPercent)
            .filter(([k]) => k.startsWith('jobs-api'))
            .map(([k, v]) => `${k.slice('jobs-api '.length)} ${v}%`)
            .join(', ')}`,
      )
      .join('; ')}.`,
    '',
    scaling(r),
  ].join('\n');
}
