import { readFileSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import type { BenchContext } from './support/context.ts';
import { A2A_HEADERS, sendMessageParams, startGateway, type A2aTask } from './support/gateway.ts';
import { sql } from './support/infra.ts';
import { CpuMeter, pidsByComm } from './support/proc.ts';
import { percentile, round, sleep } from './support/stats.ts';

/**
 * 9. SSE fan-out (issue #5): many concurrent A2A `SubscribeToTask` streams on one agent-gateway, spread
 * over a set of queued tasks; then each task's status changes and the bench times, at every
 * subscriber, the delivery of the change from the status's own timestamp.
 *
 * The change is `CancelTask` on the same gateway: the job repository commits `cancelled` (with
 * `finished_at`, which the A2A status timestamp reports) and publishes the status event, with the
 * job as written, on the job's Redis channel: the same channel and the same event a worker publishes
 * for `running` and the final status. The gateway's fan-out (one Redis subscription per task, the
 * event mapped once, a JSON StreamResponse per subscriber; no Postgres read) does not depend on
 * which process published. Cancelling needs no
 * browser, so the measurement is not disturbed by Chromium on the same cores.
 */

export const GATEWAY_SSE_AIMS = { p99Ms: 100 };

const FINAL_STATES = new Set(['TASK_STATE_CANCELED', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']);

interface Subscriber {
  taskId: string;
  req?: ClientRequest;
  /** When the stream's first response (the task) arrived: the subscription is live from then on. */
  subscribedAt?: number;
  events: number;
  finalAt?: number;
  /** Receipt − the status timestamp of the final statusUpdate. */
  latencyMs?: number;
  /** Receipt − the moment the bench sent CancelTask. */
  sinceRequestMs?: number;
  ended: boolean;
  error?: string;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface GatewaySseWave {
  kind: 'one task at a time' | 'all remaining tasks at once';
  tasks: number;
  subscribers: number;
  /** Final status receipt − the status's timestamp (finished_at, set when the change is committed). */
  latencyMs: LatencySummary;
  /** Final status receipt − the moment the bench sent CancelTask. */
  sinceRequestMs: LatencySummary;
}

export interface GatewaySseResult {
  aims: typeof GATEWAY_SSE_AIMS;
  subscribers: number;
  tasks: number;
  openFilesLimit: number;
  subscribeSeconds: number;
  /** Subscribers whose stream opened (the task arrived) / that received the final status / whose stream then ended. */
  subscribed: number;
  receivedEvery: number;
  endedCleanly: number;
  failures: string[];
  latencyMs: LatencySummary;
  sinceRequestMs: LatencySummary;
  waves: GatewaySseWave[];
  cpuPercent: Record<string, number>;
  meetsAims: boolean;
}

const GATEWAY = 'agent-gateway';

function latencySummary(values: number[]): LatencySummary {
  if (values.length === 0)
    return { n: 0, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, max: Number.NaN };
  return {
    n: values.length,
    p50: round(percentile(values, 50), 1),
    p90: round(percentile(values, 90), 1),
    p99: round(percentile(values, 99), 1),
    max: round(Math.max(...values), 1),
  };
}

/** The soft limit of open files of this process (the gateway, its child, inherits it). */
function openFilesLimit(): number {
  const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  return line === undefined || line === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line);
}

/**
 * Opens one SubscribeToTask stream and records what arrives. The receipt time is taken when the
 * bytes arrive, before any parsing; the server writes one `data:` line per event, ended by a blank line.
 */
function subscribe(
  url: URL,
  apiKey: string,
  agent: Agent,
  sub: Subscriber,
  requestTimes: Map<string, number>,
): Promise<void> {
  return new Promise((resolve) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SubscribeToTask',
      params: { id: sub.taskId },
    });
    const timer = setTimeout(() => settle('the task did not arrive within 30 s'), 30_000);
    const settle = (error?: string): void => {
      clearTimeout(timer);
      if (error && !sub.error) sub.error = error;
      resolve();
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/a2a',
        method: 'POST',
        agent,
        headers: {
          ...A2A_HEADERS,
          accept: 'text/event-stream',
          authorization: `Bearer ${apiKey}`,
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
          res.resume();
          settle(`HTTP ${res.statusCode} ${String(res.headers['content-type'])}`);
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = Date.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (!data) continue; // a keep-alive comment
            let message: {
              result?: { task?: A2aTask; statusUpdate?: { status: { state: string; timestamp?: string } } };
              error?: { message: string };
            };
            try {
              message = JSON.parse(data) as typeof message;
            } catch {
              settle(`an event that is not JSON: ${data.slice(0, 80)}`);
              continue;
            }
            sub.events++;
            if (message.error) settle(`JSON-RPC error: ${message.error.message}`);
            else if (message.result?.task && sub.subscribedAt === undefined) {
              sub.subscribedAt = at;
              settle();
            } else if (message.result?.statusUpdate) {
              const status = message.result.statusUpdate.status;
              if (FINAL_STATES.has(status.state) && sub.finalAt === undefined) {
                sub.finalAt = at;
                if (status.timestamp) sub.latencyMs = at - Date.parse(status.timestamp);
                const sent = requestTimes.get(sub.taskId);
                if (sent !== undefined) sub.sinceRequestMs = at - sent;
              }
            }
          }
        });
        res.on('end', () => {
          sub.ended = true;
          settle(sub.subscribedAt === undefined ? 'the stream ended before the task arrived' : undefined);
        });
        res.on('error', (error) => settle(error.message));
      },
    );
    sub.req = req;
    req.on('error', (error) => settle(error.message));
    req.end(body);
  });
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

export async function runGatewaySse(ctx: BenchContext): Promise<GatewaySseResult> {
  const subscriberCount = 1000;
  const taskCount = ctx.quick ? 10 : 20;
  const limit = openFilesLimit();
  // One socket per subscriber here and one in the gateway, plus the processes' own files.
  if (limit < subscriberCount + 200)
    throw new Error(
      `the open-files limit is ${limit}; ${subscriberCount} SSE subscribers need more: run \`ulimit -n 4096\` first`,
    );
  await sql(ctx.infra.databaseUrl, 'TRUNCATE jobs, a2a_contexts CASCADE');
  const gateway = await startGateway(ctx, `${ctx.infra.prefix}-sse`, 'agent-gateway-sse');
  // Every stream holds its socket: no pooling limit, no reuse.
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const subscribers: Subscriber[] = [];
  try {
    const tasks: string[] = [];
    for (let i = 0; i < taskCount; i++) {
      const { task } = await gateway.rpc<{ task: A2aTask }>('SendMessage', sendMessageParams());
      tasks.push(task.id);
    }
    ctx.log(`gateway-sse: ${taskCount} queued tasks; opening ${subscriberCount} SubscribeToTask streams`);
    const requestTimes = new Map<string, number>();
    const url = new URL(gateway.url);
    const openedAt = Date.now();
    // In batches, so the gateway's accept backlog never overflows.
    for (let i = 0; i < subscriberCount; i += 100) {
      const batch = Array.from({ length: Math.min(100, subscriberCount - i) }, (_, j): Subscriber => {
        const sub: Subscriber = { taskId: tasks[(i + j) % taskCount]!, events: 0, ended: false };
        subscribers.push(sub);
        return sub;
      });
      await Promise.all(batch.map((sub) => subscribe(url, ctx.apiKey, agent, sub, requestTimes)));
    }
    const subscribeSeconds = round((Date.now() - openedAt) / 1000, 1);
    const live = subscribers.filter((s) => s.subscribedAt !== undefined && !s.error).length;
    ctx.log(`gateway-sse: ${live}/${subscriberCount} streams open after ${subscribeSeconds} s`);
    await sleep(1_000);

    const half = Math.ceil(taskCount / 2);
    const groups: { kind: GatewaySseWave['kind']; tasks: string[] }[] = [
      ...tasks.slice(0, half).map((id) => ({ kind: 'one task at a time' as const, tasks: [id] })),
      { kind: 'all remaining tasks at once' as const, tasks: tasks.slice(half) },
    ];
    const meter = new CpuMeter({
      [GATEWAY]: () => [gateway.app.pid],
      'postgres (all on the machine)': () => pidsByComm(['postgres']),
      'redis-server': () => pidsByComm(['redis-server']),
      'subscribers (bench process)': () => [process.pid],
    });
    meter.start();
    for (const group of groups) {
      const watched = subscribers.filter((s) => group.tasks.includes(s.taskId) && !s.error);
      await Promise.all(
        group.tasks.map((id) => {
          requestTimes.set(id, Date.now());
          return gateway.rpc<A2aTask>('CancelTask', { id });
        }),
      );
      await waitUntil(() => watched.every((s) => s.finalAt !== undefined || s.ended), 10_000);
      await sleep(300);
    }
    const cpuPercent = meter.stop();
    await waitUntil(() => subscribers.every((s) => s.ended || s.error !== undefined), 5_000);

    const waves: GatewaySseWave[] = [];
    for (const kind of ['one task at a time', 'all remaining tasks at once'] as const) {
      const ids = new Set(groups.filter((g) => g.kind === kind).flatMap((g) => g.tasks));
      const subs = subscribers.filter((s) => ids.has(s.taskId));
      waves.push({
        kind,
        tasks: ids.size,
        subscribers: subs.length,
        latencyMs: latencySummary(subs.flatMap((s) => (s.latencyMs === undefined ? [] : [s.latencyMs]))),
        sinceRequestMs: latencySummary(
          subs.flatMap((s) => (s.sinceRequestMs === undefined ? [] : [s.sinceRequestMs])),
        ),
      });
    }
    const latencyMs = latencySummary(
      subscribers.flatMap((s) => (s.latencyMs === undefined ? [] : [s.latencyMs])),
    );
    const receivedEvery = subscribers.filter((s) => s.subscribedAt !== undefined && s.finalAt !== undefined);
    const failures = [...new Set(subscribers.flatMap((s) => (s.error ? [s.error] : [])))].slice(0, 5);
    const result: GatewaySseResult = {
      aims: GATEWAY_SSE_AIMS,
      subscribers: subscriberCount,
      tasks: taskCount,
      openFilesLimit: limit,
      subscribeSeconds,
      subscribed: live,
      receivedEvery: receivedEvery.length,
      endedCleanly: receivedEvery.filter((s) => s.ended).length,
      failures,
      latencyMs,
      sinceRequestMs: latencySummary(
        subscribers.flatMap((s) => (s.sinceRequestMs === undefined ? [] : [s.sinceRequestMs])),
      ),
      waves,
      cpuPercent,
      meetsAims: receivedEvery.length === subscriberCount && latencyMs.p99 <= GATEWAY_SSE_AIMS.p99Ms,
    };
    ctx.log(
      `gateway-sse: ${result.receivedEvery}/${subscriberCount} got every event; status → subscriber p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms, max ${latencyMs.max} ms`,
    );
    return result;
  } finally {
    for (const sub of subscribers) sub.req?.destroy();
    agent.destroy();
    await gateway.app.stop();
  }
}

export function gatewaySseMarkdown(r: GatewaySseResult): string {
  const row = (what: string, l: LatencySummary, s: LatencySummary): string =>
    `| ${what} | ${l.n} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.max} | ${s.p50} / ${s.p99} |`;
  return [
    '## 9. A2A SSE fan-out: status change → subscribers',
    '',
    `${r.subscribers} concurrent \`SubscribeToTask\` streams (HTTP/1.1 SSE, one socket each, opened in ${r.subscribeSeconds} s) on one agent-gateway, spread evenly over ${r.tasks} queued tasks; no worker. Then every task is cancelled with \`CancelTask\` on the same gateway — first half of them one at a time, then the other half at once — which commits \`cancelled\` and publishes the status event on the task's Redis channel, exactly as a worker publishes \`running\` and final statuses. Latency: receipt of the final \`statusUpdate\` at each subscriber (bytes in, before parsing) − the status's own \`timestamp\` (\`finished_at\`, set as the change is committed). Subscribers run in the bench process on the same cores. Open-files limit: ${r.openFilesLimit}. Aim: p99 ≤ ${r.aims.p99Ms} ms, every subscriber gets every event.`,
    '',
    `Streams opened: ${r.subscribed}/${r.subscribers}; received every event (the task, then the final status): **${r.receivedEvery}/${r.subscribers}**; ended by the server after it: ${r.endedCleanly}.${r.failures.length ? ` Failures: ${r.failures.join('; ')}.` : ''} Aim ${r.meetsAims ? 'met' : '**not met**'}.`,
    '',
    '| status changes | deliveries | p50 ms | p90 ms | p99 ms | max ms | from CancelTask sent: p50 / p99 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.waves.map((w) =>
      row(`${w.kind} (${w.tasks} tasks, ${w.subscribers} subscribers)`, w.latencyMs, w.sinceRequestMs),
    ),
    row('all', r.latencyMs, r.sinceRequestMs),
    '',
    `CPU while the statuses changed (percent of one core): ${Object.entries(r.cpuPercent)
      .filter(([k]) => k !== 'machine')
      .map(([k, v]) => `${k} ${v}%`)
      .join(', ')}.`,
  ].join('\n');
}
