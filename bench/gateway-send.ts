import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  autocannon,
  cpuMsPerRequest,
  loadFigures,
  type CannonRequest,
  type LoadFigures,
} from './support/cannon.ts';
import type { BenchContext } from './support/context.ts';
import { A2A_HEADERS, sendMessageParams, startGateway } from './support/gateway.ts';
import { queuedJobs, sql } from './support/infra.ts';
import { CpuMeter, pidsByComm } from './support/proc.ts';
import { profileMarkdown, profilerNodeArgs, underProfiler, type ProfiledLoad } from './support/profiling.ts';
import { sleep } from './support/stats.ts';

/**
 * 8. A2A SendMessage (issue #5): JSON-RPC `SendMessage` with `configuration.returnImmediately: true`
 * against one agent-gateway process with no worker (tasks only queue), autocannon in this process.
 */

export const GATEWAY_SEND_AIMS = { rps: 1500, errors: 0 };

export interface GatewaySendRun extends LoadFigures {
  /** Tasks stored (jobs rows) and waiting in the BullMQ queue afterwards: accepted = stored + queued. */
  tasksStored: number;
  tasksQueued: number;
  cpuPercent: Record<string, number>;
  cpuMsPerRequest: { gateway: number; postgres: number };
  meetsAims: boolean;
}

export interface GatewaySendResult {
  aims: typeof GATEWAY_SEND_AIMS;
  body: unknown;
  runs: GatewaySendRun[];
  profile?: ProfiledLoad;
}

const GATEWAY = 'agent-gateway';
const POSTGRES = 'postgres (all on the machine)';

/** A JSON-RPC success whose task was queued; anything else (a JSON-RPC error is HTTP 200) is an error. */
function queuedTask(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { result?: { task?: { status?: { state?: string } } } };
    return parsed.result?.task?.status?.state === 'TASK_STATE_SUBMITTED';
  } catch {
    return false;
  }
}

/** The number of jobs once it stopped growing (requests still in flight in the gateway are stored). */
async function settledJobCount(databaseUrl: string): Promise<number> {
  const count = async (): Promise<number> =>
    Number((await sql<{ count: string }>(databaseUrl, 'SELECT count(*) FROM jobs'))[0]?.count ?? 0);
  let last = await count();
  for (;;) {
    await sleep(500);
    const now = await count();
    if (now === last) return now;
    last = now;
  }
}

export async function runGatewaySend(ctx: BenchContext): Promise<GatewaySendResult> {
  const durationS = ctx.quick ? 5 : 30;
  const warmupS = ctx.quick ? 2 : 5;
  const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendMessageParams('<a fresh uuid>') };
  // Every message gets its own messageId, as real clients send. (Not autocannon's `idReplacement`:
  // autocannon 8 counts 27 bytes per replaced id in Content-Length, its ids have 24, so the server
  // waits for bytes that never come.)
  const request: CannonRequest = {
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ ...body, params: sendMessageParams(randomUUID()) }),
    }),
  };
  const runs: GatewaySendRun[] = [];
  for (const connections of [10, 50]) {
    await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs, a2a_contexts CASCADE');
    const prefix = `${ctx.infra.prefix}-gws${connections}`;
    const gateway = await startGateway(ctx, prefix, `agent-gateway-send-${connections}`);
    try {
      const options = {
        url: `${gateway.url}/a2a`,
        method: 'POST',
        headers: { ...A2A_HEADERS, authorization: `Bearer ${ctx.apiKey}` },
        requests: [request],
        verifyBody: queuedTask,
        connections,
        timeout: 10,
      };
      ctx.log(`gateway-send: ${connections} connections, ${warmupS} s warm-up, then ${durationS} s measured`);
      await autocannon({ ...options, duration: warmupS });
      // The gateway finishes the requests the warm-up left in flight; this run's tasks are counted from here.
      const storedBefore = await settledJobCount(ctx.infra.databaseUrl);
      const queuedBefore = await queuedJobs(ctx.infra.redisUrl, prefix);
      const meter = new CpuMeter({
        [GATEWAY]: () => [gateway.app.pid],
        [POSTGRES]: () => pidsByComm(['postgres']),
        'redis-server': () => pidsByComm(['redis-server']),
        'autocannon (bench process)': () => [process.pid],
      });
      meter.start();
      const r = await autocannon({ ...options, duration: durationS });
      const cpuPercent = meter.stop();
      const figures = loadFigures(connections, r);
      const run: GatewaySendRun = {
        ...figures,
        tasksStored: (await settledJobCount(ctx.infra.databaseUrl)) - storedBefore,
        tasksQueued: (await queuedJobs(ctx.infra.redisUrl, prefix)) - queuedBefore,
        cpuPercent,
        cpuMsPerRequest: {
          gateway: cpuMsPerRequest(cpuPercent[GATEWAY], figures.rps),
          postgres: cpuMsPerRequest(cpuPercent[POSTGRES], figures.rps),
        },
        meetsAims: figures.rps >= GATEWAY_SEND_AIMS.rps && figures.errors === GATEWAY_SEND_AIMS.errors,
      };
      runs.push(run);
      ctx.log(
        `gateway-send: ${connections} conn → ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors; gateway CPU ${cpuPercent[GATEWAY]}% of a core`,
      );
    } finally {
      await gateway.app.stop();
    }
  }
  const result: GatewaySendResult = { aims: GATEWAY_SEND_AIMS, body, runs };
  if (ctx.profile || runs.some((run) => !run.meetsAims)) result.profile = await profile(ctx, request);
  return result;
}

/** A separate gateway under V8's sampling profiler for a shorter load, so the measured runs stay clean. */
async function profile(ctx: BenchContext, request: CannonRequest): Promise<ProfiledLoad> {
  const connections = 10;
  const durationS = ctx.quick ? 5 : 10;
  const file = join(ctx.resultsDir, `${ctx.stamp}.agent-gateway.cpuprofile.json`);
  await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs, a2a_contexts CASCADE');
  const gateway = await startGateway(ctx, `${ctx.infra.prefix}-gwprof`, 'agent-gateway-profiled', {
    nodeArgs: profilerNodeArgs,
    env: { BENCH_CPU_PROFILE: file },
  });
  try {
    const options = {
      url: `${gateway.url}/a2a`,
      method: 'POST',
      headers: { ...A2A_HEADERS, authorization: `Bearer ${ctx.apiKey}` },
      requests: [request],
      connections,
      timeout: 10,
    };
    ctx.log(`gateway-send: profiling agent-gateway for ${durationS} s at ${connections} connections`);
    await autocannon({ ...options, duration: 3 });
    return await underProfiler(gateway.app, file, connections, durationS, () =>
      autocannon({ ...options, duration: durationS }),
    );
  } finally {
    await gateway.app.stop();
  }
}

export function gatewaySendMarkdown(r: GatewaySendResult): string {
  return [
    '## 8. A2A `SendMessage` (returnImmediately)',
    '',
    `One agent-gateway process, no worker (tasks only queue), autocannon in the bench process: JSON-RPC \`SendMessage\` on \`POST /a2a\` with \`A2A-Version: 1.0\`, an API key and \`configuration.returnImmediately: true\` (each message has its own messageId). A JSON-RPC error (HTTP 200) or an answer whose task is not \`TASK_STATE_SUBMITTED\` counts as an error. Aim: ≥ ${r.aims.rps} req/s, 0 errors.`,
    '',
    '| connections | req/s | p50 ms | p90 ms | p99 ms | max ms | errors (non-2xx + bad body + socket + timeouts) | tasks stored / queued | gateway CPU | CPU ms per request (gateway / Postgres) | machine CPU | aims |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (x) =>
        `| ${x.connections} | ${x.rps} | ${x.latencyMs.p50} | ${x.latencyMs.p90} | ${x.latencyMs.p99} | ${x.latencyMs.max} | ${x.errors} (${x.non2xx} + ${x.badBodies} + ${x.socketErrors} + ${x.timeouts}) | ${x.tasksStored} / ${x.tasksQueued} | ${x.cpuPercent[GATEWAY]}% of a core | ${x.cpuMsPerRequest.gateway} / ${x.cpuMsPerRequest.postgres} | ${x.cpuPercent.machine}% | ${x.meetsAims ? 'met' : '**not met**'} |`,
    ),
    '',
    `CPU during the measured runs (percent of one core): ${r.runs
      .map(
        (x) =>
          `${x.connections} conn: ${Object.entries(x.cpuPercent)
            .filter(([k]) => k !== 'machine')
            .map(([k, v]) => `${k} ${v}%`)
            .join(', ')}`,
      )
      .join('; ')}.`,
    ...(r.profile ? ['', ...profileMarkdown('agent-gateway', r.profile)] : []),
  ].join('\n');
}
