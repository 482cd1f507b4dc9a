import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  autocannon,
  cpuMsPerRequest,
  loadFigures,
  type CannonClient,
  type CannonRequest,
  type CannonResult,
  type LoadFigures,
} from './support/cannon.ts';
import type { BenchContext } from './support/context.ts';
import { sql, tenantDatabaseUrl } from './support/infra.ts';
import { CpuMeter, pidsByComm } from './support/proc.ts';
import { baseEnv } from './support/processes.ts';
import {
  BENCH_RATE_LIMITS,
  startProjectHost,
  type BenchProject,
  type StartedHost,
  type TokenPair,
} from './support/project-host.ts';
import { profileMarkdown, profilerNodeArgs, underProfiler, type ProfiledLoad } from './support/profiling.ts';
import { round, sleep } from './support/stats.ts';

/**
 * 5-7. End-user auth of one project-host process (issue #4): GET /api/user/me with a valid access
 * token, refresh-token rotation chains, and email/password login against the machine's raw bcrypt
 * rate. Each benchmark starts its own host and makes its own project through the control plane.
 */

export const AUTH_AIMS = {
  me: { rps: 5000, errors: 0 },
  refresh: { rps: 1000, errors: 0 },
  /** Login throughput as a share of the raw bcrypt compare rate at the host's cost. */
  login: { shareOfRaw: 0.8, errors: 0 },
};

export interface AuthRun extends LoadFigures {
  /** Percent of one core over the measured run; `machine` is percent of all cores. */
  cpuPercent: Record<string, number>;
  cpuMsPerRequest: { projectHost: number; postgres: number };
  meetsAims: boolean;
}

const HOST = 'project-host';
const POSTGRES = 'postgres (all on the machine)';

interface Phase {
  durationS: number;
  warmupS: number;
}

const phase = (ctx: BenchContext): Phase =>
  ctx.quick ? { durationS: 5, warmupS: 2 } : { durationS: 30, warmupS: 5 };

/** A fresh host and project for one benchmark; the project (and its tenant database) is deleted after. */
async function withProject<T>(
  ctx: BenchContext,
  name: string,
  work: (host: StartedHost, project: BenchProject) => Promise<T>,
  env: NodeJS.ProcessEnv = {},
): Promise<T> {
  const host = await startProjectHost(ctx, name, { env });
  let project: BenchProject | undefined;
  try {
    project = await host.createProject(name);
    return await work(host, project);
  } finally {
    if (project) await host.deleteProject(project).catch(() => undefined); // else infra.stop() drops it
    await host.app.stop();
  }
}

/**
 * When a run missed its aim (or with `--profile`): a separate host and project under V8's sampling
 * profiler for a shorter load at 10 connections, so the measured runs stay clean.
 */
async function profiledPass(
  ctx: BenchContext,
  name: string,
  optionsFor: (host: StartedHost, project: BenchProject) => Promise<Record<string, unknown>>,
): Promise<ProfiledLoad> {
  const connections = 10;
  const durationS = ctx.quick ? 5 : 10;
  const file = join(ctx.resultsDir, `${ctx.stamp}.${name}.project-host.cpuprofile.json`);
  const host = await startProjectHost(ctx, `${name}-profiled`, {
    nodeArgs: profilerNodeArgs,
    env: { BENCH_CPU_PROFILE: file },
  });
  let project: BenchProject | undefined;
  try {
    project = await host.createProject(`${name}-prof`);
    const options = { ...(await optionsFor(host, project)), connections, timeout: 10 };
    ctx.log(`${name}: profiling project-host for ${durationS} s at ${connections} connections`);
    await autocannon({ ...options, duration: 3 });
    return await underProfiler(host.app, file, connections, durationS, () =>
      autocannon({ ...options, duration: durationS }),
    );
  } finally {
    if (project) await host.deleteProject(project).catch(() => undefined);
    await host.app.stop();
  }
}

/** autocannon under a CPU meter of the host, Postgres, Redis and the bench process. */
async function measured(
  host: StartedHost,
  options: Record<string, unknown>,
): Promise<{ result: CannonResult; cpuPercent: Record<string, number> }> {
  const meter = new CpuMeter({
    [HOST]: () => [host.app.pid],
    [POSTGRES]: () => pidsByComm(['postgres']),
    'redis-server': () => pidsByComm(['redis-server']),
    'autocannon (bench process)': () => [process.pid],
  });
  meter.start();
  const result = await autocannon(options);
  return { result, cpuPercent: meter.stop() };
}

function authRun(
  connections: number,
  result: CannonResult,
  cpuPercent: Record<string, number>,
  meets: (figures: LoadFigures) => boolean,
): AuthRun {
  const figures = loadFigures(connections, result);
  return {
    ...figures,
    cpuPercent,
    cpuMsPerRequest: {
      projectHost: cpuMsPerRequest(cpuPercent[HOST], figures.rps),
      postgres: cpuMsPerRequest(cpuPercent[POSTGRES], figures.rps),
    },
    meetsAims: meets(figures),
  };
}

const describeRun = (name: string, run: AuthRun): string =>
  `${name}: ${run.connections} conn → ${run.rps} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors; project-host CPU ${run.cpuPercent[HOST]}% of a core, Postgres ${run.cpuPercent[POSTGRES]}%`;

// ---------------------------------------------------------------------------------------------
// 5. GET /api/user/me
// ---------------------------------------------------------------------------------------------

export interface AuthMeResult {
  aims: typeof AUTH_AIMS.me;
  runs: AuthRun[];
  /**
   * For reference, not an aim: a host with AUTH_STATE_CACHE_MS=0, which reads session liveness and
   * the profile from Postgres on every request (what a client pays when its entries are cold).
   */
  uncached?: AuthRun;
  profile?: ProfiledLoad;
}

const meOptions = (port: number, project: BenchProject): Record<string, unknown> => ({
  url: `http://127.0.0.1:${port}/api/user/me`,
  headers: { host: project.host, authorization: `Bearer ${project.tokens.accessToken}` },
});

export async function runAuthMe(ctx: BenchContext): Promise<AuthMeResult> {
  const { durationS, warmupS } = phase(ctx);
  const result: AuthMeResult = await withProject(ctx, 'auth-me', async (host, project) => {
    const runs: AuthRun[] = [];
    for (const connections of [10, 50]) {
      const options = { ...meOptions(host.port, project), connections, timeout: 10 };
      ctx.log(`auth-me: ${connections} connections, ${warmupS} s warm-up, then ${durationS} s measured`);
      await autocannon({ ...options, duration: warmupS });
      await sleep(1_000);
      const { result, cpuPercent } = await measured(host, { ...options, duration: durationS });
      const run = authRun(
        connections,
        result,
        cpuPercent,
        (f) => f.rps >= AUTH_AIMS.me.rps && f.errors === AUTH_AIMS.me.errors,
      );
      runs.push(run);
      ctx.log(describeRun('auth-me', run));
    }
    return { aims: AUTH_AIMS.me, runs };
  });
  result.uncached = await withProject(
    ctx,
    'auth-me-uncached',
    async (host, project) => {
      const options = { ...meOptions(host.port, project), connections: 10, timeout: 10 };
      ctx.log(`auth-me: AUTH_STATE_CACHE_MS=0 (reference), 10 connections, ${durationS} s measured`);
      await autocannon({ ...options, duration: warmupS });
      await sleep(1_000);
      const { result: r, cpuPercent } = await measured(host, { ...options, duration: durationS });
      const run = authRun(10, r, cpuPercent, () => false);
      ctx.log(describeRun('auth-me (database every request)', run));
      return run;
    },
    { AUTH_STATE_CACHE_MS: '0' },
  );
  if (ctx.profile || result.runs.some((run) => !run.meetsAims)) {
    result.profile = await profiledPass(ctx, 'auth-me', async (host, project) =>
      meOptions(host.port, project),
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// 6. POST /api/user/auth/refresh, in rotation chains
// ---------------------------------------------------------------------------------------------

export interface RefreshRun extends AuthRun {
  /** Chains (sessions) driven at once: one per connection, each request using the previous answer's token. */
  chains: number;
  /** Non-200 answers: the chain's token was refused (a 401 means the rotation chain broke). */
  chainBreaks: number;
  /** Session families the host revoked during the run (reuse detection); the aim is 0. */
  revokedFamilies: number;
  /**
   * Session rows the host stored during the run: one successor per real rotation. About the number
   * of 200 answers when every request presented a fresh token (a re-presented token would be a
   * 401: the host has no reuse grace by default).
   */
  rotationsStored: number;
}

export interface AuthRefreshResult {
  aims: typeof AUTH_AIMS.refresh;
  graceMs: string;
  runs: RefreshRun[];
  profile?: ProfiledLoad;
}

interface Chain {
  token: string;
}

/**
 * One autocannon option set whose every connection drives one rotation chain: the request body
 * carries the chain's current refresh token and each 200 answer replaces it with the successor.
 * autocannon rebuilds a connection's request after `onResponse` of the previous one (pipelining 1),
 * so every request presents the token of the answer just before it. A refused token moves the
 * connection to a spare chain, so one break is counted once rather than on every later request.
 */
function refreshChains(
  port: number,
  project: BenchProject,
  chains: Chain[],
  spares: Chain[],
  onBreak: () => void,
): Record<string, unknown> {
  let assigned = 0;
  const headers = { host: project.host, 'content-type': 'application/json' };
  return {
    url: `http://127.0.0.1:${port}/api/user/auth/refresh`,
    method: 'POST',
    headers,
    setupClient: (client: CannonClient) => {
      let chain = chains[assigned++ % chains.length]!;
      const body = (): string => JSON.stringify({ refreshToken: chain.token });
      const request: CannonRequest = {
        method: 'POST',
        path: '/api/user/auth/refresh',
        headers,
        body: body(),
        setupRequest: (req) => ({ ...req, body: body() }),
        onResponse: (status, text) => {
          if (status === 200) {
            chain.token = (JSON.parse(text) as TokenPair).refreshToken;
            return;
          }
          onBreak();
          const spare = spares.pop();
          if (spare) chain = spare;
        },
      };
      client.setRequests([request]);
    },
  };
}

/** `count` signed-in sessions of the project's user (a few logins at a time; each is a bcrypt compare). */
async function sessions(host: StartedHost, project: BenchProject, count: number): Promise<Chain[]> {
  const out: Chain[] = [];
  while (out.length < count) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, count - out.length) }, () => host.login(project)),
    );
    out.push(...batch.map((pair) => ({ token: pair.refreshToken })));
  }
  return out;
}

export async function runAuthRefresh(ctx: BenchContext): Promise<AuthRefreshResult> {
  const { durationS, warmupS } = phase(ctx);
  const result: AuthRefreshResult = await withProject(ctx, 'auth-refresh', async (host, project) => {
    const tenantUrl = await tenantDatabaseUrl(ctx.infra.adminUrl, project.id);
    const count = async (): Promise<number> =>
      Number(
        (await sql<{ n: string }>(tenantUrl, 'SELECT count(*) AS n FROM platform_auth.sessions'))[0]?.n ?? 0,
      );
    const revoked = async (): Promise<number> =>
      Number(
        (
          await sql<{ n: string }>(
            tenantUrl,
            'SELECT count(DISTINCT family_id) AS n FROM platform_auth.sessions WHERE revoked_at IS NOT NULL',
          )
        )[0]?.n ?? 0,
      );
    const runs: RefreshRun[] = [];
    for (const connections of [10, 50]) {
      const chains = await sessions(host, project, connections);
      const spares = await sessions(host, project, Math.ceil(connections / 10) + 1);
      let breaks = 0;
      const options = refreshChains(host.port, project, chains, spares, () => breaks++);
      ctx.log(
        `auth-refresh: ${connections} chains, ${warmupS} s warm-up, then ${durationS} s measured (${spares.length} spare sessions)`,
      );
      await autocannon({ ...options, connections, duration: warmupS, timeout: 10 });
      await sleep(1_000);
      const revokedBefore = await revoked();
      const sessionsBefore = await count();
      breaks = 0;
      const { result, cpuPercent } = await measured(host, {
        ...options,
        connections,
        duration: durationS,
        timeout: 10,
      });
      await sleep(500); // the rotations in flight when the run stopped are committed
      const revokedFamilies = (await revoked()) - revokedBefore;
      const rotationsStored = (await count()) - sessionsBefore;
      const base = authRun(
        connections,
        result,
        cpuPercent,
        (f) => f.rps >= AUTH_AIMS.refresh.rps && f.errors === AUTH_AIMS.refresh.errors,
      );
      const run: RefreshRun = {
        ...base,
        chains: connections,
        chainBreaks: breaks,
        revokedFamilies,
        rotationsStored,
        // Every 200 must be a real rotation (a stale token re-presented within the grace is not one).
        meetsAims:
          base.meetsAims &&
          breaks === 0 &&
          revokedFamilies === 0 &&
          rotationsStored >= (base.statusCodes['200'] ?? 0),
      };
      runs.push(run);
      ctx.log(
        `${describeRun('auth-refresh', run)}; ${breaks} chain breaks, ${revokedFamilies} families revoked, ${rotationsStored} rotations stored`,
      );
    }
    return { aims: AUTH_AIMS.refresh, graceMs: '0 (host default: off)', runs };
  });
  if (ctx.profile || result.runs.some((run) => !run.meetsAims)) {
    result.profile = await profiledPass(ctx, 'auth-refresh', async (host, project) =>
      refreshChains(host.port, project, await sessions(host, project, 10), [], () => undefined),
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// 7. POST /api/user/auth/login vs raw bcrypt
// ---------------------------------------------------------------------------------------------

export interface BcryptRate {
  comparesPerSecond: number;
  compares: number;
  elapsedMs: number;
  inflight: number;
  threadpool: string;
  cost: number;
}

export interface AuthLoginResult {
  aims: typeof AUTH_AIMS.login;
  bcryptCost: number;
  raw: BcryptRate;
  /** CPU while the raw compares ran: `machine` in percent of all cores. */
  rawCpuPercent: Record<string, number>;
  runs: (AuthRun & { shareOfRaw: number })[];
}

const run = promisify(execFile);

/** The raw compare rate in a child Node process with the host's environment (see bcrypt-rate.ts). */
async function rawBcrypt(
  hash: string,
  password: string,
  seconds: number,
  inflight: number,
): Promise<{ rate: BcryptRate; cpuPercent: Record<string, number> }> {
  const meter = new CpuMeter({}); // the child is below the bench: its CPU is "everything else"
  meter.start();
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'support', 'bcrypt-rate.ts')], {
    env: {
      ...baseEnv(),
      NODE_ENV: 'production',
      BENCH_BCRYPT_HASH: hash,
      BENCH_BCRYPT_PASSWORD: password,
      BENCH_BCRYPT_SECONDS: String(seconds),
      BENCH_BCRYPT_INFLIGHT: String(inflight),
    },
    timeout: (seconds + 30) * 1000,
  });
  const cpuPercent = meter.stop();
  const raw = JSON.parse(stdout.trim().split('\n').at(-1)!) as BcryptRate;
  return { rate: { ...raw, comparesPerSecond: round(raw.comparesPerSecond, 1) }, cpuPercent };
}

export async function runAuthLogin(ctx: BenchContext): Promise<AuthLoginResult> {
  // A login is a bcrypt compare (~0.1 s of a core at cost 11): a few seconds hold too few of them.
  const { durationS, warmupS } = ctx.quick ? { durationS: 10, warmupS: 3 } : phase(ctx);
  return withProject(ctx, 'auth-login', async (host, project) => {
    const tenantUrl = await tenantDatabaseUrl(ctx.infra.adminUrl, project.id);
    const [row] = await sql<{ password_hash: string }>(
      tenantUrl,
      'SELECT password_hash FROM platform_auth.users WHERE email = $1',
      [project.email],
    );
    if (!row?.password_hash) throw new Error('the registered user has no stored password hash');
    const cost = Number(/^\$2[aby]?\$(\d+)\$/.exec(row.password_hash)?.[1] ?? 0);
    // Enough compares in flight to keep every threadpool thread busy, as concurrent logins do.
    const inflight = 16;
    ctx.log(`auth-login: raw bcrypt compares at cost ${cost}, ${inflight} in flight, ${durationS} s`);
    const raw = await rawBcrypt(row.password_hash, project.password, durationS, inflight);
    ctx.log(`auth-login: raw ${raw.rate.comparesPerSecond} compares/s (threadpool ${raw.rate.threadpool})`);
    const body = JSON.stringify({ email: project.email, password: project.password });
    const runs: AuthLoginResult['runs'] = [];
    for (const connections of [inflight]) {
      const options = {
        url: `http://127.0.0.1:${host.port}/api/user/auth/login`,
        method: 'POST',
        headers: { host: project.host, 'content-type': 'application/json' },
        body,
        connections,
        timeout: 30,
      };
      ctx.log(`auth-login: ${connections} connections, ${warmupS} s warm-up, then ${durationS} s measured`);
      await autocannon({ ...options, duration: warmupS });
      // The host still works through the logins the warm-up left in flight; this one queues behind them.
      await host.login(project);
      await sleep(500);
      const { result, cpuPercent } = await measured(host, { ...options, duration: durationS });
      const shareOfRaw = round(result.requests.average / Math.max(raw.rate.comparesPerSecond, 1e-9), 3);
      const base = authRun(
        connections,
        result,
        cpuPercent,
        (f) => shareOfRaw >= AUTH_AIMS.login.shareOfRaw && f.errors === AUTH_AIMS.login.errors,
      );
      runs.push({ ...base, rps: round(result.requests.average, 1), shareOfRaw });
      ctx.log(`${describeRun('auth-login', base)}; ${Math.round(shareOfRaw * 100)}% of raw bcrypt`);
    }
    return {
      aims: AUTH_AIMS.login,
      bcryptCost: cost,
      raw: raw.rate,
      rawCpuPercent: raw.cpuPercent,
      runs,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

const LIMITS_NOTE = `The host's auth rate limits are raised for the bench's host only (${Object.entries(
  BENCH_RATE_LIMITS,
)
  .map(([k, v]) => `\`${k}=${v}\``)
  .join(', ')}): every request comes from 127.0.0.1 and one account; the limiters still run.`;

const header =
  '| connections | req/s | p50 ms | p90 ms | p99 ms | max ms | errors (non-2xx + socket + timeouts) | project-host CPU | Postgres CPU | CPU ms per request (host / Postgres) | machine CPU | aims |';
const rule = '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |';
const row = (r: AuthRun): string =>
  `| ${r.connections} | ${r.rps} | ${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ${r.latencyMs.max} | ${r.errors} (${r.non2xx} + ${r.socketErrors} + ${r.timeouts}) | ${r.cpuPercent[HOST]}% | ${r.cpuPercent[POSTGRES]}% | ${r.cpuMsPerRequest.projectHost} / ${r.cpuMsPerRequest.postgres} | ${r.cpuPercent.machine}% | ${r.meetsAims ? 'met' : '**not met**'} |`;
const cpuLine = (runs: AuthRun[]): string =>
  `CPU during the measured runs (percent of one core): ${runs
    .map(
      (r) =>
        `${r.connections} conn: ${Object.entries(r.cpuPercent)
          .filter(([k]) => k !== 'machine')
          .map(([k, v]) => `${k} ${v}%`)
          .join(', ')}`,
    )
    .join('; ')}.`;

export function authMeMarkdown(r: AuthMeResult): string {
  return [
    '## 5. Auth: `GET /api/user/me`',
    '',
    `One project-host process, one project made through the control-plane API, one registered user; autocannon sends \`GET /api/user/me\` with the user's access token (the JWT check, session liveness and the profile; with the host's default \`AUTH_STATE_CACHE_MS\` a process answers from what it read within the last 10 s, and any change to the user reaches every process at once over Redis pub/sub). Aim: ≥ ${r.aims.rps} req/s, 0 errors.`,
    '',
    header,
    rule,
    ...r.runs.map(row),
    '',
    cpuLine(r.runs),
    ...(r.uncached
      ? [
          '',
          `For reference (no aim): with \`AUTH_STATE_CACHE_MS=0\` the host reads session liveness and the profile from Postgres on every request: **${r.uncached.rps} req/s** at 10 connections (p50 ${r.uncached.latencyMs.p50} ms, p99 ${r.uncached.latencyMs.p99} ms, ${r.uncached.errors} errors; project-host ${r.uncached.cpuPercent[HOST]}% of a core, Postgres ${r.uncached.cpuPercent[POSTGRES]}%). That is what a request costs when its entries are cold (the first request of a session on a replica, or one right after the user changed).`,
        ]
      : []),
    ...(r.profile ? ['', ...profileMarkdown('project-host', r.profile)] : []),
  ].join('\n');
}

export function authRefreshMarkdown(r: AuthRefreshResult): string {
  return [
    '## 6. Auth: `POST /api/user/auth/refresh` (rotation chains)',
    '',
    `Every refresh consumes its token, so each connection drives one chain: a signed-in session whose every request presents the refresh token of the previous answer. A non-200 answer breaks the chain and counts as an error (the connection moves to a spare session). Refresh reuse grace: ${r.graceMs} ms. ${LIMITS_NOTE} Aim: ≥ ${r.aims.rps} req/s, 0 errors, 0 chain breaks.`,
    '',
    '| chains | req/s | p50 ms | p90 ms | p99 ms | max ms | errors (non-2xx + socket + timeouts) | chain breaks | families revoked | 200 answers / rotations stored | project-host CPU | Postgres CPU | CPU ms per request (host / Postgres) | aims |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (x) =>
        `| ${x.chains} | ${x.rps} | ${x.latencyMs.p50} | ${x.latencyMs.p90} | ${x.latencyMs.p99} | ${x.latencyMs.max} | ${x.errors} (${x.non2xx} + ${x.socketErrors} + ${x.timeouts}) | ${x.chainBreaks} | ${x.revokedFamilies} | ${x.statusCodes['200'] ?? 0} / ${x.rotationsStored} | ${x.cpuPercent[HOST]}% | ${x.cpuPercent[POSTGRES]}% | ${x.cpuMsPerRequest.projectHost} / ${x.cpuMsPerRequest.postgres} | ${x.meetsAims ? 'met' : '**not met**'} |`,
    ),
    '',
    cpuLine(r.runs),
    ...(r.profile ? ['', ...profileMarkdown('project-host', r.profile)] : []),
  ].join('\n');
}

export function authLoginMarkdown(r: AuthLoginResult): string {
  return [
    '## 7. Auth: `POST /api/user/auth/login` vs raw bcrypt',
    '',
    `The raw rate: bcrypt \`compare\` (the host's library; a libuv threadpool task) against the hash the host stored for the user (cost ${r.bcryptCost}, the host's default \`BCRYPT_COST\`), ${r.raw.inflight} compares in flight for ${Math.round(r.raw.elapsedMs / 1000)} s in a child Node process with the host's environment (threadpool ${r.raw.threadpool}). Then logins of that user at the same concurrency against the host (each also a rate-limit check, a user query, a session insert and a hook event). ${LIMITS_NOTE} Aim: logins ≥ ${Math.round(r.aims.shareOfRaw * 100)}% of the raw rate, 0 errors.`,
    '',
    `Raw bcrypt: **${r.raw.comparesPerSecond} compares/s** (machine CPU meanwhile ${r.rawCpuPercent.machine}% of all cores).`,
    '',
    '| connections | logins/s | share of raw | p50 ms | p99 ms | max ms | errors | project-host CPU | Postgres CPU | machine CPU | aims |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (x) =>
        `| ${x.connections} | ${x.rps} | ${Math.round(x.shareOfRaw * 1000) / 10}% | ${x.latencyMs.p50} | ${x.latencyMs.p99} | ${x.latencyMs.max} | ${x.errors} | ${x.cpuPercent[HOST]}% | ${x.cpuPercent[POSTGRES]}% | ${x.cpuPercent.machine}% | ${x.meetsAims ? 'met' : '**not met**'} |`,
    ),
    '',
    cpuLine(r.runs),
  ].join('\n');
}
