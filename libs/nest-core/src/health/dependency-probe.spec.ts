import { afterAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { DependencyProbe } from './dependency-probe.js';

const postgresUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('DependencyProbe (real Postgres and Redis)', () => {
  const probes: DependencyProbe[] = [];
  const probe = (pg: string, redis: string, timeoutMs?: number) => {
    const p = new DependencyProbe(pg, redis, timeoutMs);
    probes.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(probes.map((p) => p.close()));
  });

  it('reports both up with their latency, even on the first call after start', async () => {
    const p = probe(postgresUrl, redisUrl);
    const [pg, redis] = await Promise.all([p.postgres(), p.redisPing()]);
    expect(pg).toEqual({ status: 'up', latencyMs: expect.any(Number) });
    expect(redis).toEqual({ status: 'up', latencyMs: expect.any(Number) });
  });

  it('reports a refused connection as down with the reason', async () => {
    const p = probe('postgresql://postgres@127.0.0.1:1/none', 'redis://127.0.0.1:1');
    const [pg, redis] = await Promise.all([p.postgres(), p.redisPing()]);
    expect(pg).toMatchObject({ status: 'down', error: expect.stringMatching(/ECONNREFUSED|connect/) });
    expect(redis.status).toBe('down');
  });

  it('gives up on a server that never answers within its time limit', async () => {
    // A TCP server that accepts and then says nothing: the probe must not hang.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const p = probe(`postgresql://postgres@127.0.0.1:${port}/x`, `redis://127.0.0.1:${port}`, 300);
    // A probe that hung would end this test by Jest's own timeout; no wall-clock bound is asserted.
    const [pg, redis] = await Promise.all([p.postgres(), p.redisPing()]);
    expect(pg.status).toBe('down');
    expect(redis.status).toBe('down');
    silent.close();
  });
});
