import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { startJobsApi, startWorker, type BenchContext } from './support/context.ts';
import { sql } from './support/infra.ts';
import { JobWatcher, RunnerApi } from './support/runner-api.ts';
import { pickupQuery, startSite } from './support/site.ts';
import { round, sleep } from './support/stats.ts';

/**
 * 13. Fair share: owner A submits a flood of jobs, then owner B submits 10. With fair share, B's
 * jobs start alternately with A's instead of after A's whole backlog. B's i-th job should start
 * within (RUNNER_DISPATCH_AHEAD + 2·i) job starts of its submission, a job start taking what the
 * fleet took on average meanwhile (the window from B's first submission to B's last start).
 */

export interface FairShareResult {
  floodJobs: number;
  newcomerJobs: number;
  workerConcurrency: number;
  dispatchAhead: number;
  /** Mean time between two job starts, fleet-wide, in the measured window. */
  startIntervalMs: number;
  /** Median run time of a job (started → finished). */
  jobDurationMs: number;
  /** A's jobs still waiting when B's first job was submitted. */
  floodBacklogAtNewcomer: number;
  newcomer: { index: number; waitMs: number; boundMs: number; startsBefore: number; within: boolean }[];
  /** What plain FIFO would give B's first job: A's backlog at B's submission × the start interval. */
  fifoFirstWaitMs: number;
  meetsAims: boolean;
}

const AHEAD = 2;

async function storeKey(databaseUrl: string, owner: string): Promise<string> {
  const key = `bench_${randomBytes(18).toString('base64url')}`;
  await sql(
    databaseUrl,
    `INSERT INTO api_keys (id, owner, name, prefix, hash) VALUES ($1, $2, 'bench', $3, $4)`,
    [randomUUID(), owner, key.slice(0, 10), createHash('sha256').update(key).digest('hex')],
  );
  return key;
}

export async function runFairShare(ctx: BenchContext): Promise<FairShareResult> {
  const floodJobs = ctx.quick ? 60 : 500;
  const newcomerJobs = 10;
  const concurrency = 2;
  const prefix = `${ctx.infra.prefix}-fair`;
  const run = randomBytes(3).toString('hex');
  const [ownerA, ownerB] = [`bench-fair-a-${run}`, `bench-fair-b-${run}`];
  const site = await startSite();
  const watcher = await JobWatcher.open(ctx.infra.redisUrl, prefix);
  const env = { RUNNER_DISPATCH_AHEAD: String(AHEAD), RUNNER_MAX_QUEUED_PER_OWNER: '1000' };
  const { app, url } = await startJobsApi(ctx, prefix, { env });
  const worker = await startWorker(ctx, prefix, concurrency, 'browser-worker-fair');
  try {
    const a = new RunnerApi(url, await storeKey(ctx.infra.databaseUrl, ownerA));
    const b = new RunnerApi(url, await storeKey(ctx.infra.databaseUrl, ownerB));
    const body = { query: pickupQuery(site.url), initial_url: `${site.url}/` };

    ctx.log(`fair-share: owner A submits ${floodJobs} jobs`);
    const floodIds: string[] = [];
    for (let i = 0; i < floodJobs; i++) floodIds.push((await a.submit(body)).job.id);
    ctx.log(`fair-share: owner B submits ${newcomerJobs} jobs`);
    const submitted: { id: string; at: number }[] = [];
    for (let i = 0; i < newcomerJobs; i++) {
      const { job, respondedAt } = await b.submit(body);
      submitted.push({ id: job.id, at: respondedAt });
    }
    for (const { id } of submitted) await watcher.waitForFinal(id, 10 * 60_000);

    // A's rest is not needed: cancel what has not started.
    for (const id of floodIds) await a.cancel(id).catch(() => undefined);
    await sleep(500);

    const rows = await sql<{ id: string; owner: string; started_at: Date | null; finished_at: Date | null }>(
      ctx.infra.databaseUrl,
      'SELECT id, owner, started_at, finished_at FROM jobs WHERE owner = ANY($1)',
      [[ownerA, ownerB]],
    );
    const startOf = new Map(rows.map((r) => [r.id, r.started_at?.getTime() ?? null]));
    const starts = rows.map((r) => r.started_at?.getTime()).filter((t): t is number => t !== undefined);
    const firstSubmit = submitted[0]!.at;
    const lastStart = Math.max(...submitted.map((s) => startOf.get(s.id)!));
    const inWindow = starts.filter((t) => t >= firstSubmit && t <= lastStart).length;
    const startIntervalMs = round((lastStart - firstSubmit) / Math.max(1, inWindow));
    const durations = rows
      .filter((r) => r.started_at && r.finished_at)
      .map((r) => r.finished_at!.getTime() - r.started_at!.getTime())
      .sort((x, y) => x - y);
    const floodBacklogAtNewcomer = rows.filter(
      (r) => r.owner === ownerA && (r.started_at === null || r.started_at.getTime() > firstSubmit),
    ).length;
    const newcomer = submitted.map(({ id, at }, i) => {
      const started = startOf.get(id)!;
      const boundMs = round((AHEAD + 2 * (i + 1)) * startIntervalMs);
      return {
        index: i + 1,
        waitMs: started - at,
        boundMs,
        startsBefore: starts.filter((t) => t >= at && t < started).length,
        within: started - at <= boundMs,
      };
    });
    const result: FairShareResult = {
      floodJobs,
      newcomerJobs,
      workerConcurrency: concurrency,
      dispatchAhead: AHEAD,
      startIntervalMs,
      jobDurationMs: durations[Math.floor(durations.length / 2)] ?? 0,
      floodBacklogAtNewcomer,
      newcomer,
      fifoFirstWaitMs: round(floodBacklogAtNewcomer * startIntervalMs),
      meetsAims: newcomer.every((n) => n.within),
    };
    ctx.log(
      `fair-share: B's jobs started after ${newcomer.map((n) => `${n.waitMs}`).join(', ')} ms (bounds ${newcomer.map((n) => n.boundMs).join(', ')} ms); A's backlog then ${floodBacklogAtNewcomer} jobs (FIFO: ~${result.fifoFirstWaitMs} ms for B's first)`,
    );
    return result;
  } finally {
    watcher.close();
    await worker.stop();
    await app.stop();
    await site.close();
  }
}

export function fairShareMarkdown(r: FairShareResult): string {
  return [
    '## 13. Fair share',
    '',
    `Owner A submits ${r.floodJobs} jobs (a one-assertion test of a local page), then owner B submits ${r.newcomerJobs}; one worker at concurrency ${r.workerConcurrency}, RUNNER_DISPATCH_AHEAD=${r.dispatchAhead}. A job ran p50 ${r.jobDurationMs} ms; the fleet started one job every ${r.startIntervalMs} ms while B's jobs were waiting. Bound for B's i-th job: (${r.dispatchAhead} + 2·i) job starts after its submission. A still had ${r.floodBacklogAtNewcomer} jobs waiting when B came: first-come first-served would have started B's first job after about ${Math.round(r.fifoFirstWaitMs / 1000)} s.`,
    '',
    "| B's job | waited ms | bound ms | job starts before it | within |",
    '| --- | --- | --- | --- | --- |',
    ...r.newcomer.map(
      (n) =>
        `| ${n.index} | ${n.waitMs} | ${n.boundMs} | ${n.startsBefore} | ${n.within ? 'yes' : '**no**'} |`,
    ),
    '',
    `Aim ${r.meetsAims ? 'met' : '**not met**'}.`,
  ].join('\n');
}
