import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { baselineDir } from './interpreter.ts';
import { startJobsApi, startWorker, type BenchContext } from './support/context.ts';
import { sql } from './support/infra.ts';
import { CpuMeter, memory, pidsByComm, processTree, type ProcStat } from './support/proc.ts';
import { JobWatcher } from './support/runner-api.ts';
import { fiveStepQuery, startSite } from './support/site.ts';
import { mean, round, sleep, summarize, type Summary } from './support/stats.ts';

/**
 * 4. Memory per concurrent job and jobs per minute for WORKER_CONCURRENCY 1, 2 and 4 on one worker:
 * a batch of 5-step jobs submitted at once, the worker's process tree (Node, Chromium, ffmpeg)
 * sampled from /proc while it works through them.
 */

type Kind = 'worker (node)' | 'chromium' | 'ffmpeg' | 'other';

interface MemorySample {
  at: number;
  rssMb: number;
  pssMb: number;
  byKind: Record<Kind, { rssMb: number; pssMb: number; processes: number }>;
}

export interface ConcurrencyRun {
  concurrency: number;
  /** 'baseline': the worker of BENCH_BASELINE (the code before a change), in the same run. */
  code?: 'current' | 'baseline';
  /** 1, 5 and 15 minute load averages as the batch was submitted. */
  loadAverage?: number[];
  jobs: number;
  succeeded: number;
  /** First POST sent → last final status received. */
  wallS: number;
  jobsPerMinute: number;
  /** started_at → finished_at of each job. */
  jobDurationS: Summary;
  /** created_at → started_at of each job. */
  queueWaitS: Summary;
  /**
   * The `time` of the job's `verdict:` log entry → finished_at (the final status, written with the
   * video linked): what finishing the video (and the artifacts) adds after the verdict.
   */
  verdictToFinishedMs?: Summary;
  /**
   * finished_at → the mp4 complete at its path (its ctime: the rename into place). Negative when
   * the worker waited for the file before ending the job (the code before this change).
   */
  finishedToVideoMs?: Summary;
  memory: {
    /** Warm worker (browser launched, one job done), no job running: average over 2 s. */
    idle: { rssMb: number; pssMb: number };
    peak: { rssMb: number; pssMb: number };
    mean: { rssMb: number; pssMb: number };
    /** (peak − idle) / concurrency. */
    perConcurrentJobPssMb: number;
    perConcurrentJobRssMb: number;
    peakByKind: Record<Kind, { rssMb: number; pssMb: number; processes: number }>;
    /** PSS by kind when idle (mean) and in the sample of the highest total: where the growth is. */
    idleByKindPssMb?: Record<Kind, number>;
    atPeakByKindPssMb?: Record<Kind, number>;
    samples: number;
  };
  cpuPercent: Record<string, number>;
}

export interface ConcurrencyResult {
  jobsPerRun: number;
  query: string;
  highlightMouse: boolean;
  samplingIntervalMs: number;
  runs: ConcurrencyRun[];
}

function kindOf(proc: ProcStat, workerPid: number): Kind {
  if (proc.pid === workerPid) return 'worker (node)';
  if (/chrom/i.test(proc.comm)) return 'chromium';
  if (proc.comm === 'ffmpeg') return 'ffmpeg';
  return 'other';
}

function sampleTree(workerPid: number): MemorySample {
  const byKind: MemorySample['byKind'] = {
    'worker (node)': { rssMb: 0, pssMb: 0, processes: 0 },
    chromium: { rssMb: 0, pssMb: 0, processes: 0 },
    ffmpeg: { rssMb: 0, pssMb: 0, processes: 0 },
    other: { rssMb: 0, pssMb: 0, processes: 0 },
  };
  for (const proc of processTree(workerPid)) {
    const m = memory(proc.pid);
    if (!m) continue;
    const k = byKind[kindOf(proc, workerPid)];
    k.rssMb += m.rssKb / 1024;
    k.pssMb += m.pssKb / 1024;
    k.processes += 1;
  }
  const kinds = Object.values(byKind);
  return {
    at: Date.now(),
    rssMb: kinds.reduce((a, k) => a + k.rssMb, 0),
    pssMb: kinds.reduce((a, k) => a + k.pssMb, 0),
    byKind,
  };
}

const mb = (value: number): number => round(value, 0);

export async function runConcurrency(ctx: BenchContext): Promise<ConcurrencyResult> {
  // 24: at concurrency 4 that is six rounds, so the first and last (partly idle) weigh less.
  const jobsPerRun = ctx.quick ? 4 : 24;
  const intervalMs = 300;
  const prefix = `${ctx.infra.prefix}-conc`;
  const site = await startSite();
  const watcher = await JobWatcher.open(ctx.infra.redisUrl, prefix);
  const { app, api } = await startJobsApi(ctx, prefix);
  const body = { query: fiveStepQuery(site.url), initial_url: `${site.url}/` };
  const runs: ConcurrencyRun[] = [];
  const baseline = baselineDir();
  try {
    for (const concurrency of [1, 2, 4]) {
      // With a baseline, both workers run at each concurrency, the order alternating.
      const codes: ('current' | 'baseline')[] = !baseline
        ? ['current']
        : concurrency === 2
          ? ['baseline', 'current']
          : ['current', 'baseline'];
      for (const code of codes) {
        const worker =
          code === 'baseline'
            ? await startWorker(ctx, prefix, concurrency, `browser-worker-baseline-c${concurrency}`, baseline)
            : await startWorker(ctx, prefix, concurrency);
        try {
          ctx.log(
            `concurrency ${concurrency}${code === 'baseline' ? ' (baseline)' : ''}: warming the worker, then ${jobsPerRun} jobs at once`,
          );
          const warm = await api.submit(body);
          await watcher.waitForFinal(warm.job.id, 90_000);
          await sleep(1_000);
          const idle: MemorySample[] = [];
          for (let i = 0; i < 7; i++) {
            idle.push(sampleTree(worker.pid));
            await sleep(intervalMs);
          }

          const samples: MemorySample[] = [];
          const sampler = setInterval(() => samples.push(sampleTree(worker.pid)), intervalMs);
          const meter = new CpuMeter({
            'worker tree (node, chromium, ffmpeg)': () => processTree(worker.pid).map((p) => p.pid),
            'jobs-api': () => [app.pid],
            'postgres (all on the machine)': () => pidsByComm(['postgres']),
          });
          meter.start();
          const ids: string[] = [];
          const loadAverage = loadavg().map((x) => round(x, 2));
          let firstSent = 0;
          let lastFinal = 0;
          try {
            for (let i = 0; i < jobsPerRun; i++) {
              const { job, sentAt } = await api.submit(body);
              firstSent ||= sentAt;
              ids.push(job.id);
            }
            for (const id of ids) lastFinal = Math.max(lastFinal, await watcher.waitForFinal(id, 240_000));
          } finally {
            clearInterval(sampler);
          }
          const cpuPercent = meter.stop();
          const rows = await sql<{ status: string; created_at: Date; started_at: Date; finished_at: Date }>(
            ctx.infra.databaseUrl,
            'select status, created_at, started_at, finished_at from jobs where id = any($1::uuid[])',
            [ids],
          );
          const finishedAt = new Map(
            (
              await sql<{ id: string; finished_at: Date }>(
                ctx.infra.databaseUrl,
                'select id, finished_at from jobs where id = any($1::uuid[])',
                [ids],
              )
            ).map((r) => [r.id, r.finished_at.getTime()]),
          );
          const verdictGaps: number[] = [];
          for (const id of ids) {
            const verdict = (await api.log(id)).find((e) => e.message?.startsWith('verdict:'));
            const end = finishedAt.get(id);
            if (verdict && end) verdictGaps.push(end - Date.parse(verdict.time));
          }
          const videoGaps: number[] = [];
          for (const id of ids) {
            const end = finishedAt.get(id);
            const file = join(ctx.artifactsDir, 'jobs', id, 'video.mp4');
            // A request for the video waits for it; by the time all jobs are final, most are there.
            for (let i = 0; i < 50 && !existsSync(file); i++) await sleep(100);
            if (end && existsSync(file)) videoGaps.push(statSync(file).ctimeMs - end);
          }
          const wallS = (lastFinal - firstSent) / 1000;
          const idlePss = mean(idle.map((s) => s.pssMb));
          const idleRss = mean(idle.map((s) => s.rssMb));
          const peakPss = Math.max(...samples.map((s) => s.pssMb));
          const peakRss = Math.max(...samples.map((s) => s.rssMb));
          const peakByKind = {} as ConcurrencyRun['memory']['peakByKind'];
          for (const kind of Object.keys(samples[0]?.byKind ?? {}) as Kind[]) {
            peakByKind[kind] = {
              rssMb: mb(Math.max(...samples.map((s) => s.byKind[kind].rssMb))),
              pssMb: mb(Math.max(...samples.map((s) => s.byKind[kind].pssMb))),
              processes: Math.max(...samples.map((s) => s.byKind[kind].processes)),
            };
          }
          const kinds = Object.keys(samples[0]?.byKind ?? {}) as Kind[];
          const atPeak = samples.find((s) => s.pssMb === peakPss);
          const idleByKindPssMb = Object.fromEntries(
            kinds.map((kind) => [kind, mb(mean(idle.map((s) => s.byKind[kind].pssMb)))]),
          ) as Record<Kind, number>;
          const atPeakByKindPssMb = Object.fromEntries(
            kinds.map((kind) => [kind, mb(atPeak?.byKind[kind].pssMb ?? 0)]),
          ) as Record<Kind, number>;
          const run: ConcurrencyRun = {
            concurrency,
            ...(baseline ? { code } : {}),
            loadAverage,
            jobs: ids.length,
            succeeded: rows.filter((r) => r.status === 'succeeded').length,
            wallS: round(wallS, 2),
            jobsPerMinute: round((ids.length / wallS) * 60, 1),
            jobDurationS: summarize(
              rows.map((r) => (r.finished_at.getTime() - r.started_at.getTime()) / 1000),
              2,
            ),
            queueWaitS: summarize(
              rows.map((r) => (r.started_at.getTime() - r.created_at.getTime()) / 1000),
              2,
            ),
            ...(verdictGaps.length ? { verdictToFinishedMs: summarize(verdictGaps) } : {}),
            ...(videoGaps.length ? { finishedToVideoMs: summarize(videoGaps) } : {}),
            memory: {
              idle: { rssMb: mb(idleRss), pssMb: mb(idlePss) },
              peak: { rssMb: mb(peakRss), pssMb: mb(peakPss) },
              mean: {
                rssMb: mb(mean(samples.map((s) => s.rssMb))),
                pssMb: mb(mean(samples.map((s) => s.pssMb))),
              },
              perConcurrentJobPssMb: mb((peakPss - idlePss) / concurrency),
              perConcurrentJobRssMb: mb((peakRss - idleRss) / concurrency),
              peakByKind,
              idleByKindPssMb,
              atPeakByKindPssMb,
              samples: samples.length,
            },
            cpuPercent,
          };
          runs.push(run);
          ctx.log(
            `concurrency ${concurrency}${code === 'baseline' ? ' (baseline)' : ''}: ${run.succeeded}/${run.jobs} succeeded in ${run.wallS} s → ${run.jobsPerMinute} jobs/min; PSS idle ${run.memory.idle.pssMb} MB, peak ${run.memory.peak.pssMb} MB (+${run.memory.perConcurrentJobPssMb} MB per concurrent job)`,
          );
        } finally {
          await worker.stop(20_000);
        }
      }
    }
    return { jobsPerRun, query: body.query, highlightMouse: true, samplingIntervalMs: intervalMs, runs };
  } finally {
    watcher.close();
    await app.stop();
    await site.close();
  }
}

export function concurrencyMarkdown(r: ConcurrencyResult): string {
  return [
    '## 4. Concurrency: jobs per minute and memory per concurrent job',
    '',
    `One worker process at WORKER_CONCURRENCY 1, 2 and 4 (a fresh process each, warmed with one job); ${r.jobsPerRun} jobs of a 5-step test (open, type, check, click → new page, assertion) submitted at once, with the API's defaults (video recorded, \`highlight_mouse: true\`: drawn cursor, 25 ms per typed character). Memory of the worker's whole process tree (Node, Chromium and its helpers, ffmpeg) sampled from /proc every ${r.samplingIntervalMs} ms. PSS divides shared pages among the processes that share them (the sum is the real footprint); RSS counts them in every process (overstated).`,
    '',
    ...(r.runs.some((run) => run.code === 'baseline')
      ? [
          'Rows marked "baseline" ran the worker of `BENCH_BASELINE` (the code before the change) in the same run, against the same API, site and database, alternating with the current worker.',
          '',
        ]
      : []),
    '| concurrency | jobs ok | wall s | jobs/min | job p50 s | queue wait p50 s | idle PSS MB | peak PSS MB | PSS per concurrent job MB | idle RSS MB | peak RSS MB | RSS per concurrent job MB | peak Chromium processes | worker-tree CPU | machine CPU | verdict → final status p50 / p95 ms | final status → video complete p50 / max ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.concurrency}${run.code === 'baseline' ? ' (baseline)' : ''} | ${run.succeeded}/${run.jobs} | ${run.wallS} | ${run.jobsPerMinute} | ${run.jobDurationS.p50} | ${run.queueWaitS.p50} | ${run.memory.idle.pssMb} | ${run.memory.peak.pssMb} | ${run.memory.perConcurrentJobPssMb} | ${run.memory.idle.rssMb} | ${run.memory.peak.rssMb} | ${run.memory.perConcurrentJobRssMb} | ${run.memory.peakByKind.chromium?.processes ?? 0} | ${run.cpuPercent['worker tree (node, chromium, ffmpeg)']}% of a core | ${run.cpuPercent.machine}% | ${run.verdictToFinishedMs ? `${run.verdictToFinishedMs.p50} / ${run.verdictToFinishedMs.p95}` : '—'} | ${run.finishedToVideoMs ? `${run.finishedToVideoMs.p50} / ${run.finishedToVideoMs.max}` : '—'} |`,
    ),
    '',
    'PSS by kind, idle → at the peak of the total (MB): ' +
      r.runs
        .filter((run) => run.memory.idleByKindPssMb && run.memory.atPeakByKindPssMb)
        .map(
          (run) =>
            `c=${run.concurrency}${run.code === 'baseline' ? ' (baseline)' : ''}: ` +
            Object.keys(run.memory.idleByKindPssMb!)
              .map(
                (k) =>
                  `${k} ${run.memory.idleByKindPssMb![k as Kind]} → ${run.memory.atPeakByKindPssMb![k as Kind]}`,
              )
              .join(', '),
        )
        .join('; ') +
      '. ',
    'Peak PSS by kind (MB): ' +
      r.runs
        .map(
          (run) =>
            `c=${run.concurrency}${run.code === 'baseline' ? ' (baseline)' : ''}: ` +
            Object.entries(run.memory.peakByKind)
              .filter(([, v]) => v.processes > 0)
              .map(([k, v]) => `${k} ${v.pssMb}`)
              .join(', '),
        )
        .join('; ') +
      '. Other work on the machine meanwhile (percent of a core): ' +
      r.runs
        .map(
          (run) =>
            `c=${run.concurrency}${run.code === 'baseline' ? ' (baseline)' : ''}: ${run.cpuPercent['everything else']}%${run.loadAverage ? ` (load average ${run.loadAverage.join(' / ')})` : ''}`,
        )
        .join(', ') +
      '.',
  ].join('\n');
}
