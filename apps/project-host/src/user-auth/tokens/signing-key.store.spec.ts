import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMainClient, mainMigrationsDir, migrateDatabase, type MainClient } from '@suite/db';
import { randomUUID } from 'node:crypto';
import {
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from '../../../../../libs/db/src/testing/throwaway-database.js';
import { SystemClock } from '../../platform/clock.js';
import { AuthSecrets } from '@suite/project-runtime';
import { SESSION_FAMILY, TOKEN_USER } from '../testing/fakes.js';
import { AccessTokens } from './access-tokens.js';
import { PrismaSigningKeyRepository } from './signing-key.repository.js';
import { SigningKeyStore } from './signing-key.store.js';

// Signing keys (the store and its Prisma repository) against a real Postgres: first use, races
// between processes, rotation, a changed AUTH_SECRET, and what access tokens accept as a result.

const SECRET = 'signing-key-store-spec-secret-0123456789';
const user = TOKEN_USER;
const family = SESSION_FAMILY;

let database: ThrowawayDatabase;
let db: MainClient;

function store(secret = SECRET): SigningKeyStore {
  return new SigningKeyStore(new PrismaSigningKeyRepository(db), new AuthSecrets(secret), new SystemClock());
}

async function newProject(): Promise<{ projectId: string; issuer: string }> {
  const projectId = randomUUID();
  await db.project.create({
    data: { id: projectId, slug: `p-${projectId.slice(0, 8)}`, name: 'P', tenantDatabase: 'x' },
  });
  return { projectId, issuer: `https://p-${projectId.slice(0, 8)}.example.com` };
}

beforeAll(async () => {
  database = await createThrowawayDatabase('ua_keys');
  await migrateDatabase({ url: database.url, migrationsDir: mainMigrationsDir() });
  db = createMainClient(database.url, { maxConnections: 4 });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('SigningKeyStore', () => {
  it('creates one key on first use even when two processes race for it', async () => {
    const { projectId } = await newProject();
    const [a, b] = [store(), store()];
    const keys = await Promise.all([
      a.signingKey(projectId),
      b.signingKey(projectId),
      a.signingKey(projectId),
    ]);
    expect(new Set(keys.map((key) => key.kid)).size).toBe(1);
    const rows = await db.signingKey.findMany({ where: { projectId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ generation: 1, algorithm: 'ES256', retiredAt: null });
    expect(JSON.stringify(rows[0]!.publicJwk)).not.toContain('"d"');
  });

  it('rotates: the new key signs, tokens of the old key verify until their lifetime has passed', async () => {
    const audience = await newProject();
    const keys = store();
    const tokens = new AccessTokens(keys, new SystemClock());
    const before = await tokens.issue(audience, user, family);
    const old = await keys.signingKey(audience.projectId);
    const next = await keys.rotate(audience.projectId);
    expect(next.kid).not.toBe(old.kid);
    expect(next.generation).toBe(old.generation + 1);
    expect((await keys.signingKey(audience.projectId)).kid).toBe(next.kid);

    // Another process that never saw the rotation learns the new kid from the database.
    const fresh = new AccessTokens(store(), new SystemClock());
    const after = await tokens.issue(audience, user, family);
    await expect(fresh.verify(audience, after)).resolves.toMatchObject({ sub: user.id, sid: family });
    await expect(fresh.verify(audience, before)).resolves.toMatchObject({ sub: user.id });

    await db.signingKey.update({
      where: { id: old.kid },
      data: { retiredAt: new Date(Date.now() - 3600_000) },
    });
    await expect(
      new AccessTokens(store(), new SystemClock()).verify(audience, before),
    ).resolves.toBeUndefined();
  });

  it('replaces a key that is 90 days old at its next use', async () => {
    const { projectId } = await newProject();
    const keys = store();
    const first = await keys.signingKey(projectId);
    await db.signingKey.update({
      where: { id: first.kid },
      data: { createdAt: new Date(Date.now() - 91 * 86_400_000) },
    });
    const second = await store().signingKey(projectId);
    expect(second.kid).not.toBe(first.kid);
    const old = await db.signingKey.findUniqueOrThrow({ where: { id: first.kid } });
    expect(old.retiredAt).not.toBeNull();
  });

  it('signs with a new key after AUTH_SECRET changed, and still verifies tokens of the old one', async () => {
    const audience = await newProject();
    const before = await new AccessTokens(store(), new SystemClock()).issue(audience, user, family);
    const changed = store('a-completely-different-secret-0123456789');
    const tokens = new AccessTokens(changed, new SystemClock());
    await expect(tokens.verify(audience, before)).resolves.toMatchObject({ sub: user.id });
    const after = await tokens.issue(audience, user, family);
    const rows = await db.signingKey.findMany({
      where: { projectId: audience.projectId },
      orderBy: { generation: 'asc' },
    });
    // Generation 1 (sealed under the old secret) is retired; generation 2 signs.
    expect(rows.map((row) => [row.generation, row.retiredAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
    await expect(tokens.verify(audience, after)).resolves.toMatchObject({ sub: user.id });
  });
});

describe('AccessTokens', () => {
  it('refuses a token for another project even with a valid signature of that project', async () => {
    const a = await newProject();
    const b = await newProject();
    const tokens = new AccessTokens(store(), new SystemClock());
    const token = await tokens.issue(a, user, family);
    await expect(tokens.verify(a, token)).resolves.toMatchObject({
      email: 'ada@example.com',
      name: 'Ada',
      picture: null,
    });
    await expect(tokens.verify(b, token)).resolves.toBeUndefined();
    await expect(tokens.verify({ ...a, issuer: b.issuer }, token)).resolves.toBeUndefined();
  });

  it('refuses garbage and oversized input without throwing', async () => {
    const a = await newProject();
    const tokens = new AccessTokens(store(), new SystemClock());
    for (const token of ['', 'a.b.c', 'x'.repeat(5000), '....']) {
      await expect(tokens.verify(a, token)).resolves.toBeUndefined();
    }
  });
});
