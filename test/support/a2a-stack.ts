import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from './app-process.js';

/** Pages the browser tests of the A2A/MCP specs open; /slow keeps a job running for a while. */
const pages: Record<string, string> = {
  '/': `<!doctype html><title>Demo Shop</title><h1>Welcome</h1><a href="/thanks">Thanks page</a>`,
  '/thanks': `<!doctype html><title>Thanks</title><p>Thanks for signing up!</p>`,
  '/slow': `<!doctype html><title>Slow</title><p>Loaded</p>`,
};

/**
 * The gateway (and, on demand, a browser worker and the push worker that delivers webhooks) as real
 * built processes against this run's Postgres and Redis, with a Redis prefix of their own and a
 * local site to test.
 */
export class A2aStack {
  readonly apps: AppProcess[] = [];
  readonly env: NodeJS.ProcessEnv = {};
  gatewayUrl = '';
  /** The push worker, once `startPushWorker` ran: its log tells what webhooks were refused. */
  pushWorker?: AppProcess;
  siteUrl = '';
  private site?: Server;
  private gateway?: AppProcess;
  private artifacts = '';

  constructor(
    private readonly name: string,
    private readonly key: string,
    private readonly extraEnv: NodeJS.ProcessEnv = {},
  ) {}

  async start(): Promise<void> {
    this.site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      const body = pages[url.pathname];
      if (!body) return void res.writeHead(404).end('not found');
      // /slow answers after 4 s, or after ?ms= milliseconds.
      const delay = url.pathname === '/slow' ? Number(url.searchParams.get('ms') ?? 4_000) : 0;
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(body), delay);
    });
    await new Promise<void>((resolve) => this.site!.listen(0, '127.0.0.1', resolve));
    this.siteUrl = `http://127.0.0.1:${(this.site.address() as { port: number }).port}/`;
    this.artifacts = mkdtempSync(join(tmpdir(), `${this.name}-`));
    const port = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${port}`;
    Object.assign(this.env, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-${this.name}`,
      API_KEYS: this.key,
      ARTIFACTS_DIR: this.artifacts,
      HOST: '127.0.0.1',
      STALLED_INTERVAL_MS: '3000',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '2',
      ...this.extraEnv,
    });
    await this.startGateway();
  }

  /** (Re)starts the gateway on its port; `restartGateway` kills the running one first. */
  private async startGateway(): Promise<AppProcess> {
    const gateway = startApp('agent-gateway', {
      ...this.env,
      PORT: new URL(this.gatewayUrl).port,
      PUBLIC_RUNNER_URL: this.gatewayUrl,
    });
    this.apps.push(gateway);
    await waitForHttp(`${this.gatewayUrl}/health`, gateway);
    this.gateway = gateway;
    return gateway;
  }

  async restartGateway(signal: NodeJS.Signals = 'SIGKILL'): Promise<AppProcess> {
    await this.stopGateway(signal);
    return this.startGateway();
  }

  /** Stops the gateway (until `restartGateway`). */
  async stopGateway(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.gateway?.stop(signal);
  }

  /** jobs-api on the same database and Redis, forwarding the gateway's paths (one origin). */
  async startJobsApi(): Promise<string> {
    const port = await freePort();
    const api = startApp('jobs-api', { ...this.env, PORT: String(port), GATEWAY_URL: this.gatewayUrl });
    this.apps.push(api);
    await waitForHttp(`http://127.0.0.1:${port}/health`, api);
    return `http://127.0.0.1:${port}`;
  }

  /** What the gateway logged so far. */
  gatewayOutput(): string {
    return this.gateway?.output() ?? '';
  }

  async startWorker(): Promise<AppProcess> {
    const port = await freePort();
    const worker = startApp('browser-worker', { ...this.env, HEALTH_PORT: String(port) });
    this.apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
    return worker;
  }

  /** The push worker: without it, tasks are not followed and notifications wait in their queue. */
  async startPushWorker(): Promise<AppProcess> {
    const port = await freePort();
    const worker = startApp('push-worker', {
      ...this.env,
      HEALTH_PORT: String(port),
      PUBLIC_RUNNER_URL: this.gatewayUrl,
    });
    this.apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
    this.pushWorker = worker;
    return worker;
  }

  async stop(): Promise<void> {
    await Promise.all(this.apps.map((app) => app.stop('SIGKILL')));
    if (this.site) await new Promise((resolve) => this.site!.close(resolve));
    if (this.artifacts) rmSync(this.artifacts, { recursive: true, force: true });
  }
}
