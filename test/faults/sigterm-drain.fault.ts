import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import type { AppProcess } from '../support/app-process.js';
import { API_KEY, FaultStack, sleep } from './support/fault-stack.js';

// jobs-api gets SIGTERM while clients are submitting. Graceful shutdown: a request already being
// received is finished and answered, every 2xx job exists afterwards, and clients that come after
// the listener closed see their connection refused (or, while it closes, a 503 in the runner contract),
// never a 500 or a half answer.

interface Outcome {
  startedAt: number;
  status?: number;
  body?: string;
  error?: string;
}

/** One POST /v1/jobs on a fresh connection; `pauseMs` holds half of the body back that long. */
function submit(port: number, body: string, pauseMs = 0, onHalf?: () => void): Promise<Outcome> {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/jobs',
        agent: false,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ startedAt, status: res.statusCode, body: text }));
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ startedAt, status: res.statusCode, error: `response ${error.code ?? error.message}` }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ startedAt, error: error.code ?? error.message }),
    );
    const half = Math.floor(body.length / 2);
    if (pauseMs === 0) return void req.end(body);
    req.write(body.slice(0, half));
    onHalf?.();
    setTimeout(() => req.end(body.slice(half)), pauseMs);
  });
}

describe('fault: SIGTERM to jobs-api under load', () => {
  const stack = new FaultStack('sigterm');
  let jobsApi: AppProcess;
  let port = 0;

  beforeAll(async () => {
    await stack.start();
    const started = await stack.startHttpApp('jobs-api');
    jobsApi = started.app;
    port = started.port;
  });

  afterAll(() => stack.stop());

  it('drains in-flight requests, loses no accepted job and refuses new connections only after close', async () => {
    const body = JSON.stringify({ query: 'Open /. The title is "Fault Shop"', initial_url: stack.siteUrl });
    const outcomes: Outcome[] = [];
    let go = true;
    const loops = Array.from({ length: 4 }, async () => {
      while (go) {
        const outcome = await submit(port, body);
        outcomes.push(outcome);
        // After the process is gone there is nothing left to learn.
        if (outcome.error === 'ECONNREFUSED') return;
      }
    });
    await sleep(1_500);

    // A request whose body is still arriving when SIGTERM lands must be finished, not cut.
    let halfSent!: () => void;
    const midBody = new Promise<void>((resolve) => (halfSent = resolve));
    const slow = submit(port, body, 2_500, halfSent);
    await midBody;
    // Time for the server to take the connection and read the headers, even on a busy machine.
    await sleep(1_000);
    const sigtermAt = Date.now();
    const exit = jobsApi.stop('SIGTERM');
    const slowOutcome = await slow;
    expect([slowOutcome.status, slowOutcome.error ?? slowOutcome.body?.slice(0, 200)]).toEqual([
      202,
      expect.stringContaining('"queued"'),
    ]);

    // Nest re-raises the signal once it has closed: a clean exit is 0 or "SIGTERM", never a crash.
    expect([0, 'SIGTERM']).toContain(await exit);
    go = false;
    await Promise.all(loops);

    const answered = [...outcomes, slowOutcome].filter((o) => o.status !== undefined);
    const failed = outcomes.filter((o) => o.status === undefined);
    expect(answered.length).toBeGreaterThan(5);
    // Every answer is complete: a 202, or, for a request that arrived once shutdown began, a 503
    // in the runner's contract (refused, so the client knows to retry). No 500, no cut response.
    const refusedCleanly = (o: Outcome): boolean =>
      o.status === 503 &&
      o.startedAt >= sigtermAt - 50 &&
      /"code":"service_unavailable"/.test(o.body ?? '') &&
      /"detail":"/.test(o.body ?? '');
    expect(answered.filter((o) => (o.status !== 202 && !refusedCleanly(o)) || o.error)).toEqual([]);
    // Connection failures only once shutdown began, and only "refused" / reset before any byte.
    for (const o of failed) {
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(o.error);
      expect(o.startedAt).toBeGreaterThanOrEqual(sigtermAt - 50);
    }
    expect(failed.some((o) => o.error === 'ECONNREFUSED')).toBe(true);

    const ids = answered
      .filter((o) => o.status === 202)
      .map((o) => (JSON.parse(o.body!) as { id: string }).id);
    const rows = await stack.query<{ id: string }>('SELECT id FROM jobs WHERE id = ANY($1::uuid[])', [ids]);
    expect(rows).toHaveLength(ids.length);
  });
});
