import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hotStatement } from '../../libs/db/src/database-pooler.js';
import { adminUrl, withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { dropTenantDatabase } from '../../libs/db/src/tenant-provisioning.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer.js';
import { RunnerClient, sql } from '../support/runner-client.js';
import { strongPassword, uniqueEmail, UserClient, type TokenPair } from '../support/user-client.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The suite behind a real PgBouncer in transaction pooling mode (Debian's 1.18: no prepared
// statements across transactions), as the compose file and the manifests run it: the apps' pools
// (main database and tenant databases) go through the pooler; migrations, tenant provisioning and
// project code's ctx.db go straight to Postgres (DIRECT_DATABASE_URL).

const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';
const RUNNER_KEY = 'pooler-e2e-runner-key-0123456789';
/** Requests at once: more client connections than the pooler has server connections. */
const AT_ONCE = 8;

let pooler: PgBouncer;

beforeAll(async () => {
  // Two server connections per database: statements of many client connections share them.
  pooler = await startPgBouncer(infra.DATABASE_URL, { poolSize: 2 });
});

afterAll(async () => {
  await pooler?.stop();
});

/** The apps' settings behind the pooler. */
function behindPooler(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: pooler.through(infra.DATABASE_URL),
    DIRECT_DATABASE_URL: infra.DATABASE_URL,
    DATABASE_POOLER: 'pgbouncer',
    ...extra,
  };
}

/** Transactions PgBouncer ran per database. */
async function transactions(): Promise<Map<string, number>> {
  const rows = await pooler.show('STATS');
  return new Map(rows.map((row) => [String(row.database), Number(row.total_xact_count)]));
}

describe('named statements behind PgBouncer in transaction mode', () => {
  const statement = { name: 'pooler-e2e-probe', text: 'SELECT $1::int + 1 AS n', values: [1] };

  /** The statement from AT_ONCE client connections of the pooler at once, each settled. */
  async function fromManyConnections(query: typeof statement) {
    const url = pooler.through(infra.DATABASE_URL);
    return Promise.allSettled(
      Array.from({ length: AT_ONCE }, () =>
        withClient(url, async (client) => {
          // Twice per client connection: the second use of a name the client has prepared.
          await client.query(query);
          return (await client.query(query)).rows[0];
        }),
      ),
    );
  }

  it('fail as a named statement (the failure the switch prevents)', async () => {
    const results = await fromManyConnections(statement);
    const failures = results.flatMap((result) =>
      result.status === 'rejected' ? [String(result.reason)] : [],
    );
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure).toMatch(/prepared statement "pooler-e2e-probe" (does not exist|already exists)/);
    }
  });

  it('are sent unnamed with DATABASE_POOLER=pgbouncer, and every one succeeds', async () => {
    const query = hotStatement(statement, { DATABASE_POOLER: 'pgbouncer' });
    expect(query).not.toHaveProperty('name');
    expect(hotStatement(statement, {})).toHaveProperty('name', 'pooler-e2e-probe');
    const results = await fromManyConnections(query);
    expect(results.map((result) => result.status)).toEqual(Array(AT_ONCE).fill('fulfilled'));
    expect(results.map((result) => (result as PromiseFulfilledResult<unknown>).value)).toEqual(
      Array(AT_ONCE).fill({ n: 2 }),
    );
  });
});

describe('a project host and its worker behind PgBouncer', () => {
  let host: Host;
  let api: HostClient;
  let users: UserClient;
  let projectId = '';

  beforeAll(async () => {
    host = await startProjectHost(
      behindPooler({
        ...GENEROUS_LIMITS,
        // Queues of its own: its settings differ from the other specs' hosts.
        REDIS_PREFIX: `${infra.REDIS_PREFIX}-pooler`,
      }),
    );
    api = new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN);
    const slug = `pool-${randomBytes(4).toString('hex')}`;
    const created = await api.post('/v1/projects', { slug, name: 'Behind the pooler' });
    expect(created.status).toBe(201);
    projectId = (created.json as { id: string }).id;
    users = new UserClient(host.port, `${slug}.localhost:${host.port}`);
  }, 300_000);

  afterAll(async () => {
    if (projectId)
      await api.request(`/v1/projects/${projectId}`, { method: 'DELETE' }).catch(() => undefined);
    await host?.app.stop();
    if (projectId) {
      await sql('DELETE FROM projects WHERE id = $1', [projectId]).catch(() => undefined);
      await dropTenantDatabase({ adminUrl: adminUrl(), projectId }).catch(() => undefined);
    }
  });

  it('creates the project (its tenant database migrated past the pooler) and serves it through the pooler', async () => {
    const tenant = (
      await sql<{ tenant_database: string }>('SELECT tenant_database FROM projects WHERE id = $1', [
        projectId,
      ])
    )[0]!.tenant_database;
    const before = await transactions();
    const email = uniqueEmail('pooler');
    const password = strongPassword();

    const registered = await users.register(email, password, 'Ada');
    expect(registered.status).toBe(201);
    const signedIn = await users.login(email, password);
    expect(signedIn.status).toBe(200);
    const me = await users.me(signedIn.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, name: 'Ada' });

    // The host reached the tenant database and the main one through PgBouncer.
    const after = await transactions();
    expect(after.get(tenant) ?? 0).toBeGreaterThan(before.get(tenant) ?? 0);
    const main = new URL(infra.DATABASE_URL).pathname.slice(1);
    expect(after.get(main) ?? 0).toBeGreaterThan(before.get(main) ?? 0);
  });

  it('rotates refresh tokens (the named rotation statement) from many connections at once', async () => {
    const pairs: TokenPair[] = [];
    for (let i = 0; i < AT_ONCE; i++) {
      const res = await users.register(uniqueEmail('pooler-rotate'), strongPassword());
      expect(res.status).toBe(201);
      pairs.push(res.body);
    }
    for (let round = 0; round < 2; round++) {
      const rotated = await Promise.all(pairs.map((pair) => users.refresh(pair.refreshToken)));
      expect(rotated.map((res) => res.status)).toEqual(Array(AT_ONCE).fill(200));
      rotated.forEach((res, i) => (pairs[i] = res.body));
    }
    const mes = await Promise.all(pairs.map((pair) => users.me(pair.accessToken)));
    expect(mes.map((res) => res.status)).toEqual(Array(AT_ONCE).fill(200));
    expect(host.app.output()).not.toMatch(/prepared statement/);
  });
});

describe('the jobs API behind PgBouncer', () => {
  const started: AppProcess[] = [];
  const jobIds: string[] = [];
  let artifactsDir = '';

  beforeAll(async () => {
    artifactsDir = await mkdtemp(join(tmpdir(), 'pooler-e2e-'));
  });

  afterAll(async () => {
    await Promise.all(started.map((app) => app.stop('SIGKILL')));
    if (jobIds.length) await sql('DELETE FROM jobs WHERE id = ANY($1::uuid[])', [jobIds]);
    if (artifactsDir) await rm(artifactsDir, { recursive: true, force: true });
  });

  async function jobsApi(env: Record<string, string>): Promise<RunnerClient> {
    const port = await freePort();
    const app = startApp('jobs-api', {
      ...env,
      REDIS_URL: infra.REDIS_URL,
      // A queue of its own: no browser worker takes these jobs.
      REDIS_PREFIX: `${infra.REDIS_PREFIX}-pooler-jobs`,
      API_KEYS: RUNNER_KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
      ARTIFACTS_DIR: artifactsDir,
    });
    started.push(app);
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    return new RunnerClient(`http://127.0.0.1:${port}`, RUNNER_KEY);
  }

  async function submitAtOnce(client: RunnerClient) {
    const results = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        client.post('/v1/jobs', { query: `Open https://example.com/${i}` }),
      ),
    );
    for (const res of results) {
      const id = (res.json as { id?: string } | undefined)?.id;
      if (id) jobIds.push(id);
    }
    return results;
  }

  it('takes jobs submitted at once (the named insert statement) and reads them back', async () => {
    const client = await jobsApi(behindPooler());
    const results = await submitAtOnce(client);
    expect(results.map((res) => res.status)).toEqual(Array(AT_ONCE).fill(202));
    for (const res of results) {
      const id = (res.json as { id: string }).id;
      const read = await client.get(`/v1/jobs/${id}`);
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ id, status: 'queued' });
    }
  });

  it('without DATABASE_POOLER the same submissions meet the prepared-statement failure', async () => {
    const client = await jobsApi({ DATABASE_URL: pooler.through(infra.DATABASE_URL) });
    // Each round from fresh client connections of the pooler.
    let failed = 0;
    for (let round = 0; round < 3 && failed === 0; round++) {
      failed = (await submitAtOnce(client)).filter((res) => res.status !== 202).length;
    }
    expect(failed).toBeGreaterThan(0);
    expect(started.at(-1)!.output()).toMatch(
      /prepared statement \\?"insert-job-v1\\?" (does not exist|already exists)/,
    );
  });
});
