import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { createRedisConnection } from '../../libs/queue/src/index.js';
import { HostClient, type HostResponse } from '../support/host-client.js';
import { startMockProvider, type MockProvider } from '../support/oidc-mock.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  tenantQuery,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import {
  codeFrom,
  GENEROUS_LIMITS,
  HookEvents,
  infra,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Identity-provider sign-in against a real project host and a real OpenID provider, driven through
// the redirects the way a browser follows them: start route, provider, shared callback, application.

const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';
const APP = 'http://127.0.0.1:5173/after-sign-in';

let provider: MockProvider;
let mail: MailRig;
let host: Host;
let bare: Host;
let events: HookEvents;
let platform: TestProject;
let custom: TestProject;
let noSignups: TestProject;
let off: TestProject;
const projects: TestProject[] = [];

async function project(
  on: Host,
  auth: {
    allowSignups?: boolean;
    idpMode: 'platform' | 'custom' | 'off';
    idpClientId?: string;
    idpClientSecret?: string;
  },
): Promise<TestProject> {
  const created = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: on.port,
    smtpPort: mail.smtp.port,
  });
  projects.push(created);
  const res = await new HostClient(on.port, `localhost:${on.port}`, ADMIN_TOKEN).put(
    `/v1/projects/${created.id}/auth`,
    { enabled: true, emailPassword: true, allowSignups: auth.allowSignups ?? true, ...auth },
  );
  expect(res.status).toBe(200);
  return created;
}

function hostOf(target: TestProject, on: Host = host): HostClient {
  return new HostClient(on.port, target.host);
}

function location(res: HostResponse | Response): URL {
  const value = res instanceof Response ? res.headers.get('location') : res.headers.location;
  if (typeof value !== 'string') throw new Error(`no Location (status ${res.status})`);
  return new URL(value);
}

interface Started {
  /** The provider's authorization URL the browser was sent on to. */
  authorize: URL;
  /** The binding cookie the callback's host set (`name=value`), as the browser keeps it. */
  cookie: string;
}

/** Start route → hand-off on the callback's host (sets the binding cookie) → the provider's URL. */
async function startSignIn(target: TestProject, redirectUri = APP, cookie?: string): Promise<Started> {
  const start = await hostOf(target).get(
    `/api/user/auth/idp?redirect_uri=${encodeURIComponent(redirectUri)}`,
  );
  expect(start.status).toBe(302);
  const hop = location(start);
  expect(hop.pathname).toBe('/internal/auth/idp/start');
  const handed = await new HostClient(host.port, hop.host).get(hop.pathname + hop.search, {
    headers: cookie ? { cookie } : {},
  });
  expect(handed.status).toBe(302);
  const setCookie = handed.headers['set-cookie'];
  const line = (Array.isArray(setCookie) ? setCookie[0] : setCookie) ?? '';
  return { authorize: location(handed), cookie: line.split(';')[0]! };
}

/** The callback as the browser that holds `cookie` opens it. */
function openCallback(callback: URL, cookie: string | undefined): Promise<HostResponse> {
  return new HostClient(host.port, callback.host).get(callback.pathname + callback.search, {
    headers: cookie ? { cookie } : {},
  });
}

interface Flow {
  authorize: URL;
  callback: URL;
  callbackResponse: HostResponse;
  /** Where the browser ends up (redirect_uri with tokens or an error). */
  final: URL;
}

/** Start → provider → callback, as a browser follows the redirects. */
async function signIn(
  target: TestProject,
  redirectUri = APP,
  tamper?: (callback: URL) => void,
): Promise<Flow> {
  const { authorize, cookie } = await startSignIn(target, redirectUri);
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = location(atProvider);
  tamper?.(callback);
  const callbackResponse = await openCallback(callback, cookie);
  expect(callbackResponse.status).toBe(302);
  return { authorize, callback, callbackResponse, final: location(callbackResponse) };
}

function person(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: `sub-${randomBytes(6).toString('hex')}`,
    email: uniqueEmail('idp'),
    email_verified: true,
    name: 'Ada Lovelace',
    picture: `https://pictures.example.com/${randomBytes(4).toString('hex')}.png`,
    ...overrides,
  };
}

async function kindsAfter(
  projectId: string,
  from: number,
): Promise<{ kind: string; reason?: string; provider?: string; email?: string }[]> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return (await events.of(projectId)).slice(from).map((e) => ({
    kind: e.kind,
    ...(e.reason ? { reason: e.reason } : {}),
    provider: e.provider,
    ...(e.user ? { email: e.user.email } : {}),
  }));
}

beforeAll(async () => {
  provider = await startMockProvider();
  mail = await startMailRig();
  const idpEnv = {
    ...GENEROUS_LIMITS,
    IDP_ISSUER_URL: provider.issuer,
    IDP_CLIENT_ID: 'platform-client',
    IDP_CLIENT_SECRET: 'platform-secret',
  };
  [host, bare] = await Promise.all([startProjectHost(idpEnv), startProjectHost({ ...GENEROUS_LIMITS })]);
  events = new HookEvents();
  platform = await project(host, { idpMode: 'platform' });
  custom = await project(host, {
    idpMode: 'custom',
    idpClientId: 'custom-client',
    idpClientSecret: 'custom-secret',
  });
  noSignups = await project(host, { idpMode: 'platform', allowSignups: false });
  off = await project(host, { idpMode: 'off' });
});

afterAll(async () => {
  await Promise.allSettled([host?.app.stop(), bare?.app.stop()]);
  await events?.close();
  await mail?.close();
  await provider?.stop();
  for (const created of projects) await dropTestProject(infra.DATABASE_URL, created).catch(() => undefined);
});

beforeEach(() => {
  provider.claims = {};
  provider.authorizeError = undefined;
});

describe('start route', () => {
  it('sends the browser to the provider with PKCE S256, a nonce, a state and the shared callback', async () => {
    provider.claims = person();
    const { authorize } = await signIn(platform);
    expect(authorize.origin).toBe(new URL(provider.issuer).origin);
    const query = authorize.searchParams;
    expect(query.get('client_id')).toBe('platform-client');
    expect(query.get('redirect_uri')).toBe(`http://localhost:${host.port}/internal/auth/idp/callback`);
    expect(query.get('response_type')).toBe('code');
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('nonce')).toBeTruthy();
    expect(query.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('scope')).toContain('openid');
  });

  it('keeps the state server-side for at most ten minutes, sealed', async () => {
    const { authorize } = await startSignIn(platform);
    const state = authorize.searchParams.get('state')!;
    const key = `${infra.REDIS_PREFIX}:ua:idp-state:${createHash('sha256').update(state).digest('hex')}`;
    const redis = createRedisConnection(infra.REDIS_URL);
    try {
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(600);
      const stored = await redis.get(key);
      expect(stored).not.toContain(APP);
    } finally {
      redis.disconnect();
    }
  });

  it('answers 503 idp_oauth_disabled when the project turned identity-provider sign-in off', async () => {
    const res = await hostOf(off).get(`/api/user/auth/idp?redirect_uri=${encodeURIComponent(APP)}`);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'idp_oauth_disabled' });
  });

  it('answers 503 idp_oauth_unconfigured in Platform mode when the platform keys are missing', async () => {
    const unkeyed = await project(bare, { idpMode: 'platform' });
    const res = await hostOf(unkeyed, bare).get(`/api/user/auth/idp?redirect_uri=${encodeURIComponent(APP)}`);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'idp_oauth_unconfigured' });
  });

  it.each([
    'https://evil.example.com/cb',
    'https://127.0.0.1.evil.com/cb',
    'javascript://%0aalert(1)',
    '//evil.com',
    '',
  ])('refuses redirect_uri %p with 400 invalid_redirect_uri and no provider round trip', async (uri) => {
    const asked = provider.authorizeRequests.length;
    const res = await hostOf(platform).get(`/api/user/auth/idp?redirect_uri=${encodeURIComponent(uri)}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'invalid_redirect_uri' });
    expect(provider.authorizeRequests.length).toBe(asked);
  });
});

describe('sign-in', () => {
  it('signs up a new user: tokens on redirect_uri, the picture on the profile, created then signed_in', async () => {
    const claims = person();
    provider.claims = claims;
    const before = (await events.of(platform.id)).length;
    const { final, callbackResponse } = await signIn(platform);
    expect(final.origin + final.pathname).toBe(APP);
    expect(callbackResponse.headers['cache-control']).toBe('no-store');
    const accessToken = final.searchParams.get('accessToken')!;
    expect(final.searchParams.get('refreshToken')).toBeTruthy();
    const me = await hostOf(platform).get('/api/user/me', { token: accessToken });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email: claims.email, name: 'Ada Lovelace', picture: claims.picture });
    expect(await kindsAfter(platform.id, before)).toEqual([
      { kind: 'user.created', provider: 'idp', email: claims.email },
      { kind: 'user.signed_in', provider: 'idp', email: claims.email },
    ]);
    const identities = await tenantQuery(platform.id, 'SELECT issuer, subject FROM identities');
    expect(identities).toContainEqual({ issuer: provider.issuer, subject: claims.sub });
  });

  it('signs a returning user in, refreshes the picture and fires user.updated', async () => {
    const claims = person();
    provider.claims = claims;
    const first = await signIn(platform);
    const firstMe = await hostOf(platform).get('/api/user/me', {
      token: first.final.searchParams.get('accessToken')!,
    });
    const before = (await events.of(platform.id)).length;

    provider.claims = { ...claims, picture: 'https://pictures.example.com/new.png' };
    const second = await signIn(platform);
    const me = await hostOf(platform).get('/api/user/me', {
      token: second.final.searchParams.get('accessToken')!,
    });
    expect(me.json).toMatchObject({
      id: (firstMe.json as { id: string }).id,
      picture: 'https://pictures.example.com/new.png',
    });
    expect((await kindsAfter(platform.id, before)).map((e) => e.kind)).toEqual([
      'user.updated',
      'user.signed_in',
    ]);

    const quiet = (await events.of(platform.id)).length;
    await signIn(platform);
    expect((await kindsAfter(platform.id, quiet)).map((e) => e.kind)).toEqual(['user.signed_in']);
  });

  it('redirects with error=signup_disabled for a new email when signups are off', async () => {
    provider.claims = person();
    const before = (await events.of(noSignups.id)).length;
    const { final } = await signIn(noSignups);
    expect(final.searchParams.get('error')).toBe('signup_disabled');
    expect(final.searchParams.get('accessToken')).toBeNull();
    expect(await kindsAfter(noSignups.id, before)).toEqual([
      { kind: 'auth.failed', reason: 'signup_disabled', provider: 'idp' },
    ]);
  });

  it('links to an existing account only when the provider says the email is verified', async () => {
    const email = uniqueEmail('linked');
    const registered = await platform.client.register(email, strongPassword());
    expect(registered.status).toBe(201);
    const userId = (
      await tenantQuery<{ id: string }>(platform.id, 'SELECT id FROM users WHERE email = $1', [email])
    )[0]!.id;

    provider.claims = person({ email, email_verified: false });
    const refused = await signIn(platform);
    expect(refused.final.searchParams.get('error')).toBe('identity_not_linked');
    expect(refused.final.searchParams.get('accessToken')).toBeNull();

    const before = (await events.of(platform.id)).length;
    provider.claims = person({ email, email_verified: true });
    const linked = await signIn(platform);
    const me = await hostOf(platform).get('/api/user/me', {
      token: linked.final.searchParams.get('accessToken')!,
    });
    expect(me.json).toMatchObject({ id: userId, email });
    expect((await kindsAfter(platform.id, before)).map((e) => e.kind)).toEqual([
      'user.updated',
      'user.signed_in',
    ]);
  });

  it('claims an account pre-registered with a password before linking a verified provider email', async () => {
    // The attacker registers the victim's address first and keeps a session.
    const email = uniqueEmail('prehijack');
    const password = strongPassword();
    const registered = await platform.client.register(email, password, 'Attacker');
    expect(registered.status).toBe(201);
    const attacker = registered.body as { accessToken: string; refreshToken: string };
    const userId = (
      await tenantQuery<{ id: string }>(platform.id, 'SELECT id FROM users WHERE email = $1', [email])
    )[0]!.id;
    const before = (await events.of(platform.id)).length;

    // The victim signs in with a provider that verified the address.
    provider.claims = person({ email, email_verified: true, name: 'Victim' });
    const linked = await signIn(platform);
    const accessToken = linked.final.searchParams.get('accessToken')!;
    const me = await hostOf(platform).get('/api/user/me', { token: accessToken });
    expect(me.json).toMatchObject({ id: userId, email, name: 'Victim' });
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
      email_verified: unknown;
    };
    expect(payload.email_verified).toBe(true);

    // The attacker is out: password, refresh token and access token.
    expect((await platform.client.login(email, password)).status).toBe(401);
    expect((await platform.client.refresh(attacker.refreshToken)).status).toBe(401);
    expect((await hostOf(platform).get('/api/user/me', { token: attacker.accessToken })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const published = (await events.of(platform.id)).slice(before).filter((e) => e.kind !== 'auth.failed');
    expect(published.map((e) => [e.kind, e.claimed ?? false])).toEqual([
      ['user.updated', true],
      ['user.signed_in', false],
    ]);
  });

  it('does not claim an account whose address was already proven, and links to it', async () => {
    const email = uniqueEmail('proven');
    const password = strongPassword();
    expect((await platform.client.register(email, password)).status).toBe(201);
    await tenantQuery(platform.id, 'UPDATE users SET email_verified = true WHERE email = $1', [email]);
    const before = (await events.of(platform.id)).length;
    provider.claims = person({ email, email_verified: true });
    const linked = await signIn(platform);
    expect(linked.final.searchParams.get('accessToken')).toBeTruthy();
    expect((await platform.client.login(email, password)).status).toBe(200);
    const published = await kindsAfter(platform.id, before);
    expect(published.map((e) => e.kind)).toEqual(['user.updated', 'user.signed_in', 'user.signed_in']);
    const claimed = (await events.of(platform.id)).slice(before).some((e) => e.claimed);
    expect(claimed).toBe(false);
  });

  it('signs up a user whose provider did not verify the address as unproven (email_verified false)', async () => {
    const claims = person({ email_verified: false });
    provider.claims = claims;
    const verifiedOf = (final: URL) =>
      (
        JSON.parse(
          Buffer.from(final.searchParams.get('accessToken')!.split('.')[1]!, 'base64url').toString(),
        ) as { email_verified: unknown }
      ).email_verified;
    expect(verifiedOf((await signIn(platform)).final)).toBe(false);
    // Once the same provider account vouches for the address, it is proven.
    provider.claims = { ...claims, email_verified: true };
    expect(verifiedOf((await signIn(platform)).final)).toBe(true);
  });

  it('hands an account whose address was never proven to whoever confirms an email change by the mailed code', async () => {
    // Someone signs up with a provider that did not verify the address, then moves the account to
    // the victim's address: the code goes to the victim, who confirms it.
    provider.claims = person({ email_verified: false });
    const { final } = await signIn(platform);
    const accessToken = final.searchParams.get('accessToken')!;
    const refreshToken = final.searchParams.get('refreshToken')!;
    const victim = uniqueEmail('victim');
    const pending = await hostOf(platform).put('/api/user/me', { email: victim }, { token: accessToken });
    expect(pending.status).toBe(202);
    const code = codeFrom(await mail.waitFor(victim, /Confirm your new email/));
    const before = (await events.of(platform.id)).length;
    const confirmed = await hostOf(platform).post('/api/user/auth/email-change/callback', { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ email: victim });
    const userId = (confirmed.json as { id: string }).id;
    // Whoever set the account up is out: sessions gone, the provider link dropped.
    expect((await hostOf(platform).get('/api/user/me', { token: accessToken })).status).toBe(401);
    expect((await platform.client.refresh(refreshToken)).status).toBe(401);
    expect(await tenantQuery(platform.id, 'SELECT 1 FROM identities WHERE user_id = $1', [userId])).toEqual(
      [],
    );
    const [row] = await tenantQuery<{ email_verified: boolean }>(
      platform.id,
      'SELECT email_verified FROM users WHERE id = $1',
      [userId],
    );
    expect(row).toEqual({ email_verified: true });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const published = (await events.of(platform.id))
      .slice(before)
      .filter((e) => e.user?.id === userId && e.kind !== 'auth.failed');
    expect(published.map((e) => [e.kind, e.claimed ?? false])).toEqual([['user.updated', true]]);
  });

  it('keeps Platform and Custom projects apart: own client id, own users', async () => {
    const claims = person();
    provider.claims = claims;
    const inCustom = await signIn(custom);
    expect(inCustom.authorize.searchParams.get('client_id')).toBe('custom-client');
    expect(inCustom.final.searchParams.get('accessToken')).toBeTruthy();
    const inPlatform = await signIn(platform);
    expect(inPlatform.authorize.searchParams.get('client_id')).toBe('platform-client');
    // The custom project's access token is not valid on the platform project.
    const cross = await hostOf(platform).get('/api/user/me', {
      token: inCustom.final.searchParams.get('accessToken')!,
    });
    expect(cross.status).toBe(401);
    const [a] = await tenantQuery(custom.id, 'SELECT email FROM users WHERE email = $1', [claims.email]);
    const [b] = await tenantQuery(platform.id, 'SELECT email FROM users WHERE email = $1', [claims.email]);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
  });
});

describe('callback failures', () => {
  async function expectFailed(target: TestProject, flow: () => Promise<Flow>): Promise<void> {
    const before = (await events.of(target.id)).length;
    const { final } = await flow();
    expect(final.origin + final.pathname).toBe(APP);
    expect(final.searchParams.get('error')).toBe('idp_oauth_failed');
    expect(final.searchParams.get('accessToken')).toBeNull();
    expect(await kindsAfter(target.id, before)).toEqual([
      { kind: 'auth.failed', reason: 'idp_oauth_failed', provider: 'idp' },
    ]);
  }

  it('refuses an id_token with a wrong nonce', async () => {
    provider.claims = person({ nonce: 'not-the-nonce' });
    await expectFailed(platform, () => signIn(platform));
  });

  it('refuses an id_token for another audience', async () => {
    provider.claims = person({ aud: 'someone-else' });
    await expectFailed(platform, () => signIn(platform));
  });

  it('refuses an expired id_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    provider.claims = person({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
    await expectFailed(platform, () => signIn(platform));
  });

  it('refuses an id_token from another issuer', async () => {
    provider.claims = person({ iss: 'https://issuer.example.com' });
    await expectFailed(platform, () => signIn(platform));
  });

  it('refuses an invalid code', async () => {
    provider.claims = person();
    await expectFailed(platform, () =>
      signIn(platform, APP, (cb) => cb.searchParams.set('code', 'forged-code')),
    );
  });

  it('redirects with an error when the provider answers error=access_denied', async () => {
    provider.authorizeError = 'access_denied';
    await expectFailed(platform, () => signIn(platform));
  });

  it('answers 400 to a tampered state and to a replayed one', async () => {
    provider.claims = person();
    const { authorize, cookie } = await startSignIn(platform);
    const callback = location(await fetch(authorize, { redirect: 'manual' }));
    const cp = new HostClient(host.port, callback.host);

    const tampered = new URL(callback);
    // Change a character in the middle (the last base64url one may carry only padding bits).
    const state = callback.searchParams.get('state')!;
    const at = Math.floor(state.length / 2);
    const swapped = state[at] === 'A' ? 'B' : 'A';
    tampered.searchParams.set('state', `${state.slice(0, at)}${swapped}${state.slice(at + 1)}`);
    const bad = await cp.get(tampered.pathname + tampered.search, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid-request' });

    const good = await cp.get(callback.pathname + callback.search, { headers: { cookie } });
    expect(good.status).toBe(302);
    expect(location(good).searchParams.get('accessToken')).toBeTruthy();
    const replay = await cp.get(callback.pathname + callback.search, { headers: { cookie } });
    expect(replay.status).toBe(400);
  });

  it('binds the state to the browser that started: a callback opened in another browser gets error=invalid_state and no tokens', async () => {
    // The attacker starts a sign-in in their own browser and signs in at the provider as themselves…
    const attackerClaims = person();
    provider.claims = attackerClaims;
    const attacker = await startSignIn(platform);
    const callback = location(await fetch(attacker.authorize, { redirect: 'manual' }));
    expect(attacker.cookie).toMatch(/^__Host-ua_idp_[0-9a-f]{16}=[A-Za-z0-9_-]{43}$/);
    const before = (await events.of(platform.id)).length;

    // …then sends the callback URL to the victim, whose browser never started that sign-in.
    const res = await openCallback(callback, undefined);
    expect(res.status).toBe(302);
    const final = location(res);
    expect(final.origin + final.pathname).toBe(APP);
    expect(final.searchParams.get('error')).toBe('invalid_state');
    expect(final.searchParams.get('accessToken')).toBeNull();
    expect(final.searchParams.get('refreshToken')).toBeNull();
    // The state is spent: not even the attacker's browser can use it now.
    expect((await openCallback(callback, attacker.cookie)).status).toBe(400);
    expect(await kindsAfter(platform.id, before)).toEqual([]);
    const [signedUp] = await tenantQuery(platform.id, 'SELECT id FROM users WHERE email = $1', [
      attackerClaims.email,
    ]);
    expect(signedUp).toBeUndefined();
  });

  it("refuses a callback carrying another browser's binding cookie with error=invalid_state", async () => {
    provider.claims = person();
    const attacker = await startSignIn(platform);
    const callback = location(await fetch(attacker.authorize, { redirect: 'manual' }));
    const victim = await startSignIn(platform);
    expect(victim.cookie).not.toBe(attacker.cookie);
    const res = await openCallback(callback, victim.cookie);
    expect(res.status).toBe(302);
    expect(location(res).searchParams.get('error')).toBe('invalid_state');
    expect(location(res).searchParams.get('accessToken')).toBeNull();
  });

  it('sets a __Host- binding cookie of its own per sign-in (Secure, HttpOnly, SameSite=Lax, Path=/), and uses a hand-off once', async () => {
    const start = await hostOf(platform).get(`/api/user/auth/idp?redirect_uri=${encodeURIComponent(APP)}`);
    const hop = location(start);
    expect(hop.origin).toBe(`http://localhost:${host.port}`);
    expect(hop.searchParams.get('state')).toBeNull();
    const cp = new HostClient(host.port, hop.host);
    const handed = await cp.get(hop.pathname + hop.search);
    expect(handed.status).toBe(302);
    expect(location(handed).origin).toBe(new URL(provider.issuer).origin);
    const setCookie = String(handed.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/^__Host-ua_idp_[0-9a-f]{16}=/);
    expect(setCookie).toMatch(/; Path=\/;/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).toMatch(/Max-Age=600/);
    // Another sign-in in the same browser gets a cookie and a key of its own, whatever it brings.
    const again = await startSignIn(platform, APP, setCookie.split(';')[0]);
    expect(again.cookie.split('=')[0]).not.toBe(setCookie.split('=')[0]);
    expect(again.cookie.split('=')[1]).not.toBe(setCookie.split(';')[0]!.split('=')[1]);
    const reused = await cp.get(hop.pathname + hop.search);
    expect(reused.status).toBe(400);
    expect(reused.json).toMatchObject({ code: 'invalid-request' });
  });

  it('answers the callback only on the PUBLIC_URL host', async () => {
    const res = await hostOf(platform).get('/internal/auth/idp/callback?state=x&code=y');
    expect(res.status).toBe(404);
  });
});
