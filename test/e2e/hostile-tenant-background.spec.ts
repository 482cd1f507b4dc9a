import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  createQueue,
  createRedisConnection,
  QueueName,
  type TypedQueue,
} from '../../libs/queue/src/index.js';
import { createTestProject, dropTestProject, type TestProject } from '../support/user-client.js';
import { controlPlane, deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, sleep, startProjectHost, type Host } from './user-auth-harness.js';

// A hostile tenant's work that outlives its calls: a handler (a route on the host, a job on the
// project worker) starts a busy loop of timers and returns. Between calls its sandbox must get no
// CPU (the loop runs on, late, during the next call), and deleting or redeploying the project ends
// its sandboxes at once, in the host and in the worker.
//
// The sandboxes' pids come from the processes' own log ('sandbox started', with the project id);
// their CPU time from /proc, read twice around a pause: what they used is compared with the pause
// (a share of it, not a bound on how long anything takes).

/** A loop of setImmediate and setTimeout, 5 ms of CPU a turn, started once per sandbox. */
const LOOP = `
  const g = globalThis as { spins?: number };
  function startLoop(): void {
    if (g.spins !== undefined) return;
    g.spins = 0;
    const spin = () => { const end = Date.now() + 5; while (Date.now() < end); g.spins!++; setImmediate(spin); };
    setImmediate(spin);
    setTimeout(function again() { g.spins!++; setTimeout(again, 0); }, 0);
  }`;

const files = (version: string): Record<string, string> => ({
  'api/spin.ts': `import { defineApi } from '@suite/platform-sdk';
    ${LOOP}
    export default defineApi({ handler: ({ request }) => {
      if (request.query.start === '1') startLoop();
      return { spins: g.spins ?? null, version: '${version}' };
    } });`,
  'api/enqueue.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ methods: ['POST'], handler: ({ jobs }) => jobs.enqueue('spin', {}) });`,
  'jobs/spin.ts': `import { defineJob } from '@suite/platform-sdk';
    ${LOOP}
    export default defineJob({ handler: () => { startLoop(); return null; } });`,
});

const TICKS_PER_SECOND = 100;
/** How long a sandbox is watched while idle. */
const PAUSE_MS = 2_000;
/** Generous: a loaded CI machine is slow to start sandboxes and to reap them. */
const WAIT_MS = 30_000;
/** A test waits at most a few of those. */
const TEST_MS = 150_000;

const PREFIX = `${infra.REDIS_PREFIX}-background`;
let host: Host;
let redis: ReturnType<typeof createRedisConnection>;
let jobs: TypedQueue<typeof QueueName.ProjectJobs>;
const projects: TestProject[] = [];

/** CPU time (user + system) of a process in clock ticks; null once it is gone (or a zombie). */
function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** The share of the pause a process spent on a CPU, from its CPU time before and after it. */
async function cpuShareOver(pid: number, pauseMs: number): Promise<number> {
  const before = cpuTicks(pid);
  const startedAt = Date.now();
  await sleep(pauseMs);
  const after = cpuTicks(pid);
  if (before === null || after === null) throw new Error(`sandbox ${pid} ended while watched`);
  return (after - before) / (((Date.now() - startedAt) / 1000) * TICKS_PER_SECOND);
}

/** Pids of the sandboxes started for `projectId`, from a process's log. */
function sandboxPids(log: string, projectId: string): number[] {
  return log.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; sandbox?: string; pid?: number };
      return entry.msg === 'sandbox started' && entry.sandbox === projectId && entry.pid ? [entry.pid] : [];
    } catch {
      return [];
    }
  });
}

/** The pid of the newest sandbox of `projectId` in a log, waiting for one other than `not`. */
async function newestPid(log: () => string, projectId: string, not: number[] = []): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const pid = sandboxPids(log(), projectId)
      .filter((p) => !not.includes(p))
      .at(-1);
    if (pid !== undefined) return pid;
    if (Date.now() > deadline)
      throw new Error(`no sandbox of ${projectId} was logged:\n${log().slice(-3000)}`);
    await sleep(100);
  }
}

const hostLog = () => {
  const both = host.app.output();
  return both.slice(0, both.length - host.worker.output().length);
};
const workerLog = () => host.worker.output();

/** Waits until every process in `pids` is gone; answers those still there at the (generous) limit. */
async function goneWithin(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const left = pids.filter((pid) => cpuTicks(pid) !== null);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(100);
  }
}

/** A deployed project whose route sandbox (host) and job sandbox (worker) both run the loop. */
async function spinning(): Promise<{ p: TestProject; routePid: number; jobPid: number }> {
  const p = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(p);
  expect((await deploy(host, p.id, files('v1'))).status).toBe(201);
  const started = await p.client.request<{ spins: number | null }>('GET', '/api/spin?start=1');
  expect(started.status).toBe(200);
  const routePid = await newestPid(hostLog, p.id);
  const enqueued = await p.client.request<{ id: string }>('POST', '/api/enqueue', { json: {} });
  expect(enqueued.status).toBe(200);
  // Completed: the job's call has returned (and its sandbox gone idle).
  const deadline = Date.now() + WAIT_MS;
  for (let state = ''; state !== 'completed'; await sleep(100)) {
    state = (await (await jobs.getJob(enqueued.body.id))?.getState()) ?? 'missing';
    if (state === 'failed' || Date.now() > deadline) throw new Error(`the job is ${state}`);
  }
  const jobPid = await newestPid(workerLog, p.id);
  return { p, routePid, jobPid };
}

beforeAll(async () => {
  // Queues of its own: another spec's worker must not take this host's jobs. Info logs: the
  // sandboxes' pids are in them.
  host = await startProjectHost({ ...GENEROUS_LIMITS, REDIS_PREFIX: PREFIX, LOG_LEVEL: 'info' });
  redis = createRedisConnection(infra.REDIS_URL);
  jobs = createQueue(QueueName.ProjectJobs, redis, { prefix: PREFIX });
});

afterAll(async () => {
  await jobs?.close();
  redis?.disconnect();
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p).catch(() => undefined);
});

describe('a hostile tenant whose handler leaves a busy loop running', () => {
  it(
    "gets no CPU for it between calls, in the host's route sandbox; the loop resumes on the next call",
    async () => {
      const { p, routePid } = await spinning();
      expect(await cpuShareOver(routePid, PAUSE_MS)).toBeLessThan(0.2);
      const next = await p.client.request<{ spins: number }>('GET', '/api/spin');
      expect(next.status).toBe(200);
      expect(next.body.spins).toBeGreaterThan(0);
      expect(cpuTicks(routePid)).not.toBeNull();
    },
    TEST_MS,
  );

  it(
    "gets no CPU for it between jobs, in the project worker's sandbox",
    async () => {
      const { jobPid } = await spinning();
      expect(await cpuShareOver(jobPid, PAUSE_MS)).toBeLessThan(0.2);
    },
    TEST_MS,
  );
});

describe('a deleted or redeployed project', () => {
  it(
    'has its sandboxes ended at once when deleted, in the host and in the project worker',
    async () => {
      const { p, routePid, jobPid } = await spinning();
      const res = await controlPlane(host).delete(`/v1/projects/${p.id}`);
      expect(res.status).toBe(204);
      expect(await goneWithin([routePid, jobPid])).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'has its old sandboxes ended at once when deployed again; the new code answers',
    async () => {
      const { p, routePid, jobPid } = await spinning();
      expect((await deploy(host, p.id, files('v2'))).status).toBe(201);
      expect(await goneWithin([routePid, jobPid])).toEqual([]);
      const res = await p.client.request<{ spins: number | null; version: string }>('GET', '/api/spin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ spins: null, version: 'v2' });
    },
    TEST_MS,
  );
});
