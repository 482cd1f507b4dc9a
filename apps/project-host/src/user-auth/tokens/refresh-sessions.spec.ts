import { describe, expect, it } from '@jest/globals';
import { CLIENT, userAuthTestbed } from '../testing/user-auth-testbed.js';
import { REFRESH_TOKEN_TTL_MS } from '../user-auth.constants.js';
import type { TokenPair } from './token-pair.js';

// How a refresh rotates, over in-memory session rows and a clock the spec moves.

async function signedIn(config: Parameters<typeof userAuthTestbed>[0] = {}) {
  const bed = userAuthTestbed(config);
  const ctx = bed.project();
  const tables = bed.stores.tables(ctx);
  const user = await bed.stores.of(ctx).users.create({ email: 'ada@example.com', name: 'Ada' });
  const tokenUser = { ...user, emailVerified: false };
  const pair = await bed.sessions.start(ctx, bed.stores.of(ctx), tokenUser, CLIENT);
  const audience = { projectId: ctx.project.id, issuer: ctx.publicUrl };
  const claims = async (p: TokenPair) => (await bed.tokens.verify(audience, p.accessToken))!;
  return { ...bed, ctx, tables, user, pair, claims };
}

function rotated(
  outcome: Awaited<ReturnType<ReturnType<typeof userAuthTestbed>['sessions']['rotate']>>,
): TokenPair {
  if (!outcome.ok) throw new Error('the rotation was refused');
  return outcome.pair;
}

describe('RefreshSessions.rotate', () => {
  it('replaces a current token by a successor in the same family and marks it rotated', async () => {
    const { sessions, ctx, pair, tables, user, claims } = await signedIn();
    const next = rotated(await sessions.rotate(ctx, pair.refreshToken, CLIENT));

    expect(next.refreshToken).not.toBe(pair.refreshToken);
    expect((await claims(next)).sid).toBe((await claims(pair)).sid);
    const rows = tables.sessionsOf(user.id);
    expect(rows).toHaveLength(2);
    const [first, second] = rows;
    expect(first).toMatchObject({ replacedById: second!.id, revokedAt: null, ip: CLIENT.ip });
    expect(first!.rotatedAt).not.toBeNull();
    expect(second).toMatchObject({ rotatedAt: null, revokedAt: null, familyId: first!.familyId });
  });

  it('a rotated token presented again is a reuse: refused, the whole family revoked, every process told', async () => {
    const { sessions, ctx, pair, tables, user, state, claims } = await signedIn();
    const next = rotated(await sessions.rotate(ctx, pair.refreshToken, CLIENT));

    await expect(sessions.rotate(ctx, pair.refreshToken, CLIENT)).resolves.toEqual({
      ok: false,
      reused: true,
      user: { id: user.id, email: 'ada@example.com', name: 'Ada', picture: null },
    });
    expect(tables.sessionsOf(user.id).every((row) => row.revokedAt)).toBe(true);
    expect(state.forgotten).toContain(user.id);
    await expect(sessions.isLive(ctx, await claims(next))).resolves.toBe(false);
    await expect(sessions.rotate(ctx, next.refreshToken, CLIENT)).resolves.toMatchObject({ ok: false });
  });

  it('refuses an expired token without calling it a reuse', async () => {
    const { sessions, ctx, pair, clock, user } = await signedIn();
    clock.advance(REFRESH_TOKEN_TTL_MS + 1);
    await expect(sessions.rotate(ctx, pair.refreshToken, CLIENT)).resolves.toMatchObject({
      ok: false,
      reused: false,
      user: { id: user.id },
    });
  });

  it('refuses unknown and malformed tokens naming no user', async () => {
    const { sessions, ctx } = await signedIn();
    for (const token of ['', 'not a token', 'A'.repeat(43)]) {
      await expect(sessions.rotate(ctx, token, CLIENT)).resolves.toEqual({
        ok: false,
        user: null,
        reused: false,
      });
    }
  });

  it('with a reuse grace, answers a racing presentation with the same successor pair, and only within it', async () => {
    const { sessions, ctx, pair, clock, tables, user } = await signedIn({ REFRESH_REUSE_GRACE_MS: '5000' });
    const next = rotated(await sessions.rotate(ctx, pair.refreshToken, CLIENT));

    clock.advance(4_000);
    await expect(sessions.rotate(ctx, pair.refreshToken, CLIENT)).resolves.toEqual({ ok: true, pair: next });
    expect(tables.sessionsOf(user.id)).toHaveLength(2);

    clock.advance(2_000);
    await expect(sessions.rotate(ctx, pair.refreshToken, CLIENT)).resolves.toMatchObject({
      ok: false,
      reused: true,
    });
  });
});

describe('RefreshSessions sign-out', () => {
  it('revoke signs the family out and names its user; a second revoke finds nothing live', async () => {
    const { sessions, ctx, pair, user, claims, state } = await signedIn();
    await expect(sessions.revoke(ctx, pair.refreshToken)).resolves.toMatchObject({ id: user.id });
    expect(state.forgotten).toEqual([user.id]);
    await expect(sessions.isLive(ctx, await claims(pair))).resolves.toBe(false);
    await expect(sessions.revoke(ctx, pair.refreshToken)).resolves.toBeNull();
  });

  it('revokeAllOf ends every family of the user, and leaves other users signed in', async () => {
    const { sessions, ctx, pair, user, stores, claims } = await signedIn();
    const store = stores.of(ctx);
    const other = await store.users.create({ email: 'grace@example.com', name: null });
    const second = await sessions.start(ctx, store, { ...user, emailVerified: false }, CLIENT);
    const others = await sessions.start(ctx, store, { ...other, emailVerified: false }, CLIENT);

    await store.transaction((tx) => sessions.revokeAllOf(tx, user.id));
    for (const mine of [pair, second])
      await expect(sessions.isLive(ctx, await claims(mine))).resolves.toBe(false);
    await expect(sessions.isLive(ctx, await claims(others))).resolves.toBe(true);
  });

  it('knows the addresses a user signed in from', async () => {
    const { sessions, ctx, user } = await signedIn();
    await expect(sessions.signedInFrom(ctx, user.id, CLIENT.ip)).resolves.toBe(true);
    await expect(sessions.signedInFrom(ctx, user.id, '198.51.100.1')).resolves.toBe(false);
  });
});
