import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import type { ProjectContext } from '../../projects/project-context.js';
import { ProjectResolver, type HostKind } from '../../projects/project-resolver.js';
import { CLIENT, userAuthTestbed } from '../testing/user-auth-testbed.js';
import type { IdpClient } from './idp-client.resolver.js';
import { IdpSignInService } from './idp-sign-in.service.js';
import { IdpStateStore } from './idp-state.store.js';
import { OidcClients, type AuthorizationChecks, type IdpIdentity } from './oidc-clients.js';

// Identity-provider sign-in over in-memory repositories and a provider that answers with the
// identity a test sets: start, the browser hand-off, the callback, and what it does to accounts.

const ISSUER = 'https://idp.example.test';

/** Ada's provider account, with `overrides`. */
function identityOf(overrides: Partial<IdpIdentity>): IdpIdentity {
  return {
    issuer: ISSUER,
    subject: 'subject-1',
    email: 'ada@example.com',
    emailVerified: true,
    name: 'Ada',
    picture: undefined,
    ...overrides,
  };
}

/** A provider whose code exchange answers `identity`. */
class FakeProvider extends OidcClients {
  identity: IdpIdentity | Error = new Error('no identity set');

  override async authorizationUrl(
    _client: IdpClient,
    _redirectUri: string,
    state: string,
  ): Promise<{ url: string; checks: AuthorizationChecks }> {
    return {
      url: `${ISSUER}/authorize?state=${state}`,
      checks: { codeVerifier: 'verifier', nonce: 'nonce' },
    };
  }

  /** The provider's discovery, as the consent page's offer waits for it. */
  discovery: Promise<string> = Promise.resolve(ISSUER);

  override authorizationOrigin(): Promise<string> {
    return this.discovery;
  }

  override async exchange(): Promise<IdpIdentity> {
    if (this.identity instanceof Error) throw this.identity;
    return this.identity;
  }
}

/** Resolves the one project of the test by its id host. */
class OneProject extends ProjectResolver {
  constructor(
    private readonly ctx: ProjectContext,
    config: ConstructorParameters<typeof ProjectResolver>[1],
  ) {
    super(undefined as never, config, undefined as never);
  }

  override async resolve(host: string | undefined): Promise<HostKind> {
    return host === this.ctx.hosts[0]
      ? { kind: 'project', context: this.ctx }
      : { kind: 'unknown', host: host ?? '' };
  }
}

function setup(auth?: Partial<ProjectContext['auth']>) {
  const bed = userAuthTestbed();
  const ctx = bed.project(auth);
  const provider = new FakeProvider();
  const client: IdpClient = { mode: 'platform', issuerUrl: ISSUER, clientId: 'id', clientSecret: 'secret' };
  const idp = new IdpSignInService(
    { resolve: () => ({ ok: true, client }) },
    provider,
    new IdpStateStore(bed.ephemeral, bed.secrets),
    new OneProject(ctx, bed.config),
    bed.stores,
    bed.sessions,
    bed.limits,
    bed.events,
    bed.claims,
    bed.config,
  );
  const app = `${ctx.publicUrl}/signed-in`;

  /** The whole round trip in one browser; the URL the browser ends on. */
  async function signIn(identity: Partial<IdpIdentity> | Error, browser?: { key?: string }): Promise<URL> {
    provider.identity = identity instanceof Error ? identity : identityOf(identity);
    const hop = new URL(await idp.start(ctx, { redirect_uri: app }));
    const handed = await idp.hop({ hop: hop.searchParams.get('hop') });
    const state = new URL(handed.location).searchParams.get('state')!;
    const query = { state, code: 'provider-code' };
    const key = browser && 'key' in browser ? browser.key : handed.browserKey;
    return new URL(await idp.callback(query, new URLSearchParams(query).toString(), CLIENT, key));
  }
  /** The consent page's round trip in one browser (its CSRF cookie `csrf`); the URL it ends on. */
  async function signInForConsent(identity: Partial<IdpIdentity>, csrf = 'csrf-cookie'): Promise<URL> {
    provider.identity = identityOf(identity);
    const hop = new URL(await idp.startForConsent(ctx, `http://${ctx.hosts[0]}`, csrf));
    const handed = await idp.hop({ hop: hop.searchParams.get('hop') });
    const state = new URL(handed.location).searchParams.get('state')!;
    const query = { state, code: 'provider-code' };
    return new URL(
      await idp.callback(query, new URLSearchParams(query).toString(), CLIENT, handed.browserKey),
    );
  }
  return { ...bed, ctx, idp, provider, app, signIn, signInForConsent, tables: bed.stores.tables(ctx) };
}

describe('IdpSignInService for the MCP consent page', () => {
  it('offers the provider with the origins its sign-in passes once discovery answers', async () => {
    const { idp, ctx, config } = setup();
    expect(await idp.consentOption(ctx)).toEqual({
      name: new URL(ISSUER).host,
      origins: [new URL(config.PUBLIC_URL).origin, ISSUER],
      discovered: true,
    });
  });

  it('does not hold the page for a discovery that has not answered: the button, without the provider origin', async () => {
    const { idp, ctx, config, provider } = setup();
    provider.discovery = new Promise<string>(() => undefined);
    expect(await idp.consentOption(ctx, 0)).toEqual({
      name: new URL(ISSUER).host,
      origins: [new URL(config.PUBLIC_URL).origin],
      discovered: false,
    });
  });

  it('offers no provider whose discovery failed', async () => {
    const { idp, ctx, provider } = setup();
    provider.discovery = Promise.reject(new Error('discovery failed'));
    expect(await idp.consentOption(ctx)).toBeUndefined();
  });

  it('hands the user back to the consent page with a code, mints no tokens and starts no session', async () => {
    const { signInForConsent, ctx, idp, tables, events } = setup();
    const back = await signInForConsent({});
    expect(`${back.origin}${back.pathname}`).toBe(`http://${ctx.hosts[0]}/oauth/authorize/idp`);
    expect([...back.searchParams.keys()]).toEqual(['code']);
    expect(tables.sessions.size).toBe(0);
    expect(events.published.map((event) => event.kind)).toEqual(['user.created', 'user.signed_in']);
    expect(JSON.stringify(events.published)).not.toContain(back.searchParams.get('code'));

    const user = tables.userByEmail('ada@example.com')!;
    const code = back.searchParams.get('code');
    expect(await idp.redeemForConsent(ctx, code, 'csrf-cookie')).toEqual({ id: user.id, email: user.email });
    // Single use.
    expect(await idp.redeemForConsent(ctx, code, 'csrf-cookie')).toBeUndefined();
  });

  it('refuses the code in another browser or another project, and spends it', async () => {
    const { signInForConsent, ctx, idp } = setup();
    const other = await signInForConsent({});
    expect(await idp.redeemForConsent(ctx, other.searchParams.get('code'), 'another-cookie')).toBeUndefined();
    expect(await idp.redeemForConsent(ctx, other.searchParams.get('code'), 'csrf-cookie')).toBeUndefined();

    const elsewhere = await signInForConsent({});
    const project = { ...ctx, project: { ...ctx.project, id: 'another-project' } };
    expect(
      await idp.redeemForConsent(project, elsewhere.searchParams.get('code'), 'csrf-cookie'),
    ).toBeUndefined();
    expect(
      await idp.redeemForConsent(ctx, elsewhere.searchParams.get('code'), 'csrf-cookie'),
    ).toBeUndefined();
  });

  it('refuses the code when the account was deleted before it was redeemed', async () => {
    const { signInForConsent, ctx, idp, tables } = setup();
    const back = await signInForConsent({});
    tables.users.delete(tables.userByEmail('ada@example.com')!.id);
    expect(await idp.redeemForConsent(ctx, back.searchParams.get('code'), 'csrf-cookie')).toBeUndefined();
  });

  it('respects allowSignups: a new address goes back with error=signup_disabled and no code', async () => {
    const { signInForConsent, tables, events } = setup({ allowSignups: false });
    const back = await signInForConsent({});
    expect(back.searchParams.get('error')).toBe('signup_disabled');
    expect(back.searchParams.get('code')).toBeNull();
    expect(tables.userByEmail('ada@example.com')).toBeUndefined();
    expect(events.published.map((event) => [event.kind, event.reason])).toEqual([
      ['auth.failed', 'signup_disabled'],
    ]);
  });
});

describe('IdpSignInService', () => {
  it('signs a new provider account up with a proven address and returns to the app with a token pair', async () => {
    const { signIn, app, tables, events, tokens, ctx } = setup();
    const back = await signIn({});

    expect(`${back.origin}${back.pathname}`).toBe(app);
    const user = tables.userByEmail('ada@example.com')!;
    expect(user).toMatchObject({ name: 'Ada', emailVerified: true, passwordHash: null });
    expect([...tables.identities.values()]).toMatchObject([
      { userId: user.id, issuer: ISSUER, subject: 'subject-1' },
    ]);
    const claims = await tokens.verify(
      { projectId: ctx.project.id, issuer: ctx.publicUrl },
      back.searchParams.get('accessToken')!,
    );
    expect(claims).toMatchObject({ sub: user.id, email_verified: true });
    expect(back.searchParams.get('refreshToken')).toEqual(expect.any(String));
    expect(events.published.map((event) => [event.kind, event.provider])).toEqual([
      ['user.created', 'idp'],
      ['user.signed_in', 'idp'],
    ]);
  });

  it('finds a returning provider account by issuer and subject, and updates a changed name (user.updated)', async () => {
    const { signIn, tables, events } = setup();
    await signIn({});
    events.published.length = 0;
    await signIn({ email: 'ada.new@example.com', name: 'Ada L.' });

    expect(tables.users.size).toBe(1);
    expect(tables.userByEmail('ada@example.com')).toMatchObject({ name: 'Ada L.' });
    expect([...tables.identities.values()][0]!.email).toBe('ada.new@example.com');
    expect(events.kinds()).toEqual(['user.updated', 'user.signed_in']);
  });

  it('does not link an existing account on an address the provider did not verify', async () => {
    const { signIn, passwords, ctx, tables, events } = setup();
    await passwords.register(
      ctx,
      { email: 'ada@example.com', password: 'correct horse battery staple' },
      CLIENT,
    );
    events.published.length = 0;

    const back = await signIn({ emailVerified: false });
    expect(back.searchParams.get('error')).toBe('identity_not_linked');
    expect(back.searchParams.has('accessToken')).toBe(false);
    expect(tables.identities.size).toBe(0);
    expect(events.kinds()).toEqual(['auth.failed:identity_already_exists']);
  });

  it('claims an unproven account for the provider account that verified its address', async () => {
    const { signIn, passwords, ctx, tables, events, state } = setup();
    await passwords.register(
      ctx,
      { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Not Ada' },
      CLIENT,
    );
    const user = tables.userByEmail('ada@example.com')!;
    events.published.length = 0;

    const back = await signIn({});
    expect(back.searchParams.get('accessToken')).toEqual(expect.any(String));
    expect(tables.users.get(user.id)).toMatchObject({ passwordHash: null, emailVerified: true, name: 'Ada' });
    expect(tables.sessionsOf(user.id).filter((row) => !row.revokedAt)).toHaveLength(1);
    expect(state.forgotten).toContain(user.id);
    expect(events.published).toMatchObject([
      { kind: 'user.updated', claimed: true, user: { id: user.id } },
      { kind: 'user.signed_in', user: { id: user.id } },
    ]);
  });

  it('refuses a new account when sign-ups are off', async () => {
    const { signIn, tables, events } = setup({ allowSignups: false });
    const back = await signIn({});
    expect(back.searchParams.get('error')).toBe('signup_disabled');
    expect(tables.users.size).toBe(0);
    expect(events.kinds()).toEqual(['auth.failed:signup_disabled']);
  });

  it('answers a failed code exchange with idp_oauth_failed and no tokens', async () => {
    const { signIn, events, tables } = setup();
    const back = await signIn(new Error('the provider said no'));
    expect(back.searchParams.get('error')).toBe('idp_oauth_failed');
    expect(back.searchParams.has('accessToken')).toBe(false);
    expect(tables.users.size).toBe(0);
    expect(events.kinds()).toEqual(['auth.failed:idp_oauth_failed']);
  });

  it('refuses a callback in another browser than the one the sign-in was bound to', async () => {
    const { signIn, tables } = setup();
    const back = await signIn({}, { key: undefined });
    expect(back.searchParams.get('error')).toBe('invalid_state');
    expect(tables.users.size).toBe(0);
  });

  it('uses a state once', async () => {
    const { idp, ctx, app, provider } = setup();
    provider.identity = {
      issuer: ISSUER,
      subject: 's',
      email: 'ada@example.com',
      emailVerified: true,
      name: undefined,
      picture: undefined,
    };
    const hop = new URL(await idp.start(ctx, { redirect_uri: app }));
    const handed = await idp.hop({ hop: hop.searchParams.get('hop') });
    const state = new URL(handed.location).searchParams.get('state')!;
    await idp.callback({ state }, `state=${state}`, CLIENT, handed.browserKey);
    await expect(idp.callback({ state }, `state=${state}`, CLIENT, handed.browserKey)).rejects.toMatchObject({
      code: AuthErrorCode.InvalidRequest,
      status: 400,
    });
  });
});
