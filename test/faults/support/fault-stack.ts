import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../../../libs/db/src/testing/throwaway-database.js';
import {
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '../../../tools/devstack/src/faults-services.js';
import { freePort, startApp, waitForHttp, type AppName, type AppProcess } from '../../support/app-process.js';
import { RunnerClient } from '../../support/runner-client.js';

/** Pages the fault tests' browser jobs open; /slow answers after ?ms= milliseconds (4 s by default). */
const pages: Record<string, string> = {
  '/': `<!doctype html><title>Fault Shop</title><h1>Welcome</h1>`,
  '/thanks': `<!doctype html><title>Thanks</title><p>Thanks for signing up!</p>`,
  '/slow': `<!doctype html><title>Slow</title><p>Loaded</p>`,
};

export const API_KEY = 'fault-test-key';

export interface JobView {
  id: string;
  status: string;
  summary: string | null;
  error: string | null;
}

export const FINAL = ['succeeded', 'failed', 'cancelled'];

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One fault scenario's world: a private Postgres and Redis (restartable at will), a migrated
 * database, a local site to test, and the suite's built apps started on demand against them.
 */
export class FaultStack {
  postgres!: PrivatePostgres;
  redis!: PrivateRedis;
  databaseUrl = '';
  siteUrl = '';
  readonly apps: AppProcess[] = [];
  readonly env: NodeJS.ProcessEnv = {};
  private site?: Server;
  private artifacts = '';
  private readonly visited = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly options: { redisPersistent?: boolean; env?: NodeJS.ProcessEnv } = {},
  ) {}

  async start(): Promise<void> {
    [this.postgres, this.redis] = await Promise.all([
      startPrivatePostgres(),
      startPrivateRedis({ persistent: this.options.redisPersistent }),
    ]);
    this.databaseUrl = await this.postgres.createMigratedDatabase('faults');
    this.site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      const body = pages[url.pathname];
      if (!body) return void res.writeHead(404).end('not found');
      // /slow?ms=&once=<token>: only the first visit with that token is slow (a rerun is quick).
      const once = url.searchParams.get('once');
      const slow = url.pathname === '/slow' && !(once && this.visited.has(once));
      if (once) this.visited.add(once);
      const delay = slow ? Number(url.searchParams.get('ms') ?? 4_000) : 0;
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(body), delay);
    });
    await new Promise<void>((resolve) => this.site!.listen(0, '127.0.0.1', resolve));
    this.siteUrl = `http://127.0.0.1:${(this.site.address() as { port: number }).port}/`;
    this.artifacts = mkdtempSync(join(tmpdir(), `fault-${this.name}-`));
    Object.assign(this.env, {
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redis.url,
      REDIS_PREFIX: `fault-${this.name}-${randomBytes(3).toString('hex')}`,
      API_KEYS: API_KEY,
      ARTIFACTS_DIR: this.artifacts,
      HOST: '127.0.0.1',
      STALLED_INTERVAL_MS: '3000',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '1',
      // The load of these tests comes from one owner; the per-owner queued limit has its own spec.
      RUNNER_MAX_QUEUED_PER_OWNER: '100000',
      ...this.options.env,
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => (this.site ? this.site.close(resolve) : resolve(undefined)));
    await Promise.all([this.postgres?.dispose(), this.redis?.dispose()]);
    if (this.artifacts) rmSync(this.artifacts, { recursive: true, force: true });
  }

  /** Starts an HTTP app on a free port and waits for /health; returns it with its base URL. */
  async startHttpApp(
    app: Exclude<AppName, 'browser-worker'>,
    extra: NodeJS.ProcessEnv | ((port: number) => NodeJS.ProcessEnv) = {},
  ): Promise<{ app: AppProcess; url: string; port: number }> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const more = typeof extra === 'function' ? extra(port) : extra;
    const process = startApp(app, { ...this.env, PORT: String(port), ...more });
    this.apps.push(process);
    await waitForHttp(`${url}/health`, process);
    return { app: process, url, port };
  }

  async startJobsApi(extra: NodeJS.ProcessEnv = {}): Promise<{ app: AppProcess; client: RunnerClient }> {
    const { app, url } = await this.startHttpApp('jobs-api', extra);
    return { app, client: new RunnerClient(url, API_KEY) };
  }

  async startWorker(extra: NodeJS.ProcessEnv = {}): Promise<AppProcess> {
    const port = await freePort();
    const worker = startApp('browser-worker', { ...this.env, HEALTH_PORT: String(port), ...extra });
    this.apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
    return worker;
  }

  /** One SQL statement on the scenario's database (the test's view of the truth). */
  query<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return withClient(this.databaseUrl, async (client) => (await client.query(text, params)).rows as T[]);
  }

  /** Waits until every job of `ids` is final in Postgres; returns them by id. */
  async waitForFinal(ids: string[], timeoutMs: number): Promise<Map<string, JobView>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.query<JobView>(
        'SELECT id, status, summary, error FROM jobs WHERE id = ANY($1::uuid[])',
        [ids],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      const open = ids.filter((id) => !FINAL.includes(byId.get(id)?.status ?? ''));
      if (open.length === 0) return byId;
      if (Date.now() > deadline) {
        const states = open.map((id) => `${id}: ${byId.get(id)?.status ?? 'missing'}`).join(', ');
        throw new Error(`${open.length} job(s) not final after ${timeoutMs} ms: ${states}`);
      }
      await sleep(250);
    }
  }
}
