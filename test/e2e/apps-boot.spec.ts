import { afterAll, describe, expect, it } from '@jest/globals';
import { freePort, startApp, waitForHttp, type AppName, type AppProcess } from '../support/app-process.js';

// Real processes against the real Postgres and Redis that tools/devstack prepared for this run.
const infra = {
  DATABASE_URL: process.env.DATABASE_URL!,
  REDIS_URL: process.env.REDIS_URL!,
  REDIS_PREFIX: process.env.REDIS_PREFIX!,
  PLATFORM_ADMIN_TOKEN: 'test-admin-token-0123456789',
  API_KEYS: 'test-key-1',
};

interface HealthBody {
  status: string;
  checks: Record<'postgres' | 'redis', { status: string; error?: string }>;
  queue?: Record<string, unknown>;
  queues?: Record<string, unknown>[];
}

const portVar: Record<AppName, string> = {
  'jobs-api': 'PORT',
  'agent-gateway': 'PORT',
  'project-host': 'PORT',
  'browser-worker': 'HEALTH_PORT',
  'project-worker': 'HEALTH_PORT',
  'push-worker': 'HEALTH_PORT',
};

/** The queues an HTTP app fills, which its /health counts the workers of. */
const produced: Partial<Record<AppName, string[]>> = {
  'project-host': ['mail', 'auth-hooks', 'project-jobs', 'domain-checks', 'tenant-upgrades'],
  'agent-gateway': ['push-follows'],
};

describe('every app boots and reports its dependencies on /health', () => {
  const running: AppProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((app) => app.stop('SIGKILL')));
  });

  it.each(Object.keys(portVar) as AppName[])('%s answers 200 with postgres and redis up', async (name) => {
    const port = await freePort();
    const app = startApp(name, { ...infra, HOST: '127.0.0.1', [portVar[name]]: String(port) });
    running.push(app);

    let res = await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    let body = (await res.json()) as HealthBody;
    // A dependency probe right after boot may miss its own 2 s deadline on a loaded machine
    // ("degraded"): an app reports its dependencies once it is up, so look again a few times.
    for (let attempt = 0; attempt < 20 && body.status !== 'ok'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      res = await fetch(`http://127.0.0.1:${port}/health`);
      body = (await res.json()) as HealthBody;
    }
    expect(body).toMatchObject({
      status: 'ok',
      service: name,
      version: '1.0.0',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
    });
    if (name === 'jobs-api') {
      expect(body.queue).toMatchObject({
        name: 'browser-jobs',
        waiting: expect.any(Number),
        workers: expect.any(Number),
      });
    }
    if (produced[name]) {
      expect(body.queues).toEqual(
        produced[name].map((queue) =>
          expect.objectContaining({ name: queue, waiting: expect.any(Number), workers: expect.any(Number) }),
        ),
      );
    }

    // SIGTERM runs the shutdown hooks, then the process ends by that signal (Node's convention).
    expect([0, 'SIGTERM']).toContain(await app.stop('SIGTERM'));
    expect(app.output()).not.toMatch(/error/i);
  });

  it('every app boots with the readable logs `make start` shows (LOG_FORMAT=pretty)', async () => {
    const apps = await Promise.all(
      (Object.keys(portVar) as AppName[]).map(async (name) => {
        const port = await freePort();
        const app = startApp(name, {
          ...infra,
          HOST: '127.0.0.1',
          [portVar[name]]: String(port),
          LOG_FORMAT: 'pretty',
          LOG_LEVEL: 'info',
        });
        running.push(app);
        return { name, app, res: await waitForHttp(`http://127.0.0.1:${port}/health`, app) };
      }),
    );
    for (const { name, app, res } of apps) {
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      // The pretty transport writes from a thread of its own: its lines are all out once the app ended.
      await app.stop('SIGTERM');
      // pino-pretty's lines: "[HH:MM:ss.l] INFO: …", not JSON.
      expect({ name, output: app.output() }).toEqual({
        name,
        output: expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: /m),
      });
    }
  });

  it('reports a dependency that is down without failing liveness, and readiness says 503', async () => {
    const port = await freePort();
    const deadPort = await freePort();
    const app = startApp('project-host', {
      ...infra,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${deadPort}/nowhere`,
    });
    running.push(app);

    const live = await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    expect(live.status).toBe(200);
    const body = (await live.json()) as HealthBody;
    expect(body.status).toBe('degraded');
    expect(body.checks.postgres).toMatchObject({ status: 'down', error: expect.any(String) });
    expect(body.checks.redis.status).toBe('up');

    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(503);
    await app.stop();
  });
});

describe('a bad environment stops an app with a message naming the variable', () => {
  it.each([
    ['jobs-api', { PORT: 'eighty' }, /PORT must be a port number \(got "eighty"\)/],
    ['agent-gateway', { REDIS_URL: 'http://not-redis' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['browser-worker', { WORKER_CONCURRENCY: '0' }, /WORKER_CONCURRENCY must be > 0/],
    ['project-host', { PLATFORM_ADMIN_TOKEN: '' }, /PLATFORM_ADMIN_TOKEN is required/],
    ['project-host', { DATABASE_URL: '' }, /DATABASE_URL is required \(a postgres:\/\/ URL\)/],
    ['project-worker', { PLATFORM_ADMIN_TOKEN: '' }, /PLATFORM_ADMIN_TOKEN is required/],
    ['push-worker', { PUSH_TIMEOUT_MS: '0' }, /PUSH_TIMEOUT_MS must be > 0/],
  ] as const)('%s with %p', async (name, bad, message) => {
    const app = startApp(name, { ...infra, ...bad });
    await expect(app.exited).resolves.toBe(1);
    expect(app.output()).toMatch(`Invalid environment for ${name}`);
    expect(app.output()).toMatch(message);
    expect(app.output()).not.toMatch(/\s+at\s.+\.js:\d+/); // a readable message, not a stack trace
  });

  it('never echoes a secret it rejects', async () => {
    const app = startApp('project-host', { ...infra, PLATFORM_ADMIN_TOKEN: 'short-secret' });
    await expect(app.exited).resolves.toBe(1);
    expect(app.output()).toMatch(/PLATFORM_ADMIN_TOKEN must be at least 16 characters \(got \(hidden\)\)/);
    expect(app.output()).not.toContain('short-secret');
  });
});
