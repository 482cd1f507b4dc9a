import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tenantAppRoleName, tenantDatabaseName } from '../../libs/db/src/tenant-provisioning.js';
import { createQueue, createRedisConnection, QueueName } from '../../libs/queue/src/index.js';
import { repoRoot } from '../support/app-process.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  tenantQuery,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { ATTACK_PLAN, errorText, type Outcome, type Where } from './hostile-tenant/attacks.js';
import { HOOK_ATTACK_PREFIX, hostileFiles } from './hostile-tenant/hostile-project.js';
import { ADMIN_TOKEN, deploy, deployArchive, signUp } from './project-code-harness.js';
import {
  AUTH_SECRET,
  GENEROUS_LIMITS,
  infra,
  mainQuery,
  sleep,
  startProjectHost,
  type Host,
} from './user-auth-harness.js';

// A hostile tenant: project code that tries, from a route, an auth hook and a job, to reach the
// network, the host's processes, files and secrets, other tenants' data, to spawn processes and to
// exhaust memory, CPU, /tmp, the database and the job queue. Each attempt must fail with an error
// the code sees (or end only its own sandbox, whose next call works), while another project's
// /api/user/me keeps answering 200. The suite prints every attempt, held or escaped.
//
// The host runs with its default sandbox (PROJECT_CODE_SANDBOX is not set).

type Verdict = 'held' | 'ESCAPED' | 'no answer';

interface Attempt {
  where: Where;
  attack: string;
  verdict: Verdict;
  detail: string;
}

/**
 * Attacks whose call may end the sandbox instead of answering, and how the call must fail then
 * (a loop with a timeout, or its CPU budget); the next call must work.
 */
const PREFIX = `${infra.REDIS_PREFIX}-hostile-tenant`;
const MAY_END_SANDBOX = new Map([
  ['cpu.loop', /HTTP 504|did not finish within|CPU time/],
  ['mem.array-buffers', /./],
]);
const WHERES: Where[] = ['route', 'hook', 'job'];
const MB = 1024 * 1024;

let host: Host;
const projects: TestProject[] = [];
const attempts: Attempt[] = [];
const cleanups: (() => void | Promise<void>)[] = [];
let quotaNote = '';
const neighbourAnswers: { what: string; status: number | string; at: number }[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

// ---------------------------------------------------------------------------------------------
// What the host exposes, found at run time (nothing here names a machine).
// ---------------------------------------------------------------------------------------------

/** This machine's addresses other than loopback (link-local ones need a scope: left out). */
function otherAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((a) => !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a.address);
}

/**
 * The storage quota's env var, once the project-effects work has one (it is being written at the
 * same time as this suite): found by name in the host's sources, set to a small quota for the run.
 */
function storageQuota(): { env: Record<string, string>; bytes: number } | undefined {
  const effects = join(repoRoot, 'libs', 'project-runtime', 'src', 'effects');
  const sources = [
    join(repoRoot, 'libs', 'project-runtime', 'src', 'runtime.config.ts'),
    ...readdirSync(effects)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
      .map((file) => join(effects, file)),
  ];
  const names = new Set(
    sources.flatMap((file) => readFileSync(file, 'utf8').match(/\b[A-Z][A-Z0-9_]*QUOTA[A-Z0-9_]*\b/g) ?? []),
  );
  const name =
    [...names].find((n) => /STORAGE|DB|DATABASE/.test(n)) ?? (names.size === 1 ? [...names][0] : undefined);
  if (!name) {
    quotaNote = 'storage quota: off (no *QUOTA* env var in project-effects yet)';
    return undefined;
  }
  const quotaMb = 24;
  const value = /_MB$/.test(name)
    ? String(quotaMb)
    : /_KB$/.test(name)
      ? String(quotaMb * 1024)
      : /_GB$/.test(name)
        ? undefined
        : String(quotaMb * MB);
  if (!value) {
    quotaNote = `storage quota: off (${name} is in GB: set a case by hand)`;
    return undefined;
  }
  quotaNote = `storage quota: on (${name}=${value})`;
  return { env: { [name]: value }, bytes: quotaMb * MB };
}

// ---------------------------------------------------------------------------------------------
// Running an attack from a route, a hook or a job, and reading what it reported.
// ---------------------------------------------------------------------------------------------

interface Row {
  place: Where;
  attack: string;
  state: 'started' | 'done';
  outcome: Outcome | null;
}

async function rowsOf(p: TestProject, where: Where): Promise<Map<string, Row>> {
  const rows = await tenantQuery<Row & Record<string, unknown>>(
    p.id,
    'select place, attack, state, outcome from app.hostile_outcomes where place = $1',
    [where],
  );
  return new Map(rows.map((row) => [row.attack, row]));
}

/**
 * How far the host's and the worker's logs have come. The two are kept apart: `host.app.output()`
 * is the host's log followed by the worker's, so one offset into it would slide back over the
 * worker's earlier lines whenever the host logs something.
 */
interface LogMark {
  host: number;
  worker: number;
}

/** The host's log and the worker's, read at the same moment. */
function logs(): { hostLog: string; workerLog: string } {
  const both = host.app.output();
  const workerLog = host.worker.output();
  return { hostLog: both.slice(0, both.length - workerLog.length), workerLog };
}

function logMark(): LogMark {
  const { hostLog, workerLog } = logs();
  return { host: hostLog.length, worker: workerLog.length };
}

/** The host's and the worker's log lines of a project since `mark` that say a hook or job failed (their errors). */
function failuresLogged(projectId: string, mark: LogMark): string[] {
  const { hostLog, workerLog } = logs();
  return [...hostLog.slice(mark.host).split('\n'), ...workerLog.slice(mark.worker).split('\n')].flatMap(
    (line) => {
      try {
        const entry = JSON.parse(line) as { projectId?: string; msg?: string; err?: string };
        // `auth hook failed`, `project job failed`, and the sandbox's own word that it ended.
        return entry.projectId === projectId &&
          /hook|job|sandbox/.test(entry.msg ?? '') &&
          /fail|end/.test(entry.msg ?? '')
          ? [`${entry.msg}: ${entry.err ?? ''}`]
          : [];
      } catch {
        return [];
      }
    },
  );
}

class Context {
  constructor(
    readonly where: Where,
    readonly p: TestProject,
  ) {}

  /**
   * Starts an attack and returns what waits for its outcome. `alone`: nothing else runs in this
   * place, so a hook or job failure the host logs meanwhile is this attack's.
   */
  async start(attack: string, alone = false): Promise<() => Promise<Attempt>> {
    const mark = logMark();
    if (this.where === 'route') {
      const path = attack === 'cpu.loop' ? '/api/loop' : `/api/attack?name=${encodeURIComponent(attack)}`;
      const answered = (async () => {
        let res = await this.p.client.request<Outcome>('GET', path);
        for (let tries = 1; tries < 30 && isBusy(res); tries++) {
          await sleep(1000 * Math.min(5, Number(res.headers['retry-after']) || 1));
          res = await this.p.client.request<Outcome>('GET', path);
        }
        return res;
      })().catch((error: unknown) => error as Error);
      return async () => {
        const res = await answered;
        if (res instanceof Error) return this.failed(attack, `no HTTP answer: ${errorText(res)}`);
        if (res.status === 200 && res.body?.attack === attack) return judge('route', res.body, res.headers);
        return this.failed(attack, `HTTP ${res.status}: ${res.text.slice(0, 160)}`);
      };
    }
    const startIt = () =>
      this.where === 'hook'
        ? this.p.client.request('POST', '/api/user/auth/register', {
            json: {
              email: uniqueEmail('hostile'),
              password: strongPassword(),
              name: HOOK_ATTACK_PREFIX + attack,
            },
          })
        : this.p.client.request('POST', '/api/enqueue', {
            json: { job: attack === 'cpu.loop' ? 'loop' : 'attack', attack },
          });
    // While the project's own attacks hold every database connection the host gives it, a start
    // is refused with 503 temporarily_unavailable and Retry-After: a client tries again, so does this.
    let res = await startIt();
    for (let tries = 1; tries < 30 && isBusy(res); tries++) {
      await sleep(1000 * Math.min(5, Number(res.headers['retry-after']) || 1));
      res = await startIt();
    }
    const expected = this.where === 'hook' ? 201 : 200;
    if (res.status !== expected) {
      return async () =>
        this.failed(attack, `could not start it: HTTP ${res.status} ${res.text.slice(0, 160)}`);
    }
    return async () => {
      // Done, or started and then ended by the host (logged as a failed hook or job), or nothing.
      const deadline = Date.now() + 90_000;
      for (;;) {
        const row = (await rowsOf(this.p, this.where)).get(attack);
        if (row?.state === 'done' && row.outcome) return judge(this.where, row.outcome);
        const failures = alone ? failuresLogged(this.p.id, mark) : [];
        if (row && failures.length > 0) return this.failed(attack, `ended by the host: ${failures[0]}`);
        if (Date.now() > deadline) {
          return this.failed(attack, row ? 'started, never finished' : 'never started');
        }
        await sleep(250);
      }
    };
  }

  /** One attack with nothing else running in this place. */
  async run(attack: string): Promise<Attempt> {
    return (await this.start(attack, true))();
  }

  /** Whether the context answers a plain call (after an attack that may have ended its sandbox). */
  async ping(after: string): Promise<string | undefined> {
    const attempt = await this.run(`ping:after-${after}`);
    return attempt.verdict === 'held' && attempt.detail === 'pong' ? undefined : attempt.detail;
  }

  /** The call gave no outcome: fine for the attacks that may end the sandbox, if the next call works. */
  private async failed(attack: string, what: string): Promise<Attempt> {
    if (attack.startsWith('ping:') || !MAY_END_SANDBOX.get(attack)?.test(what)) {
      return { where: this.where, attack, verdict: 'no answer', detail: what };
    }
    const next = await this.ping(attack);
    return next === undefined
      ? { where: this.where, attack, verdict: 'held', detail: `${what}; the next call answered` }
      : {
          where: this.where,
          attack,
          verdict: 'no answer',
          detail: `${what}; the next call failed too: ${next}`,
        };
  }
}

/** A refusal for a full connection budget, which asks the client to try again later. */
function isBusy(res: { status: number; text: string }): boolean {
  return res.status === 503 && res.text.includes('temporarily_unavailable');
}

/** The code's own report, and for the attacks on the answer, what reached the client. */
function judge(where: Where, outcome: Outcome, headers: Record<string, unknown> = {}): Attempt {
  const base = { where, attack: outcome.attack };
  if (outcome.attack === 'cookie.parent-domain') {
    const cookies = ([] as string[]).concat((headers['set-cookie'] as string[] | undefined) ?? []);
    const bad = cookies.filter((c) => /;\s*domain\s*=/i.test(c) || /^platform_/i.test(c));
    const detail = `${cookies.length} of 4 cookies reached the client, ${bad.length} of them for other hosts or named like the platform's`;
    return { ...base, verdict: bad.length ? 'ESCAPED' : 'held', detail };
  }
  if (outcome.attack === 'headers.platform') {
    const reached = ['strict-transport-security', 'clear-site-data', 'x-accel-redirect', 'location'].filter(
      (name) => headers[name] !== undefined,
    );
    if (headers['transfer-encoding'] !== undefined) reached.push('transfer-encoding');
    const detail = reached.length ? `reached the client: ${reached.join(', ')}` : 'none reached the client';
    return { ...base, verdict: reached.length ? 'ESCAPED' : 'held', detail };
  }
  return { ...base, verdict: outcome.succeeded ? 'ESCAPED' : 'held', detail: outcome.detail };
}

// ---------------------------------------------------------------------------------------------
// Evidence on the host's side: what the code cannot see for itself.
// ---------------------------------------------------------------------------------------------

function listenUdp(): Promise<{ socket: Socket; port: number; received: string[] }> {
  const socket = createSocket('udp4');
  const received: string[] = [];
  socket.on('message', (message) => received.push(message.toString()));
  return new Promise((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve({ socket, port: socket.address().port, received })),
  );
}

function upgrade(where: Where, attack: string, detail: string): void {
  const attempt = attempts.find((a) => a.where === where && a.attack === attack);
  if (!attempt) return;
  attempt.verdict = 'ESCAPED';
  attempt.detail = `${detail} (${attempt.detail})`;
}

function table(rows: Attempt[]): string {
  const width = Math.max(...rows.map((a) => a.attack.length));
  return rows
    .map((a) => `${a.where.padEnd(5)}  ${a.attack.padEnd(width)}  ${a.verdict.padEnd(9)}  ${a.detail}`)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// The run: every attack from every place, then the checks.
// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const quota = storageQuota();
  // Queues of its own: a project worker of a spec running beside this one (with other limits) must
  // not take this host's hooks and jobs.
  host = await startProjectHost({ ...GENEROUS_LIMITS, ...quota?.env, REDIS_PREFIX: PREFIX });
  const tag = randomBytes(6).toString('hex');

  // The neighbour: a project with a signed-in user, its own code and its own secret.
  const neighbour = await project();
  const neighbourCanaries = [`neighbour-code-${tag}`, `neighbour-env-${tag}`];
  const deployed = await deploy(host, neighbour.id, {
    'api/hello.ts': `import { defineApi } from '@suite/platform-sdk';
      const CANARY = '${neighbourCanaries[0]}';
      export default defineApi({ handler: ({ env }) => ({ hello: CANARY.length + String(env.SECRET).length }) });`,
    '.env': `SECRET=${neighbourCanaries[1]}`,
  });
  expect(deployed.status).toBe(201);
  const resident = await signUp(neighbour);
  expect((await neighbour.client.request('GET', '/api/hello')).status).toBe(200);

  // Canaries on the host: a file in the platform's data folder and one in the host's /tmp.
  const dataDir = process.env.SUITE_DATA_DIR || join(repoRoot, '.data');
  mkdirSync(dataDir, { recursive: true });
  const dataCanary = `hostile-canary-${tag}.json`;
  writeFileSync(join(dataDir, dataCanary), JSON.stringify({ secret: `data-${tag}` }));
  const tmpCanaryDir = mkdtempSync(join(tmpdir(), 'hostile-canary-'));
  writeFileSync(join(tmpCanaryDir, 'secret.txt'), `tmp-${tag}`);
  cleanups.push(() => rmSync(join(dataDir, dataCanary), { force: true }));
  cleanups.push(() => rmSync(tmpCanaryDir, { recursive: true, force: true }));
  const udp = await listenUdp();
  cleanups.push(() => {
    udp.socket.close();
  });

  const database = new URL(infra.DATABASE_URL);
  const redis = new URL(infra.REDIS_URL);
  const socketDirs = await mainQuery<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
  const env: Record<string, string> = {
    HOST_PID: String(host.app.child.pid),
    HOST_PORT: String(host.port),
    PG_PORT: database.port || '5432',
    REDIS_PORT: redis.port || '6379',
    HOST_ADDRESSES: otherAddresses().join(','),
    PG_SOCKET_DIRS: (socketDirs[0]?.unix_socket_directories ?? '')
      .split(',')
      .map((dir) => dir.trim())
      .filter((dir) => dir && !dir.startsWith('@'))
      .join(','),
    OUTSIDE: '1.1.1.1:443',
    REPO: repoRoot,
    DATA_DIR: dataDir,
    DATA_CANARY: dataCanary,
    TMP_CANARY: join(tmpCanaryDir, 'secret.txt'),
    WRITE_TAG: tag,
    UDP_PORT: String(udp.port),
    MAIN_DB: decodeURIComponent(database.pathname.slice(1)),
    ADMIN_ROLE: decodeURIComponent(database.username) || 'postgres',
    OTHER_DB: tenantDatabaseName(neighbour.id),
    OTHER_ROLE: tenantAppRoleName(neighbour.id),
    HOST_ENV_NAMES: 'DATABASE_URL,REDIS_URL,REDIS_PREFIX,AUTH_SECRET,PLATFORM_ADMIN_TOKEN,PUBLIC_URL',
    NEIGHBOUR_CANARIES: neighbourCanaries.join(','),
    PARENT_DOMAIN: 'localhost',
    QUOTA_BYTES: String(quota?.bytes ?? 0),
  };

  // One hostile project per place, so that what ends one sandbox does not end the others' calls.
  const contexts = await Promise.all(
    WHERES.map(async (where) => {
      const p = await project();
      const res = await deployArchive(host, p.id, hostileFiles(env));
      if (res.status !== 201) throw new Error(`deploying the hostile project: ${JSON.stringify(res.json)}`);
      const setup = await p.client.request('GET', '/api/attack?name=setup');
      if (setup.status !== 200) throw new Error(`setting up the hostile project: ${setup.text}`);
      return new Context(where, p);
    }),
  );

  // The neighbour is polled all along.
  let polling = true;
  const startedAt = Date.now();
  const poll = (async () => {
    while (polling) {
      for (const [what, call] of [
        ['/api/user/me', () => neighbour.client.me(resident.accessToken)],
        ['/api/hello', () => neighbour.client.request('GET', '/api/hello')],
      ] as const) {
        const status = await call().then(
          (res) => res.status,
          (error: unknown) => errorText(error),
        );
        neighbourAnswers.push({ what, status, at: Date.now() - startedAt });
      }
      await sleep(100);
    }
  })();

  const plan = ATTACK_PLAN.filter((a) => a.name !== 'sql.storage-quota' || quota);
  const planOf = (where: Where, phase: 'parallel' | 'alone' | 'last') =>
    plan.filter((a) => a.phase === phase && (!a.routeOnly || where === 'route')).map((a) => a.name);

  try {
    // Phase 1: the attacks that cannot end a sandbox, side by side in every place.
    const first = await Promise.all(
      contexts.map(async (context) => {
        const settles = await Promise.all(planOf(context.where, 'parallel').map((a) => context.start(a)));
        return Promise.all(settles.map((settle) => settle()));
      }),
    );
    attempts.push(...first.flat());

    // Phase 2: one at a time in each place, each followed by a call that must work.
    const second = await Promise.all(
      contexts.map(async (context) => {
        const done: Attempt[] = [];
        for (const attack of [
          'tmp.peek',
          ...planOf(context.where, 'alone').filter((a) => a !== 'tmp.peek'),
        ]) {
          const attempt = await context.run(attack);
          if (attempt.verdict !== 'no answer' && !attack.startsWith('tmp.peek')) {
            const next = await context.ping(attack);
            if (next !== undefined) {
              attempt.verdict = attempt.verdict === 'ESCAPED' ? 'ESCAPED' : 'no answer';
              attempt.detail += `; the next call failed: ${next}`;
            }
          }
          done.push(attempt);
        }
        return done;
      }),
    );
    attempts.push(...second.flat());

    // Last: what spends the project's job rate, which the job attacks above needed.
    const last = await Promise.all(
      contexts.map(async (context) => {
        const done: Attempt[] = [];
        for (const attack of planOf(context.where, 'last')) done.push(await context.run(attack));
        return done;
      }),
    );
    attempts.push(...last.flat());
  } finally {
    polling = false;
    await poll;
  }

  // The host's side of things the code cannot judge for itself.
  for (const where of WHERES) {
    const onHost = join('/tmp', `hostile-${tag}-${where}`);
    if (existsSync(onHost)) {
      upgrade(where, 'tmp.marker', "the sandbox's /tmp file is in the host's /tmp");
      rmSync(onHost, { force: true });
    }
    for (const dir of [repoRoot, dataDir, '/var/tmp', '/dev/shm']) {
      const left = join(dir, `hostile-${tag}-${where}`);
      if (existsSync(left)) {
        upgrade(
          where,
          dir === '/var/tmp' || dir === '/dev/shm' ? 'write.system' : 'write.repository',
          `${left} exists`,
        );
        rmSync(left, { force: true });
      }
    }
    if (udp.received.some((m) => m === `hostile ${tag} ${where}`)) {
      upgrade(where, 'net.udp-loopback', "the datagram reached the test's listener on the host");
    }
  }
  // A sleep the host did not end is still running: say so, then end it.
  const roles = contexts.map((c) => tenantAppRoleName(c.p.id));
  const sleeping = await mainQuery<{ pid: number; usename: string }>(
    "SELECT pid, usename FROM pg_stat_activity WHERE usename = ANY($1) AND query ILIKE '%pg_sleep(600)%' AND state = 'active'",
    [roles],
  );
  for (const session of sleeping) {
    upgrade(
      contexts[roles.indexOf(session.usename)]!.where,
      'sql.statement-timeout',
      'pg_sleep(600) still running',
    );
    await mainQuery('SELECT pg_terminate_backend($1)', [session.pid]);
  }
  // Whatever a detail holds, it must not hold one of the host's secrets.
  const secrets = [
    AUTH_SECRET,
    ADMIN_TOKEN,
    infra.DATABASE_URL,
    ...neighbourCanaries,
    `data-${tag}`,
    `tmp-${tag}`,
  ];
  for (const attempt of attempts) {
    if (secrets.some((secret) => attempt.detail.includes(secret))) {
      upgrade(attempt.where, attempt.attack, 'a secret of the host or another project is in the outcome');
    }
  }

  // Delayed jobs of the flood must not outlive the suite.
  const connection = createRedisConnection(infra.REDIS_URL);
  const jobs = createQueue(QueueName.ProjectJobs, connection, { prefix: PREFIX });
  for (let removed = 1; removed > 0;) removed = (await jobs.clean(0, 10_000, 'delayed')).length;
  await jobs.close();
  connection.disconnect();

  const escapes = attempts.filter((a) => a.verdict === 'ESCAPED').length;
  const unanswered = attempts.filter((a) => a.verdict === 'no answer').length;
  console.log(
    `hostile tenant: ${attempts.length} attempts, ${escapes} escapes, ${unanswered} without an answer; ${quotaNote}\n` +
      table(attempts),
  );
}, 600_000);

afterAll(async () => {
  await host?.app.stop();
  for (const cleanup of cleanups) await cleanup();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('a hostile tenant', () => {
  it('escapes nothing: every attempt from a route, a hook and a job is held', () => {
    expect(attempts.length).toBeGreaterThan(0);
    const escapes = attempts.filter((a) => a.verdict === 'ESCAPED');
    if (escapes.length > 0) {
      throw new Error(
        `${escapes.length} of ${attempts.length} attempts escaped:\n${table(escapes)}\n\nAll attempts:\n${table(attempts)}`,
      );
    }
  });

  it('learns of each refusal by an error it receives, and a sandbox it ended answers the next call', () => {
    const unanswered = attempts.filter((a) => a.verdict === 'no answer');
    if (unanswered.length > 0) {
      throw new Error(
        `${unanswered.length} attempts without an answer the code received:\n${table(unanswered)}`,
      );
    }
  });

  it('does not disturb another project: its /api/user/me (and its own API) answered 200 throughout', () => {
    expect(neighbourAnswers.filter((a) => a.what === '/api/user/me').length).toBeGreaterThan(10);
    const failures = neighbourAnswers.filter((a) => a.status !== 200);
    if (failures.length > 0) {
      throw new Error(
        `the neighbour answered otherwise ${failures.length} times:\n` +
          failures.map((f) => `${f.at} ms  ${f.what}  ${f.status}`).join('\n'),
      );
    }
  });
});
