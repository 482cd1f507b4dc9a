import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { freePort } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import { clickThrough, startStrictProvider, type StrictProvider } from '../support/oidc-provider.js';
import { createTestProject, dropTestProject, uniqueEmail, type TestProject } from '../support/user-client.js';
import {
  GENEROUS_LIMITS,
  HookEvents,
  infra,
  startMailRig,
  startProjectHost,
  type Host,
  type MailRig,
} from './user-auth-harness.js';

// Identity-provider sign-in against a strict, certified provider (oidc-provider): PKCE required,
// login and consent pages, RFC 9207 `iss` on the callback, profile claims served at userinfo.

const APP = 'http://localhost:5173/done';

let provider: StrictProvider;
let mail: MailRig;
let host: Host;
let events: HookEvents;
let project: TestProject;
let callbackPrefix: string;

beforeAll(async () => {
  const providerPort = await freePort();
  mail = await startMailRig();
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    IDP_ISSUER_URL: `http://127.0.0.1:${providerPort}`,
    IDP_CLIENT_ID: 'strict-platform-client',
    IDP_CLIENT_SECRET: 'strict-platform-secret-0123456789',
  });
  callbackPrefix = `http://localhost:${host.port}/internal/auth/idp/callback`;
  provider = await startStrictProvider({
    port: providerPort,
    clientId: 'strict-platform-client',
    clientSecret: 'strict-platform-secret-0123456789',
    redirectUri: callbackPrefix,
  });
  events = new HookEvents();
  project = await createTestProject({
    databaseUrl: infra.DATABASE_URL,
    port: host.port,
    smtpPort: mail.smtp.port,
  });
});

afterAll(async () => {
  await host?.app.stop();
  await events?.close();
  await mail?.close();
  await provider?.stop();
  if (project) await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
});

/** The binding cookie the callback's host set when the browser was handed to the provider. */
let cookie = '';

async function start(): Promise<URL> {
  const res = await new HostClient(host.port, project.host).get(
    `/api/user/auth/idp?redirect_uri=${encodeURIComponent(APP)}`,
  );
  expect(res.status).toBe(302);
  const hop = new URL(res.headers.location as string);
  const handed = await new HostClient(host.port, hop.host).get(hop.pathname + hop.search);
  expect(handed.status).toBe(302);
  cookie = String(handed.headers['set-cookie']).split(';')[0]!;
  return new URL(handed.headers.location as string);
}

async function complete(callback: URL): Promise<URL> {
  const res = await new HostClient(host.port, callback.host).get(callback.pathname + callback.search, {
    headers: { cookie },
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.location as string);
}

describe('a strict OpenID provider', () => {
  it('signs a new user up through login and consent, with claims from userinfo', async () => {
    const sub = `acct-${randomBytes(5).toString('hex')}`;
    const email = uniqueEmail('strict');
    provider.accounts.set(sub, {
      email,
      email_verified: true,
      name: 'Grace Hopper',
      picture: 'https://pictures.example.com/grace.png',
    });
    const callback = await clickThrough(await start(), callbackPrefix, sub);
    expect(callback.searchParams.get('iss')).toBe(provider.issuer);
    const final = await complete(callback);
    const accessToken = final.searchParams.get('accessToken');
    expect(accessToken).toBeTruthy();
    const me = await new HostClient(host.port, project.host).get('/api/user/me', { token: accessToken! });
    expect(me.json).toMatchObject({
      email,
      name: 'Grace Hopper',
      picture: 'https://pictures.example.com/grace.png',
    });
    const kinds = (await events.forEmail(project.id, email)).map((e) => e.kind);
    expect(kinds).toEqual(['user.created', 'user.signed_in']);

    // The callback URL cannot be used twice.
    const replay = await new HostClient(host.port, callback.host).get(callback.pathname + callback.search, {
      headers: { cookie },
    });
    expect(replay.status).toBe(400);
  });

  it('redirects with an error when the user aborts at the provider', async () => {
    const before = (await events.of(project.id)).length;
    const callback = await clickThrough(await start(), callbackPrefix, 'nobody', true);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const final = await complete(callback);
    expect(final.searchParams.get('error')).toBe('idp_oauth_failed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await events.of(project.id)).slice(before).map((e) => [e.kind, e.reason])).toEqual([
      ['auth.failed', 'idp_oauth_failed'],
    ]);
  });
});
