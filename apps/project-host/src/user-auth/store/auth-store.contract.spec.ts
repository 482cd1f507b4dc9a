import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropTenantDatabase, provisionTenantDatabase, TenantClientCache } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { adminUrl } from '../../../../../libs/db/src/testing/throwaway-database.js';
import { randomToken, sha256Hex } from '@suite/project-runtime';
import { FakeClock, testProject } from '../testing/fakes.js';
import { InMemoryAuthStores } from '../testing/in-memory-auth-store.js';
import { DuplicateRecord, type AuthStore } from './auth-store.js';
import { PrismaAuthStores } from './prisma-auth-store.js';

// One contract, two implementations: the Prisma store on a real tenant database (what runs) and the
// in-memory fake the services' unit specs use. Whatever the fake does, the database does too.

const HOUR = 3600_000;
const tenants = new TenantClientCache();
const projectId = randomUUID();

const implementations: [string, () => AuthStore][] = [
  ['in memory', () => new InMemoryAuthStores(new FakeClock(Date.now())).of(testProject())],
  [
    'Prisma on a tenant database',
    () => new PrismaAuthStores().of({ ...testProject(), tenant: tenants.get(tenantUrl) }),
  ],
];
let tenantUrl: string;

beforeAll(async () => {
  tenantUrl = (await provisionTenantDatabase({ adminUrl: adminUrl(), projectId })).url;
});

afterAll(async () => {
  await tenants.disconnectAll();
  await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
});

const email = () => `u-${randomUUID().slice(0, 8)}@example.com`;

function session(userId: string, familyId = randomUUID(), expiresAt = new Date(Date.now() + HOUR)) {
  const token = randomToken();
  return {
    token,
    row: { userId, familyId, tokenHash: sha256Hex(token), expiresAt, ip: '203.0.113.7', userAgent: null },
  };
}

describe.each(implementations)('AuthStore (%s)', (_name, open) => {
  it('keeps emails unique, on create and on update', async () => {
    const store = open();
    const ada = await store.users.create({ email: email(), name: 'Ada' });
    const grace = await store.users.create({ email: email(), name: null, passwordHash: 'hash' });
    expect(grace).toMatchObject({
      emailVerified: false,
      pendingEmail: null,
      picture: null,
      passwordHash: 'hash',
    });
    await expect(store.users.create({ email: ada.email, name: null })).rejects.toBeInstanceOf(
      DuplicateRecord,
    );
    await expect(store.users.update(grace.id, { email: ada.email })).rejects.toBeInstanceOf(DuplicateRecord);
    await expect(store.users.emailTaken(ada.email)).resolves.toBe(true);
    await expect(store.users.findByEmail(grace.email)).resolves.toMatchObject({ id: grace.id });
  });

  it('rolls a failed transaction back whole', async () => {
    const store = open();
    const address = email();
    await expect(
      store.transaction(async (tx) => {
        await tx.users.create({ email: address, name: null });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(store.users.findByEmail(address)).resolves.toBeNull();
  });

  it('rotates a current refresh token once, into the same family; not a rotated, revoked or expired one', async () => {
    const store = open();
    const user = await store.users.create({ email: email(), name: 'Ada' });
    const first = session(user.id);
    await store.sessions.create(first.row);
    const successor = { id: randomUUID(), ...session(user.id).row };

    const [a, b] = await Promise.all([
      store.sessions.rotateCurrent(first.row.tokenHash, successor, null),
      store.sessions.rotateCurrent(
        first.row.tokenHash,
        { ...successor, id: randomUUID(), tokenHash: 'x'.repeat(64) },
        null,
      ),
    ]);
    const won = [a, b].filter((outcome) => outcome !== undefined);
    expect(won).toEqual([
      {
        familyId: first.row.familyId,
        user: { id: user.id, email: user.email, name: 'Ada', picture: null, emailVerified: false },
      },
    ]);
    const locked = await store.transaction((tx) => tx.sessions.lockByTokenHash(first.row.tokenHash));
    expect(locked?.rotatedAt).toBeInstanceOf(Date);

    const revoked = session(user.id);
    await store.sessions.create(revoked.row);
    await store.sessions.revokeFamily(revoked.row.familyId, new Date());
    const expired = session(user.id, randomUUID(), new Date(Date.now() - 1_000));
    await store.sessions.create(expired.row);
    for (const hash of [revoked.row.tokenHash, expired.row.tokenHash, sha256Hex(randomToken())]) {
      await expect(
        store.sessions.rotateCurrent(
          hash,
          { ...successor, id: randomUUID(), tokenHash: sha256Hex(randomToken()) },
          null,
        ),
      ).resolves.toBeUndefined();
    }
  });

  it('knows live families and the addresses a user signed in from', async () => {
    const store = open();
    const user = await store.users.create({ email: email(), name: null });
    const one = session(user.id);
    await store.sessions.create(one.row);
    await expect(store.sessions.familyLive(user.id, one.row.familyId, new Date())).resolves.toBe(true);
    await expect(store.sessions.openedFrom(user.id, '203.0.113.7')).resolves.toBe(true);
    await expect(store.sessions.openedFrom(user.id, '198.51.100.1')).resolves.toBe(false);
    await store.sessions.revokeAllOf(user.id, new Date());
    await expect(store.sessions.familyLive(user.id, one.row.familyId, new Date())).resolves.toBe(false);
  });

  it('keeps one live code per user and kind, used at most once and never after it expired', async () => {
    const store = open();
    const user = await store.users.create({ email: email(), name: null });
    const now = new Date();
    const code = (hash: string, expiresAt = new Date(now.getTime() + HOUR)) => ({
      userId: user.id,
      kind: 'magic_link' as const,
      codeHash: hash,
      email: user.email,
      expiresAt,
      redirectUri: null,
    });
    const [older, newer, stale] = [sha256Hex('older'), sha256Hex(randomToken()), sha256Hex(randomToken())];
    await store.codes.replace(code(older), now);
    await store.codes.replace(code(newer), now);
    await expect(store.codes.findByHash(older)).resolves.toBeNull();
    await expect(store.codes.consume(newer, 'forgot_password', now)).resolves.toBeNull();
    await expect(store.codes.consume(newer, 'magic_link', now)).resolves.toMatchObject({ userId: user.id });
    await expect(store.codes.consume(newer, 'magic_link', now)).resolves.toBeNull();
    await expect(store.codes.findByHash(newer)).resolves.toMatchObject({ consumedAt: expect.any(Date) });

    await store.codes.replace(code(stale, new Date(now.getTime() - 1_000)), now);
    await expect(store.codes.consume(stale, 'magic_link', now)).resolves.toBeNull();
    await store.codes.voidLive(user.id, 'magic_link');
    await expect(store.codes.findByHash(stale)).resolves.toBeNull();
  });

  it('links a provider account to one user only, and finds the user by it', async () => {
    const store = open();
    const subject = randomUUID();
    const ada = await store.users.create({
      email: email(),
      name: 'Ada',
      identity: { issuer: 'https://idp.example.test', subject, email: 'ada@idp.example.test' },
    });
    const other = await store.users.create({ email: email(), name: null });
    await expect(store.identities.findLinked('https://idp.example.test', subject)).resolves.toMatchObject({
      userId: ada.id,
      email: 'ada@idp.example.test',
      user: { id: ada.id, name: 'Ada' },
    });
    await expect(
      store.identities.link({
        userId: other.id,
        issuer: 'https://idp.example.test',
        subject,
        email: other.email,
      }),
    ).rejects.toBeInstanceOf(DuplicateRecord);
    await store.identities.unlinkAllOf(ada.id);
    await expect(store.identities.findLinked('https://idp.example.test', subject)).resolves.toBeNull();
  });
});
