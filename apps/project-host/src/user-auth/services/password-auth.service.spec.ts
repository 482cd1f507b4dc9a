import { describe, expect, it, jest } from '@jest/globals';
import bcrypt from 'bcrypt';
import { AuthErrorCode } from '@suite/errors';
import { CLIENT, userAuthTestbed } from '../testing/user-auth-testbed.js';
import type { TokenPair } from '../tokens/token-pair.js';

// Sign-up, sign-in, refresh and sign-out over in-memory repositories: what the caller gets back,
// what is stored, which hook events fire and which mails go out.

const PASSWORD = 'correct horse battery staple';

function setup(auth?: Parameters<ReturnType<typeof userAuthTestbed>['project']>[0]) {
  const bed = userAuthTestbed();
  const ctx = bed.project(auth);
  const audience = { projectId: ctx.project.id, issuer: ctx.publicUrl };
  return { ...bed, ctx, audience, tables: bed.stores.tables(ctx) };
}

describe('PasswordAuthService.register', () => {
  it('creates the account, signs it in, fires user.created then user.signed_in and sends the welcome mail', async () => {
    const { passwords, ctx, tokens, audience, tables, events, mailer } = setup();
    const pair = await passwords.register(
      ctx,
      { email: 'ada@example.com', password: PASSWORD, name: 'Ada' },
      CLIENT,
    );

    const user = tables.userByEmail('ada@example.com')!;
    expect(user).toMatchObject({ name: 'Ada', emailVerified: false, pendingEmail: null });
    expect(user.passwordHash).not.toContain(PASSWORD);
    await expect(tokens.verify(audience, pair.accessToken)).resolves.toMatchObject({
      sub: user.id,
      email: 'ada@example.com',
      email_verified: false,
    });
    expect(tables.sessionsOf(user.id)).toHaveLength(1);
    expect(events.kinds()).toEqual(['user.created', 'user.signed_in']);
    expect(mailer.sent.map((mail) => [mail.kind, mail.to])).toEqual([['welcome', 'ada@example.com']]);
  });

  it('refuses an address that has an account: 409, auth.failed naming that account, nothing stored', async () => {
    const { passwords, ctx, tables, events } = setup();
    await passwords.register(ctx, { email: 'ada@example.com', password: PASSWORD }, CLIENT);
    const first = tables.userByEmail('ada@example.com')!;

    await expect(
      passwords.register(ctx, { email: 'ada@example.com', password: `${PASSWORD} again` }, CLIENT),
    ).rejects.toMatchObject({ code: AuthErrorCode.IdentityAlreadyExists });
    expect(tables.users.size).toBe(1);
    expect(events.published.at(-1)).toMatchObject({
      kind: 'auth.failed',
      reason: 'identity_already_exists',
      user: { id: first.id },
    });
  });

  it('refuses sign-ups when the project turned them off, before looking at the password', async () => {
    const { passwords, ctx, tables } = setup({ allowSignups: false });
    await expect(
      passwords.register(ctx, { email: 'ada@example.com', password: 'x' }, CLIENT),
    ).rejects.toMatchObject({ code: AuthErrorCode.SignupDisabled, status: 403 });
    expect(tables.users.size).toBe(0);
  });

  it('refuses a password the policy refuses with a message naming the field', async () => {
    const { passwords, ctx, tables } = setup();
    await expect(
      passwords.register(ctx, { email: 'ada@example.com', password: 'ada@example.com' }, CLIENT),
    ).rejects.toMatchObject({
      code: AuthErrorCode.InvalidRequest,
      message: expect.stringMatching(/^password: /),
    });
    expect(tables.users.size).toBe(0);
  });
});

describe('PasswordAuthService.login', () => {
  it('signs in with the right password and opens a new session family', async () => {
    const { passwords, ctx, tokens, audience, tables, events } = setup();
    const registered = await passwords.register(
      ctx,
      { email: 'ada@example.com', password: PASSWORD },
      CLIENT,
    );
    const pair = await passwords.login(ctx, { email: 'ada@example.com', password: PASSWORD }, CLIENT);

    const before = await tokens.verify(audience, registered.accessToken);
    const after = await tokens.verify(audience, pair.accessToken);
    expect(after?.sub).toBe(before?.sub);
    expect(after?.sid).not.toBe(before?.sid);
    expect(tables.sessionsOf(after!.sub)).toHaveLength(2);
    expect(events.kinds().at(-1)).toBe('user.signed_in');
  });

  it('answers a wrong password and an unknown address alike: 401 and auth.failed (invalid_credentials)', async () => {
    const { passwords, ctx, events, tables } = setup();
    await passwords.register(ctx, { email: 'ada@example.com', password: PASSWORD }, CLIENT);
    const id = tables.userByEmail('ada@example.com')!.id;

    for (const email of ['ada@example.com', 'nobody@example.com']) {
      await expect(passwords.login(ctx, { email, password: 'wrong password' }, CLIENT)).rejects.toMatchObject(
        {
          code: AuthErrorCode.InvalidCredentials,
          status: 401,
          message: 'Email or password is incorrect',
        },
      );
    }
    expect(events.published.slice(-2)).toMatchObject([
      { kind: 'auth.failed', reason: 'invalid_credentials', user: { id } },
      { kind: 'auth.failed', reason: 'invalid_credentials', user: null },
    ]);
    expect(tables.sessionsOf(id)).toHaveLength(1);
  });
  it('spends one bcrypt comparison at the same cost on an unknown address as on a wrong password', async () => {
    // Counted, not timed (a timing test fails on a busy machine): an unknown address is compared
    // against a dummy hash of the project's cost, so its answer takes as long as a wrong password's.
    const { passwords, ctx } = setup();
    await passwords.register(ctx, { email: 'ada@example.com', password: PASSWORD }, CLIENT);
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      const work: Record<string, number[]> = {};
      for (const email of ['ada@example.com', 'nobody@example.com']) {
        compare.mockClear();
        await expect(
          passwords.login(ctx, { email, password: 'wrong password' }, CLIENT),
        ).rejects.toMatchObject({
          code: AuthErrorCode.InvalidCredentials,
        });
        work[email] = compare.mock.calls.map(([, hash]) => bcrypt.getRounds(hash as string));
      }
      expect(work['nobody@example.com']).toHaveLength(1);
      expect(work['nobody@example.com']).toEqual(work['ada@example.com']);
    } finally {
      compare.mockRestore();
    }
  });
});

describe('PasswordAuthService.refresh', () => {
  async function signedUp() {
    const bed = setup();
    const pair = await bed.passwords.register(
      bed.ctx,
      { email: 'ada@example.com', password: PASSWORD },
      CLIENT,
    );
    return { ...bed, pair };
  }

  it('rotates: a new pair for the same session family, no hook event', async () => {
    const { passwords, ctx, pair, tokens, audience, events } = await signedUp();
    const before = events.published.length;
    const next = (await passwords.refresh(ctx, { refreshToken: pair.refreshToken }, CLIENT)) as TokenPair;
    expect(next.refreshToken).not.toBe(pair.refreshToken);
    const [a, b] = await Promise.all([
      tokens.verify(audience, pair.accessToken),
      tokens.verify(audience, next.accessToken),
    ]);
    expect(b?.sid).toBe(a?.sid);
    expect(events.published).toHaveLength(before);
  });

  it('treats a rotated token presented again as a reuse: 401, auth.failed refresh_rejected, family signed out', async () => {
    const { passwords, ctx, pair, events, sessions, tokens, audience } = await signedUp();
    const next = (await passwords.refresh(ctx, { refreshToken: pair.refreshToken }, CLIENT)) as TokenPair;
    await expect(passwords.refresh(ctx, { refreshToken: pair.refreshToken }, CLIENT)).rejects.toMatchObject({
      code: AuthErrorCode.IdentityNotFound,
      status: 401,
    });
    expect(events.kinds().at(-1)).toBe('auth.failed:refresh_rejected');
    const claims = (await tokens.verify(audience, next.accessToken))!;
    await expect(sessions.isLive(ctx, claims)).resolves.toBe(false);
    await expect(passwords.refresh(ctx, { refreshToken: next.refreshToken }, CLIENT)).rejects.toMatchObject({
      status: 401,
    });
  });

  it('signs out with revoke: true (user.signed_out), after which the token no longer refreshes', async () => {
    const { passwords, ctx, pair, events } = await signedUp();
    await expect(
      passwords.refresh(ctx, { refreshToken: pair.refreshToken, revoke: true }, CLIENT),
    ).resolves.toEqual({
      status: 'ok',
      message: 'Signed out.',
    });
    expect(events.kinds().at(-1)).toBe('user.signed_out');
    await expect(passwords.refresh(ctx, { refreshToken: pair.refreshToken }, CLIENT)).rejects.toMatchObject({
      status: 401,
    });
  });
});
