import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import { CLIENT, userAuthTestbed } from '../testing/user-auth-testbed.js';
import type { UserRecord } from '../store/auth-store.js';

// The signed-in user's profile and email changes over in-memory repositories.

const PASSWORD = 'correct horse battery staple';

async function signedIn(password: string | null) {
  const bed = userAuthTestbed();
  const ctx = bed.project();
  const store = bed.stores.of(ctx);
  const passwordHash = password === null ? null : await bed.hasher.hash(password);
  const user = await store.users.create({ email: 'ada@example.com', name: 'Ada', passwordHash });
  const pair = await bed.sessions.start(ctx, store, { ...user, emailVerified: false }, CLIENT);
  const claims = (await bed.tokens.verify(
    { projectId: ctx.project.id, issuer: ctx.publicUrl },
    pair.accessToken,
  ))!;
  const tables = bed.stores.tables(ctx);
  const row = (): UserRecord => tables.users.get(user.id)!;
  return { ...bed, ctx, store, user, claims, tables, row };
}

describe('ProfileService.me and name changes', () => {
  it('shows the profile without secrets, and refuses a token whose account is gone', async () => {
    const { profiles, ctx, claims, user } = await signedIn(PASSWORD);
    await expect(profiles.me(ctx, claims)).resolves.toEqual({
      id: user.id,
      email: 'ada@example.com',
      name: 'Ada',
      picture: null,
    });
    await expect(
      profiles.me(ctx, { ...claims, sub: '0190c1a2-0000-7000-8000-000000000000' }),
    ).rejects.toMatchObject({
      code: AuthErrorCode.Unauthorized,
      message: 'The account of this access token no longer exists',
    });
  });

  it('renames at once (user.updated), and an unchanged name changes nothing', async () => {
    const { profiles, ctx, claims, events, row } = await signedIn(PASSWORD);
    await expect(profiles.update(ctx, claims, { name: 'Ada' })).resolves.toMatchObject({ status: 200 });
    expect(events.published).toHaveLength(0);
    await expect(profiles.update(ctx, claims, { name: 'Ada L.' })).resolves.toMatchObject({
      status: 200,
      body: { name: 'Ada L.' },
    });
    expect(row().name).toBe('Ada L.');
    expect(events.kinds()).toEqual(['user.updated']);
  });
});

describe('email change with a password', () => {
  it('changes the address at once with the current password; the new one counts as unproven, the old is told', async () => {
    const { profiles, ctx, claims, mailer, row } = await signedIn(PASSWORD);
    await expect(
      profiles.update(ctx, claims, { email: 'lovelace@example.com', currentPassword: PASSWORD }),
    ).resolves.toMatchObject({ status: 200, body: { email: 'lovelace@example.com' } });
    expect(row()).toMatchObject({ email: 'lovelace@example.com', emailVerified: false, pendingEmail: null });
    expect(mailer.sent.map((mail) => [mail.kind, mail.to])).toEqual([
      ['auth.email-changed', 'ada@example.com'],
    ]);
  });

  it('asks for the current password, and refuses a wrong one with 403 and auth.failed', async () => {
    const { profiles, ctx, claims, events, row } = await signedIn(PASSWORD);
    await expect(profiles.update(ctx, claims, { email: 'lovelace@example.com' })).rejects.toMatchObject({
      code: AuthErrorCode.CurrentPasswordRequired,
    });
    await expect(
      profiles.update(ctx, claims, { email: 'lovelace@example.com', currentPassword: 'not the password' }),
    ).rejects.toMatchObject({ code: AuthErrorCode.InvalidCredentials, status: 403 });
    expect(events.kinds()).toEqual(['auth.failed:invalid_credentials']);
    expect(row().email).toBe('ada@example.com');
  });

  it('refuses an address another account has', async () => {
    const { profiles, ctx, claims, store } = await signedIn(PASSWORD);
    await store.users.create({ email: 'grace@example.com', name: null });
    await expect(
      profiles.update(ctx, claims, { email: 'grace@example.com', currentPassword: PASSWORD }),
    ).rejects.toMatchObject({ code: AuthErrorCode.IdentityAlreadyExists });
  });
});

describe('email change by mailed code (no password)', () => {
  it('keeps the change pending (202) until the code mailed to the new address confirms it', async () => {
    const { profiles, ctx, claims, mailer, row } = await signedIn(null);
    await expect(profiles.update(ctx, claims, { email: 'lovelace@example.com' })).resolves.toMatchObject({
      status: 202,
      body: { email: 'ada@example.com', pendingEmail: 'lovelace@example.com' },
    });
    expect(row().pendingEmail).toBe('lovelace@example.com');
    const code = mailer.codeSentTo('lovelace@example.com');

    await expect(profiles.confirmEmailChange(ctx, { code })).resolves.toEqual({
      id: row().id,
      name: 'Ada',
      email: 'lovelace@example.com',
    });
    expect(row()).toMatchObject({ email: 'lovelace@example.com', pendingEmail: null, emailVerified: true });
    expect(mailer.sent.at(-1)).toMatchObject({ kind: 'auth.email-changed', to: 'ada@example.com' });
    await expect(profiles.confirmEmailChange(ctx, { code })).rejects.toMatchObject({
      code: AuthErrorCode.NonceInvalid,
    });
  });

  it('leaves the change pending and the code unspent when the address was taken meanwhile', async () => {
    const { profiles, ctx, claims, mailer, row, store, tables, events } = await signedIn(null);
    await profiles.update(ctx, claims, { email: 'lovelace@example.com' });
    const code = mailer.codeSentTo('lovelace@example.com');
    await store.users.create({ email: 'lovelace@example.com', name: null });

    await expect(profiles.confirmEmailChange(ctx, { code })).rejects.toMatchObject({
      code: AuthErrorCode.IdentityAlreadyExists,
    });
    expect(row()).toMatchObject({ email: 'ada@example.com', pendingEmail: 'lovelace@example.com' });
    expect([...tables.codes.values()].map((nonce) => nonce.consumedAt)).toEqual([null]);
    expect(events.kinds().at(-1)).toBe('auth.failed:identity_already_exists');
  });

  it('a newer request voids the older code', async () => {
    const { profiles, ctx, claims, mailer } = await signedIn(null);
    await profiles.update(ctx, claims, { email: 'lovelace@example.com' });
    const older = mailer.codeSentTo('lovelace@example.com');
    await profiles.update(ctx, claims, { email: 'countess@example.com' });
    await expect(profiles.confirmEmailChange(ctx, { code: older })).rejects.toMatchObject({
      code: AuthErrorCode.NonceInvalid,
    });
  });
});
