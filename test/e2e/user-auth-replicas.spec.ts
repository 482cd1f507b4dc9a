import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  UserClient,
  type TestProject,
} from '../support/user-client.js';
import {
  GENEROUS_LIMITS,
  infra,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Two project-host replicas behind one public address (as behind a load balancer), sharing Postgres
// and Redis. Each replica caches session liveness and profiles for Bearer requests
// (AUTH_STATE_CACHE_MS); whatever one replica changes must take effect on the other at once.

const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';

let first: Host;
let second: Host;
let mail: MailRig;
let project: TestProject;
/** The same project through each replica. */
let onFirst: UserClient;
let onSecond: UserClient;

beforeAll(async () => {
  mail = await startMailRig();
  // A long cache lifetime: only the invalidation can make these tests pass.
  const env = {
    ...GENEROUS_LIMITS,
    AUTH_STATE_CACHE_MS: '60000',
    REFRESH_REUSE_GRACE_MS: '0',
    // Queues and pub/sub of their own, shared by the two replicas only.
    REDIS_PREFIX: `${infra.REDIS_PREFIX}-replicas`,
  };
  first = await startProjectHost(env);
  second = await startProjectHost({ ...env, PUBLIC_URL: `http://localhost:${first.port}` });
  project = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: first.port,
    smtpPort: mail.smtp.port,
  });
  onFirst = project.client;
  onSecond = new UserClient(second.port, project.host);
});

afterAll(async () => {
  await Promise.all([first?.app.stop(), second?.app.stop()]);
  await mail?.close();
  if (project) await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
});

/** A new user signed up through the first replica, with the second replica's cache warm for them. */
async function signedIn(name = 'Ada') {
  const res = await onFirst.register(uniqueEmail(), strongPassword(), name);
  expect(res.status).toBe(201);
  const pair = res.body;
  for (let i = 0; i < 3; i++) expect((await onSecond.me(pair.accessToken)).status).toBe(200);
  return { pair, id: (await onSecond.me(pair.accessToken)).body.id as string };
}

describe('project-host replicas sharing Postgres and Redis', () => {
  it('serves a token issued by one replica on the other', async () => {
    const { pair } = await signedIn();
    const me = await onSecond.me(pair.accessToken);
    expect(me.body).toMatchObject({ name: 'Ada' });
  });

  it('a sign-out on one replica ends the access token on the other at once', async () => {
    const { pair } = await signedIn();
    const out = await onFirst.refresh(pair.refreshToken, true);
    expect(out.status).toBe(200);
    const me = await onSecond.me(pair.accessToken);
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('unauthorized');
    expect((await onFirst.me(pair.accessToken)).status).toBe(401);
  });

  it('a profile change on one replica shows in the next GET /api/user/me on the other', async () => {
    const { pair } = await signedIn('Before');
    expect((await onSecond.me(pair.accessToken)).body.name).toBe('Before');
    const put = await onFirst.put('/api/user/me', { name: 'After' }, { bearer: pair.accessToken });
    expect(put.status).toBe(200);
    expect((await onSecond.me(pair.accessToken)).body.name).toBe('After');
  });

  it('a refresh token presented twice on one replica (theft) ends the session on the other', async () => {
    const { pair } = await signedIn();
    const rotated = await onFirst.refresh(pair.refreshToken);
    expect(rotated.status).toBe(200);
    expect((await onSecond.me(rotated.body.accessToken)).status).toBe(200);
    const reused = await onFirst.refresh(pair.refreshToken);
    expect(reused.status).toBe(401);
    expect((await onSecond.me(rotated.body.accessToken)).status).toBe(401);
    expect((await onSecond.refresh(rotated.body.refreshToken)).status).toBe(401);
  });

  it('a user deleted through the control plane loses access on every replica at once', async () => {
    const { pair, id } = await signedIn();
    const admin = new UserClient(first.port, `localhost:${first.port}`);
    const deleted = await admin.request('DELETE', `/v1/projects/${project.id}/users/${id}`, {
      bearer: ADMIN_TOKEN,
    });
    expect(deleted.status).toBe(204);
    expect((await onSecond.me(pair.accessToken)).status).toBe(401);
  });

  it('rotates on either replica, each answer carrying a working pair', async () => {
    let { pair } = await signedIn();
    for (let i = 0; i < 6; i++) {
      const client = i % 2 === 0 ? onFirst : onSecond;
      const res = await client.refresh(pair.refreshToken);
      expect(res.status).toBe(200);
      pair = res.body;
      expect((await (i % 2 === 0 ? onSecond : onFirst).me(pair.accessToken)).status).toBe(200);
    }
  });
});
