import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { BenchContext } from './support/context.ts';
import { sql } from './support/infra.ts';
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.ts';
import { repoRoot } from './support/processes.ts';
import { startProjectHost, type HostResponse, type StartedHost } from './support/project-host.ts';
import { percentile, round } from './support/stats.ts';

/**
 * 11. Many projects on one host (issue #19): N projects (default 1,000) on one project-host process
 * whose main database and tenant databases live on Postgres servers with max_connections 100. Each
 * project is made through the control plane and gets one user (sign-up); then the host restarts, so
 * no tenant pool and no cache is warm, and GET /api/user/me goes across every project: the first
 * request of each (cold), one right after it (warm), and a second sweep once every other project has
 * been served. pg_stat_activity is sampled all along. Run once with one tenant server and once with
 * two (TENANT_DATABASE_SERVERS). The servers are Postgres clusters of the bench's own (Debian's
 * Postgres 15, initdb in the OS tmpdir), so other users of the machine's Postgres neither count in
 * the connection figures nor run short of connections, and every tenant database goes with them.
 */

export const TENANT_SCALE_AIMS = { errors: 0 };
/** Postgres's default, and the machine's server's. */
const MAX_CONNECTIONS = 100;
/** Projects made (and users registered) at once. */
const CREATE_CONCURRENCY = 4;
/** Clients sweeping GET /api/user/me across the projects at once. */
const SWEEP_CONCURRENCY = 16;
const SAMPLE_MS = 200;

export type TenantServersMode = 'one' | 'two';

interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

interface PhaseFigures {
  requests: number;
  /** Answers other than the expected status, by status (0: no answer). */
  errors: number;
  errorsByStatus: Record<string, number>;
  latencyMs: Latencies;
  wallS: number;
}

interface ServerFigures {
  name: string;
  tenantDatabases: number;
  /** pg_database_size of the tenant databases together, and per database. */
  tenantBytes: number;
  bytesPerTenant: number;
  /** Highest count of client backends (all databases) seen by the sampler, per phase. */
  peakConnections: Record<string, number>;
}

export interface TenantScaleRun {
  mode: TenantServersMode;
  projects: number;
  /** The host's DB_CONNECTION_BUDGET (its default unless BENCH_DB_CONNECTION_BUDGET is set). */
  budget: string;
  create: PhaseFigures & { projectsPerMinute: number };
  register: PhaseFigures;
  cold: PhaseFigures;
  warm: PhaseFigures;
  secondSweep: PhaseFigures;
  servers: ServerFigures[];
  /** Peak client connections over every server and phase, and the host's own share of them. */
  peakConnections: number;
  /** Lines of the host's log that say Postgres refused a connection ("too many clients"). */
  tooManyClients: number;
  /** Projects per tenant server, as the main database records them. */
  placement: Record<string, number>;
  /**
   * What a request to a project the restarted host had not cached costs, step by step (the host's
   * `cold path step` debug lines): project lookup, tenant client, schema check, signing-key load,
   * first tenant query (its connection included).
   */
  coldSteps: Record<string, Latencies>;
  errors: number;
  meetsAims: boolean;
}

export interface TenantScaleResult {
  aims: typeof TENANT_SCALE_AIMS;
  maxConnections: number;
  runs: TenantScaleRun[];
}

function latencies(values: number[]): Latencies {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p99: round(percentile(values, 99)),
    max: round(values.length ? Math.max(...values) : Number.NaN),
  };
}

/** The host's `cold path step` debug lines ({coldStep, ms}), as latencies per step. */
function stepLatencies(logs: string): Record<string, Latencies> {
  const byStep: Record<string, number[]> = {};
  for (const line of logs.split('\n')) {
    if (!line.includes('"coldStep"')) continue;
    try {
      const { coldStep, ms } = JSON.parse(line) as { coldStep?: unknown; ms?: unknown };
      if (typeof coldStep === 'string' && typeof ms === 'number') (byStep[coldStep] ??= []).push(ms);
    } catch {
      // not a JSON line
    }
  }
  return Object.fromEntries(Object.entries(byStep).map(([step, values]) => [step, latencies(values)]));
}

/** Runs `work` over `items`, `concurrency` at a time, in order of the items. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

class Phase {
  private readonly samples: number[] = [];
  private readonly statuses: Record<string, number> = {};
  private errors = 0;
  private readonly started = Date.now();
  private readonly expected: number;

  constructor(expected: number) {
    this.expected = expected;
  }

  async time(call: () => Promise<HostResponse>): Promise<HostResponse | undefined> {
    const start = performance.now();
    let res: HostResponse | undefined;
    try {
      res = await call();
    } catch {
      res = undefined;
    }
    this.samples.push(performance.now() - start);
    if (res?.status !== this.expected) {
      this.errors += 1;
      const key = String(res?.status ?? 0);
      this.statuses[key] = (this.statuses[key] ?? 0) + 1;
    }
    return res;
  }

  figures(): PhaseFigures {
    return {
      requests: this.samples.length,
      errors: this.errors,
      errorsByStatus: this.statuses,
      latencyMs: latencies(this.samples),
      wallS: round((Date.now() - this.started) / 1000),
    };
  }
}

/** Client backends on a server (every database, the sampler's own connection left out), sampled. */
class ConnectionSampler {
  private readonly client: pg.Client;
  private timer: NodeJS.Timeout | undefined;
  private phase = 'setup';
  readonly peaks: Record<string, number> = {};

  constructor(adminUrl: string) {
    this.client = new pg.Client({ connectionString: adminUrl, application_name: 'bench-sampler' });
    this.client.on('error', () => undefined);
  }

  async start(): Promise<void> {
    await this.client.connect();
    const tick = async () => {
      try {
        const { rows } = await this.client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        );
        const n = rows[0]!.n;
        this.peaks[this.phase] = Math.max(this.peaks[this.phase] ?? 0, n);
      } catch {
        // the server is busy or going away: the next tick tries again
      }
      this.timer = setTimeout(() => void tick(), SAMPLE_MS);
    };
    await tick();
  }

  enter(phase: string): void {
    this.phase = phase;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.client.end().catch(() => undefined);
  }
}

interface Project {
  id: string;
  host: string;
  accessToken: string;
}

/** Creates the main database on `cluster` and applies the migrations (libs/db's migrator, built). */
async function mainDatabase(cluster: PostgresCluster): Promise<string> {
  const name = `suite_scale_${randomBytes(3).toString('hex')}`;
  await sql(cluster.adminUrl, `CREATE DATABASE ${name}`);
  const url = `postgresql://postgres@127.0.0.1:${cluster.port}/${name}`;
  const db = (await import(join(repoRoot, 'libs', 'db', 'dist', 'index.js'))) as {
    migrateDatabase(options: { url: string; migrationsDir: string }): Promise<unknown>;
    mainMigrationsDir(): string;
  };
  await db.migrateDatabase({ url, migrationsDir: db.mainMigrationsDir() });
  return url;
}

async function runMode(ctx: BenchContext, mode: TenantServersMode, count: number): Promise<TenantScaleRun> {
  const clusters: PostgresCluster[] = [];
  const samplers: ConnectionSampler[] = [];
  let host: StartedHost | undefined;
  try {
    clusters.push(await startPostgresCluster({ maxConnections: MAX_CONNECTIONS }));
    if (mode === 'two') clusters.push(await startPostgresCluster({ maxConnections: MAX_CONNECTIONS }));
    const [main, second] = clusters;
    const databaseUrl = await mainDatabase(main!);
    const names = ['default', 'second'];
    for (const cluster of clusters) {
      const sampler = new ConnectionSampler(cluster.adminUrl);
      await sampler.start();
      samplers.push(sampler);
    }
    const enter = (phase: string) => samplers.forEach((sampler) => sampler.enter(phase));
    const budget = process.env.BENCH_DB_CONNECTION_BUDGET;
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: databaseUrl,
      TENANT_ADMIN_DATABASE_URL: main!.adminUrl,
      // Tokens stay valid across the restart below: the same server secret both times.
      AUTH_SECRET: randomBytes(36).toString('base64url'),
      BCRYPT_COST: '10',
      ...(second ? { TENANT_DATABASE_SERVERS: `default=${main!.adminUrl},second=${second.adminUrl}` } : {}),
      ...(budget ? { DB_CONNECTION_BUDGET: budget } : {}),
    };
    const hostName = `tenant-scale-${mode}`;
    host = await startProjectHost(ctx, hostName, { env });
    const controlPlane = `localhost:${host.port}`;

    // Projects and their users.
    enter('create');
    const create = new Phase(201);
    const register = new Phase(201);
    const projects: Project[] = [];
    const indexes = Array.from({ length: count }, (_, i) => i);
    await eachLimited(indexes, CREATE_CONCURRENCY, async (i) => {
      const slug = `scale-${i}-${randomBytes(3).toString('hex')}`;
      const made = await create.time(() =>
        host!.call(controlPlane, 'POST', '/v1/projects', { slug, name: `Scale ${i}` }, host!.adminToken),
      );
      const id = (made?.json as { id?: string } | undefined)?.id;
      if (made?.status !== 201 || !id) return;
      const projectHost = `${slug}.localhost:${host!.port}`;
      const email = `scale-${i}-${randomBytes(3).toString('hex')}@example.com`;
      const password = `Scale-${randomBytes(12).toString('base64url')}-7`;
      const registered = await register.time(() =>
        host!.call(projectHost, 'POST', '/api/user/auth/register', { email, password }),
      );
      const accessToken = (registered?.json as { accessToken?: string } | undefined)?.accessToken;
      if (registered?.status === 201 && accessToken) projects.push({ id, host: projectHost, accessToken });
      if ((i + 1) % 100 === 0) ctx.log(`tenant-scale (${mode}): ${i + 1}/${count} projects`);
    });
    const createFigures = create.figures();
    const registerFigures = register.figures();

    // Disk per tenant, and where the projects went (the bench's own queries: a phase of their own).
    enter('measure');
    const servers: ServerFigures[] = [];
    for (const [index, cluster] of clusters.entries()) {
      const [size] = await sql<{ n: number; bytes: string }>(
        cluster.adminUrl,
        `SELECT count(*)::int AS n, COALESCE(sum(pg_database_size(datname)), 0)::text AS bytes
           FROM pg_database WHERE datname LIKE 'tenant\\_%'`,
      );
      servers.push({
        name: names[index]!,
        tenantDatabases: size!.n,
        tenantBytes: Number(size!.bytes),
        bytesPerTenant: size!.n ? Math.round(Number(size!.bytes) / size!.n) : 0,
        peakConnections: {},
      });
    }
    const placement = Object.fromEntries(
      (
        await sql<{ server: string; n: number }>(
          databaseUrl,
          `SELECT tenant_server AS server, count(*)::int AS n FROM projects GROUP BY 1 ORDER BY 1`,
        ).catch(() => [{ server: '(no tenant_server column)', n: projects.length }])
      ).map((row) => [row.server, row.n]),
    );

    // A fresh process: no tenant pool, no cached session or profile.
    await host.app.stop();
    enter('restart');
    // The same port: tokens name the host's public URL.
    host = await startProjectHost(ctx, `${hostName}-cold`, {
      env: { ...env, LOG_LEVEL: 'debug' },
      port: host.port,
    });
    const me = (project: Project) =>
      host!.call(project.host, 'GET', '/api/user/me', undefined, project.accessToken);

    enter('cold-and-warm');
    const cold = new Phase(200);
    const warm = new Phase(200);
    await eachLimited(projects, SWEEP_CONCURRENCY, async (project) => {
      await cold.time(() => me(project));
      await warm.time(() => me(project));
    });
    const coldFigures = cold.figures();
    const warmFigures = warm.figures();
    enter('second-sweep');
    const again = new Phase(200);
    await eachLimited(projects, SWEEP_CONCURRENCY, async (project) => {
      await again.time(() => me(project));
    });
    const secondSweep = again.figures();
    enter('done');

    const logs = [`${hostName}.log`, `${hostName}-cold.log`]
      .map((file) => {
        try {
          return readFileSync(join(ctx.logDir, file), 'utf8');
        } catch {
          return '';
        }
      })
      .join('\n');
    const coldSteps = stepLatencies(logs);
    const tooManyClients = logs.split('\n').filter((line) => /too many clients/i.test(line)).length;
    samplers.forEach((sampler, index) => (servers[index]!.peakConnections = { ...sampler.peaks }));
    const peakConnections = Math.max(
      ...samplers.flatMap((sampler) => Object.entries(sampler.peaks).map(([, n]) => n)),
    );
    const errors =
      createFigures.errors +
      registerFigures.errors +
      coldFigures.errors +
      warmFigures.errors +
      secondSweep.errors;
    return {
      mode,
      projects: count,
      budget: budget ?? 'default',
      create: {
        ...createFigures,
        projectsPerMinute: round((createFigures.requests / Math.max(createFigures.wallS, 0.001)) * 60),
      },
      register: registerFigures,
      cold: coldFigures,
      warm: warmFigures,
      secondSweep,
      servers,
      peakConnections,
      tooManyClients,
      placement,
      coldSteps,
      errors,
      meetsAims: errors === TENANT_SCALE_AIMS.errors && tooManyClients === 0,
    };
  } finally {
    await host?.app.stop().catch(() => undefined);
    await Promise.all(samplers.map((sampler) => sampler.stop()));
    // Every tenant database goes with its cluster.
    for (const cluster of clusters) await cluster.stop();
  }
}

export async function runTenantScale(
  ctx: BenchContext,
  options: { projects?: number; modes?: TenantServersMode[] } = {},
): Promise<TenantScaleResult> {
  const count = options.projects ?? (ctx.quick ? 30 : 1000);
  const runs: TenantScaleRun[] = [];
  for (const mode of options.modes ?? ['one', 'two']) {
    ctx.log(`tenant-scale: ${count} projects, ${mode} tenant server${mode === 'one' ? '' : 's'}`);
    runs.push(await runMode(ctx, mode, count));
  }
  return { aims: TENANT_SCALE_AIMS, maxConnections: MAX_CONNECTIONS, runs };
}

const mb = (bytes: number) => round(bytes / 1024 / 1024);

export function tenantScaleMarkdown(r: TenantScaleResult): string {
  const lines = [
    '## 11. Many projects on one host (`tenant-scale`)',
    '',
    `One project-host process; its main database and the tenant databases on Postgres 15 clusters of the bench's own with max_connections ${r.maxConnections}. Projects made ${CREATE_CONCURRENCY} at a time through the control plane, a user registered in each; then a fresh host process and GET /api/user/me across every project, ${SWEEP_CONCURRENCY} clients at once: each project's first request (cold: no tenant pool, no cache), one right after it (warm), and a second sweep after every other project was served. Connections: client backends in pg_stat_activity, sampled every ${SAMPLE_MS} ms. Aim: 0 errors, no "too many clients".`,
    '',
    '| servers | projects | errors | peak connections (per server) | cold p50 / p99 | warm p50 / p99 | second sweep p50 / p99 | creation p50 / p99 (projects/min) | disk per project | placement | aim |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const run of r.runs) {
    const peaks = run.servers
      .map((server) => `${server.name} ${Math.max(0, ...Object.values(server.peakConnections))}`)
      .join(', ');
    const disk = run.servers
      .filter((server) => server.tenantDatabases > 0)
      .map((server) => `${mb(server.bytesPerTenant)} MB`)
      .join(' / ');
    lines.push(
      `| ${run.mode} | ${run.projects} | ${run.errors}${run.tooManyClients ? ` (${run.tooManyClients} "too many clients")` : ''} | ${run.peakConnections} (${peaks}) | ${run.cold.latencyMs.p50} / ${run.cold.latencyMs.p99} ms | ${run.warm.latencyMs.p50} / ${run.warm.latencyMs.p99} ms | ${run.secondSweep.latencyMs.p50} / ${run.secondSweep.latencyMs.p99} ms | ${run.create.latencyMs.p50} / ${run.create.latencyMs.p99} ms (${run.create.projectsPerMinute}) | ${disk} | ${Object.entries(
        run.placement,
      )
        .map(([server, n]) => `${server} ${n}`)
        .join(', ')} | ${run.meetsAims ? 'met' : 'NOT MET'} |`,
    );
  }
  lines.push('');
  for (const run of r.runs) {
    const errors = [
      ['create', run.create],
      ['register', run.register],
      ['cold', run.cold],
      ['warm', run.warm],
      ['second sweep', run.secondSweep],
    ]
      .filter(([, phase]) => (phase as PhaseFigures).errors > 0)
      .map(([name, phase]) => `${name as string} ${JSON.stringify((phase as PhaseFigures).errorsByStatus)}`);
    const phases = run.servers
      .map(
        (server) =>
          `${server.name}: ${Object.entries(server.peakConnections)
            .map(([phase, n]) => `${phase} ${n}`)
            .join(', ')}`,
      )
      .join('; ');
    lines.push(
      `- ${run.mode} server${run.mode === 'one' ? '' : 's'}: host budget ${run.budget}; peak connections by phase: ${phases}. Creation ${run.create.wallS} s in all, registration p50 ${run.register.latencyMs.p50} ms; sweeps ${run.cold.wallS} s and ${run.secondSweep.wallS} s.${errors.length ? ` Errors by status: ${errors.join('; ')}.` : ''}`,
    );
    const steps = Object.entries(run.coldSteps ?? {})
      .map(([step, l]) => `${step} p50 ${l.p50} / p99 ${l.p99} ms (${l.n})`)
      .join('; ');
    if (steps) lines.push(`  Steps of requests to projects not cached in the host: ${steps}.`);
  }
  return lines.join('\n');
}
