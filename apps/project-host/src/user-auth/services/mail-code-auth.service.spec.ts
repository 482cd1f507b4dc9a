import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import { CLIENT, userAuthTestbed } from '../testing/user-auth-testbed.js';
import { MAGIC_LINK_CODE_TTL_MS } from '../user-auth.constants.js';

// Magic-link sign-in and password reset over in-memory repositories: the mailed code, its single
// use, what it proves and what it ends.

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase here';

async function withAccount(config: Parameters<typeof userAuthTestbed>[0] = {}) {
  const bed = userAuthTestbed(config);
  const ctx = bed.project();
  await bed.passwords.register(ctx, { email: 'ada@example.com', password: PASSWORD, name: 'Ada' }, CLIENT);
  const tables = bed.stores.tables(ctx);
  const user = tables.userByEmail('ada@example.com')!;
  bed.events.published.length = 0;
  bed.mailer.sent.length = 0;
  return { ...bed, ctx, tables, user };
}

describe('magic link', () => {
  it('mails a sign-in link to an account, and answers an unknown address the same without mailing', async () => {
    const { mailCodes, ctx, mailer, events, settle } = await withAccount();
    const known = await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    const unknown = await mailCodes.requestMagicLink(ctx, { email: 'nobody@example.com' }, CLIENT);
    await settle();

    expect(unknown).toEqual(known);
    expect(known.message).toBe('If an account exists for this address, a sign-in link has been sent to it.');
    expect(mailer.sent.map((mail) => [mail.kind, mail.to])).toEqual([['magic-link', 'ada@example.com']]);
    expect(mailer.sent[0]!.text).toContain(`${ctx.publicUrl}?type=magic&code=`);
    expect(events.kinds()).toEqual(['magic_link_requested']);
  });

  it('signs in once with the mailed code; the same code again is refused with auth.failed naming the user', async () => {
    const { mailCodes, ctx, mailer, events, settle, user } = await withAccount();
    await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    const code = mailer.codeSentTo('ada@example.com');

    const pair = await mailCodes.magicLinkCallback(ctx, { code }, CLIENT);
    expect(pair.refreshToken).toEqual(expect.any(String));
    await expect(mailCodes.magicLinkCallback(ctx, { code }, CLIENT)).rejects.toMatchObject({
      code: AuthErrorCode.NonceInvalid,
      status: 400,
    });
    expect(events.published.slice(-2)).toMatchObject([
      { kind: 'user.signed_in', provider: 'magic_link', user: { id: user.id } },
      { kind: 'auth.failed', reason: 'nonce_invalid', user: { id: user.id } },
    ]);
  });

  it('hands an account whose address was never proven to whoever proved it: password, sessions and links dropped', async () => {
    const { mailCodes, ctx, mailer, events, settle, user, tables, state } = await withAccount();
    await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    await mailCodes.magicLinkCallback(ctx, { code: mailer.codeSentTo('ada@example.com') }, CLIENT);

    expect(tables.users.get(user.id)).toMatchObject({ passwordHash: null, emailVerified: true });
    const [registered, signedIn] = tables.sessionsOf(user.id);
    expect(registered!.revokedAt).not.toBeNull();
    expect(signedIn!.revokedAt).toBeNull();
    expect(state.forgotten).toContain(user.id);
    expect(events.kinds().slice(-2)).toEqual(['user.updated', 'user.signed_in']);
    expect(events.published.at(-2)).toMatchObject({ claimed: true });
  });

  it('refuses a code once its lifetime has passed', async () => {
    const { mailCodes, ctx, mailer, settle, clock } = await withAccount();
    await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    clock.advance(MAGIC_LINK_CODE_TTL_MS + 1);
    await expect(
      mailCodes.magicLinkCallback(ctx, { code: mailer.codeSentTo('ada@example.com') }, CLIENT),
    ).rejects.toMatchObject({ code: AuthErrorCode.NonceInvalid });
  });

  it('keeps only the newest code of an address', async () => {
    const { mailCodes, ctx, mailer, settle, clock } = await withAccount({ AUTH_MAIL_COOLDOWN_SECONDS: '0' });
    await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    const older = mailer.codeSentTo('ada@example.com');
    clock.advance(60_000);
    await mailCodes.requestMagicLink(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    await expect(mailCodes.magicLinkCallback(ctx, { code: older }, CLIENT)).rejects.toMatchObject({
      code: AuthErrorCode.NonceInvalid,
    });
    await expect(
      mailCodes.magicLinkCallback(ctx, { code: mailer.codeSentTo('ada@example.com') }, CLIENT),
    ).resolves.toMatchObject({ accessToken: expect.any(String) });
  });
});

describe('password reset', () => {
  it('replaces the password with the mailed code and signs the user out everywhere', async () => {
    const { mailCodes, passwords, ctx, mailer, events, settle, user, tables } = await withAccount();
    await mailCodes.requestPasswordReset(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    expect(mailer.sent.map((mail) => mail.kind)).toEqual(['forgot-password']);

    await expect(
      mailCodes.resetPassword(ctx, { code: mailer.codeSentTo('ada@example.com'), password: NEW_PASSWORD }),
    ).resolves.toEqual({
      status: 'ok',
      message: 'Your password has been updated. Sign in with the new password.',
    });
    expect(tables.sessionsOf(user.id).every((row) => row.revokedAt)).toBe(true);
    expect(tables.users.get(user.id)!.emailVerified).toBe(true);
    expect(events.kinds()).toEqual(['password_reset_requested', 'user.password_updated']);
    await expect(
      passwords.login(ctx, { email: 'ada@example.com', password: PASSWORD }, CLIENT),
    ).rejects.toMatchObject({
      code: AuthErrorCode.InvalidCredentials,
    });
    await expect(
      passwords.login(ctx, { email: 'ada@example.com', password: NEW_PASSWORD }, CLIENT),
    ).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('does not spend the code on a password the policy refuses', async () => {
    const { mailCodes, ctx, mailer, settle } = await withAccount();
    await mailCodes.requestPasswordReset(ctx, { email: 'ada@example.com' }, CLIENT);
    await settle();
    const code = mailer.codeSentTo('ada@example.com');

    await expect(mailCodes.resetPassword(ctx, { code, password: 'ada@example.com' })).rejects.toMatchObject({
      code: AuthErrorCode.InvalidRequest,
      message: expect.stringMatching(/^password: /),
    });
    await expect(mailCodes.resetPassword(ctx, { code, password: NEW_PASSWORD })).resolves.toMatchObject({
      status: 'ok',
    });
  });
});
