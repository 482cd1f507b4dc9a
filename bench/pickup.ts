import { startJobsApi, startWorker, type BenchContext } from './support/context.ts';
import { CpuMeter, pidsByComm, processTree } from './support/proc.ts';
import { JobWatcher, type LogEntry } from './support/runner-api.ts';
import { pickupQuery, startSite } from './support/site.ts';
import { round, sleep, summarize, type Summary } from './support/stats.ts';

/**
 * 2. Pickup latency: with a warm worker (one job run first), from the POST's response to the
 * worker's first browser action: the `time` of the first `step … started` entry of the job's log.
 */

export const PICKUP_AIMS = { p50Ms: 150 };

export interface PickupJob {
  id: string;
  status: string;
  postMs: number;
  /** POST response → started_at (the worker's claim in Postgres). */
  toClaimMs: number;
  /** POST response → the `running` status event reaching the bench over Redis pub/sub. */
  toRunningEventMs: number | null;
  /** POST response → the agent's first log entry (before a browser context is opened). */
  toAgentStartMs: number | null;
  /** POST response → the `parsed N steps` entry (after the browser context and page were opened). */
  toParsedMs: number | null;
  /** POST response → the first `step … started` entry. */
  toFirstStepMs: number;
}

export interface PickupResult {
  aims: typeof PICKUP_AIMS;
  workerConcurrency: number;
  jobs: number;
  query: string;
  pauseBetweenJobsMs: number;
  postMs: Summary;
  toClaimMs: Summary;
  toRunningEventMs: Summary;
  toAgentStartMs: Summary;
  toFirstStepMs: Summary;
  /** Medians of the parts of POST → first step. */
  breakdownP50Ms: {
    queueAndClaim: number;
    claimToAgentStart: number;
    /** Opening a browser context and a page (BrowserPool.acquire), and parsing the query. */
    agentStartToParsed: number;
    /** Starting the recorder (ffmpeg, CDP screencast) and installing the cursor overlay. */
    parsedToFirstStep: number;
  };
  failed: number;
  meetsAims: boolean;
  /** Over the measured jobs: percent of one core per group; `machine`: percent of all cores. */
  cpuPercent: Record<string, number>;
  samples: PickupJob[];
}

const ms = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

export async function runPickup(ctx: BenchContext): Promise<PickupResult> {
  const count = ctx.quick ? 8 : 30;
  const pauseMs = 300;
  const prefix = `${ctx.infra.prefix}-pickup`;
  const site = await startSite();
  const watcher = await JobWatcher.open(ctx.infra.redisUrl, prefix);
  const { app, api } = await startJobsApi(ctx, prefix);
  const worker = await startWorker(ctx, prefix, 1, 'browser-worker-pickup');
  try {
    const body = { query: pickupQuery(site.url), initial_url: `${site.url}/` };
    ctx.log('pickup: warming the worker with one job');
    const warm = await api.submit(body);
    await watcher.waitForFinal(warm.job.id, 60_000);

    const samples: PickupJob[] = [];
    const meter = new CpuMeter({
      'worker tree': () => processTree(worker.pid).map((p) => p.pid),
      'jobs-api': () => [app.pid],
      'postgres (all on the machine)': () => pidsByComm(['postgres']),
    });
    meter.start();
    for (let i = 0; i < count; i++) {
      await sleep(pauseMs); // the worker is idle, blocked on the queue, when the job arrives
      const { job, sentAt, respondedAt } = await api.submit(body);
      await watcher.waitForFinal(job.id, 60_000);
      const record = await api.get(job.id);
      const log: LogEntry[] = await api.log(job.id);
      const firstStep = log.find((e) => e.outcome === 'started' && e.step !== undefined);
      if (!firstStep)
        throw new Error(`job ${job.id} (${record.status}) logged no started step: ${record.summary}`);
      const running = watcher.receivedAt(job.id, 'running');
      const agentStart = ms(log[0]?.time);
      const parsed = ms(log.find((e) => e.message?.startsWith('parsed '))?.time);
      samples.push({
        id: job.id,
        status: record.status,
        postMs: respondedAt - sentAt,
        toClaimMs: ms(record.started_at)! - respondedAt,
        toRunningEventMs: running === undefined ? null : running - respondedAt,
        toAgentStartMs: agentStart === null ? null : agentStart - respondedAt,
        toParsedMs: parsed === null ? null : parsed - respondedAt,
        toFirstStepMs: Date.parse(firstStep.time) - respondedAt,
      });
    }
    const cpuPercent = meter.stop();
    const pick = (f: (s: PickupJob) => number | null) =>
      summarize(samples.map(f).filter((v): v is number => v !== null));
    const toFirstStepMs = pick((s) => s.toFirstStepMs);
    const toClaimMs = pick((s) => s.toClaimMs);
    const toAgentStartMs = pick((s) => s.toAgentStartMs);
    const result: PickupResult = {
      aims: PICKUP_AIMS,
      workerConcurrency: 1,
      jobs: samples.length,
      query: body.query,
      pauseBetweenJobsMs: pauseMs,
      postMs: pick((s) => s.postMs),
      toClaimMs,
      toRunningEventMs: pick((s) => s.toRunningEventMs),
      toAgentStartMs,
      toFirstStepMs,
      breakdownP50Ms: {
        queueAndClaim: toClaimMs.p50,
        claimToAgentStart: round(
          pick((s) => (s.toAgentStartMs === null ? null : s.toAgentStartMs - s.toClaimMs)).p50,
        ),
        agentStartToParsed: round(
          pick((s) =>
            s.toAgentStartMs === null || s.toParsedMs === null ? null : s.toParsedMs - s.toAgentStartMs,
          ).p50,
        ),
        parsedToFirstStep: round(
          pick((s) => (s.toParsedMs === null ? null : s.toFirstStepMs - s.toParsedMs)).p50,
        ),
      },
      failed: samples.filter((s) => s.status !== 'succeeded').length,
      meetsAims: toFirstStepMs.p50 <= PICKUP_AIMS.p50Ms,
      cpuPercent,
      samples,
    };
    ctx.log(
      `pickup: POST → first step p50 ${toFirstStepMs.p50} ms, p95 ${toFirstStepMs.p95} ms; POST → running (claim) p50 ${toClaimMs.p50} ms`,
    );
    return result;
  } finally {
    watcher.close();
    await worker.stop();
    await app.stop();
    await site.close();
  }
}

export function pickupMarkdown(r: PickupResult): string {
  const row = (name: string, s: Summary) => `| ${name} | ${s.p50} | ${s.p95} | ${s.min} | ${s.max} |`;
  return [
    '## 2. Pickup latency',
    '',
    `One warm worker (concurrency ${r.workerConcurrency}, one job run first), ${r.jobs} jobs submitted one after another, each ${r.pauseBetweenJobsMs} ms after the previous one finished (the worker idle, blocked on the queue). Times from the moment the POST's response arrived; the first browser action is the \`time\` of the first \`step … started\` entry of the job's NDJSON log (step 1 opens the page). Aim: p50 ≤ ${r.aims.p50Ms} ms.`,
    '',
    '| from the POST response to … | p50 ms | p95 ms | min ms | max ms |',
    '| --- | --- | --- | --- | --- |',
    row('`running` (started_at, the claim in Postgres)', r.toClaimMs),
    row('the `running` status event at a subscriber', r.toRunningEventMs),
    row("the agent's first log entry (before the browser context)", r.toAgentStartMs),
    row('**the first `step … started` entry**', r.toFirstStepMs),
    '',
    `The POST itself took p50 ${r.postMs.p50} ms. Median breakdown of POST → first step: queue + claim ${r.breakdownP50Ms.queueAndClaim} ms, claim → agent start ${r.breakdownP50Ms.claimToAgentStart} ms, agent start → \`parsed\` (new browser context and page, parsing) ${r.breakdownP50Ms.agentStartToParsed} ms, \`parsed\` → first step (recorder start: ffmpeg and the CDP screencast; cursor overlay) ${r.breakdownP50Ms.parsedToFirstStep} ms. ${r.failed === 0 ? 'Every job succeeded.' : `${r.failed} jobs did not succeed.`} Aim ${r.meetsAims ? 'met' : '**not met**'}. Other work on the machine meanwhile: ${r.cpuPercent['everything else']}% of a core.`,
  ].join('\n');
}
