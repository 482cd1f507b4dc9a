import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { localhostFetch } from '../support/localhost-fetch.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type HttpResult,
  type TestProject,
} from '../support/user-client.js';
import { startRedirectCatcher } from './mcp-oauth-harness.js';
import { deploy, Reports, REPORTS_API, reportSql } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The project host as the OAuth 2.1 authorization server of its own /mcp: discovery, dynamic
// client registration, the consent page (real Chromium), PKCE, code and refresh-token rules, and
// the hostile cases, against a real project host process, Postgres, Redis and the official MCP
// SDK client with its own OAuth support.

let host: Host;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

const WHOAMI = {
  'mcp/whoami.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    export default defineMcpTool({ name: 'whoami', description: 'Who is signed in',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      handler: ({ user }) => ({ email: user.email }) });`,
};

/** Blocking hooks that report each event through ctx.db before the sign-in answers. */
const BLOCKING_HOOK = {
  ...REPORTS_API,
  'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
    const report = (db, kind, email) => db.query(${JSON.stringify(reportSql)}, [JSON.stringify({ kind, email })]);
    export default defineAuthHook({ blocking: true, timeoutMs: 20000,
      onUserCreated: async ({ db, event }) => { await new Promise((r) => setTimeout(r, 300)); await report(db, 'created', event.user.email); },
      onUserSignedIn: async ({ db, event }) => { await report(db, 'signed_in', event.user.email); } });`,
};

const REDIRECT = 'http://127.0.0.1:8976/callback';

const verifierPair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

async function register(p: TestProject, metadata: Record<string, unknown> = {}) {
  return p.client.request<{ client_id: string; error?: string; error_description?: string }>(
    'POST',
    '/oauth/register',
    {
      json: {
        client_name: 'Probe <b>client</b>',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        ...metadata,
      },
    },
  );
}

function hidden(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!;
  return fields;
}

function cookieOf(res: HttpResult): string {
  const set = res.headers['set-cookie'];
  const first = (Array.isArray(set) ? set[0] : set) ?? '';
  return first.split(';')[0]!;
}

/** A browser-less walk through the consent page, as a person would do it. */
class ConsentWalk {
  cookie = '';
  fields: Record<string, string> = {};
  constructor(
    readonly p: TestProject,
    readonly clientId: string,
    readonly challenge: string,
  ) {}

  authorizePath(overrides: Record<string, string | undefined> = {}): string {
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: this.clientId,
      redirect_uri: REDIRECT,
      code_challenge: this.challenge,
      code_challenge_method: 'S256',
      state: 'st-123',
      resource: `${this.p.publicUrl}/mcp`,
      ...overrides,
    };
    const query = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return `/oauth/authorize?${query.toString()}`;
  }

  async open(overrides: Record<string, string | undefined> = {}): Promise<HttpResult> {
    const res = await this.p.client.request('GET', this.authorizePath(overrides));
    if (res.headers['set-cookie']) this.cookie = cookieOf(res);
    this.fields = hidden(res.text);
    return res;
  }

  async post(form: Record<string, string>, cookie = this.cookie): Promise<HttpResult> {
    const res = await this.p.client.request('POST', '/oauth/authorize', {
      raw: new URLSearchParams({ ...this.fields, ...form }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: cookie ? { cookie } : {},
    });
    if (res.status === 200) this.fields = hidden(res.text);
    return res;
  }
}

async function token(p: TestProject, params: Record<string, string>) {
  return p.client.request<{
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    error?: string;
  }>('POST', '/oauth/token', {
    raw: new URLSearchParams(params).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
}

/** Registration, sign-up on the consent page, Allow: the code and what the redirect carried. */
async function authorizeNewUser(p: TestProject, clientId: string) {
  const pkce = verifierPair();
  const walk = new ConsentWalk(p, clientId, pkce.challenge);
  expect((await walk.open()).status).toBe(200);
  const email = uniqueEmail('mcp');
  const password = strongPassword();
  const signedUp = await walk.post({ action: 'signup', email, password });
  expect(signedUp.status).toBe(200);
  expect(signedUp.text).toContain('Allow');
  const allowed = await walk.post({ action: 'allow' });
  expect(allowed.status).toBe(303);
  const location = new URL(String(allowed.headers.location));
  return { walk, pkce, email, password, location, code: location.searchParams.get('code')! };
}

function initialize(p: TestProject, bearer: string) {
  return p.client.request('POST', '/mcp', {
    json: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1' },
      },
    },
    headers: { accept: 'application/json, text/event-stream' },
    bearer,
  });
}

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('discovery and registration', () => {
  it('publishes RFC 8414 metadata with PKCE S256 only and the iss parameter', async () => {
    const p = await project();
    const res = await p.client.request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: p.publicUrl,
      authorization_endpoint: `${p.publicUrl}/oauth/authorize`,
      token_endpoint: `${p.publicUrl}/oauth/token`,
      registration_endpoint: `${p.publicUrl}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('registers public clients and refuses redirect URIs that could leak codes', async () => {
    const p = await project();
    const ok = await register(p);
    expect(ok.status).toBe(201);
    expect(ok.body.client_id).toMatch(/^mcp_/);
    expect(ok.body).not.toHaveProperty('client_secret');
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://a.example/cb#x']) {
      const bad = await register(p, { redirect_uris: [uri] });
      expect({ uri, status: bad.status }).toEqual({ uri, status: 400 });
      expect(bad.body.error).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
    }
    const implicit = await register(p, { response_types: ['token'] });
    expect(implicit.status).toBe(400);
  });
});

describe('the authorization code flow and its hostile cases', () => {
  let p: TestProject;
  let other: TestProject;
  let clientId: string;

  beforeAll(async () => {
    p = await project();
    other = await project();
    expect((await deploy(host, p.id, { ...WHOAMI, ...BLOCKING_HOOK })).status).toBe(201);
    expect((await deploy(host, other.id, WHOAMI)).status).toBe(201);
    await new Reports(p).all(); // creates the table the hooks report into
    clientId = (await register(p)).body.client_id;
  });

  it('signs up on the consent page, awaits blocking hooks, redirects with code, state and iss', async () => {
    const { location, email, code } = await authorizeNewUser(p, clientId);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(p.publicUrl);
    expect(code).toBeTruthy();
    // Blocking hooks ran before the sign-up answered (Events rule 2): their reports are there now.
    const reports = await new Reports<{ kind: string; email: string }>(p).all();
    expect(reports.filter((r) => r.email === email).map((r) => r.kind)).toEqual(['created', 'signed_in']);
  });

  it('exchanges a code once, with the right verifier and redirect URI, for tokens bound to /mcp', async () => {
    const { pkce, code, email } = await authorizeNewUser(p, clientId);
    const base = { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT };
    const wrongRedirect = await token(p, {
      ...base,
      code_verifier: pkce.verifier,
      redirect_uri: 'http://127.0.0.1:8976/other',
    });
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.body.error).toBe('invalid_grant');
    // The failed attempt used the code up.
    const after = await token(p, { ...base, code_verifier: pkce.verifier });
    expect(after.body.error).toBe('invalid_grant');

    const second = await authorizeNewUser(p, clientId);
    const wrongVerifier = await token(p, {
      ...base,
      code: second.code,
      code_verifier: verifierPair().verifier,
    });
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body.error).toBe('invalid_grant');

    const third = await authorizeNewUser(p, clientId);
    const ok = await token(p, { ...base, code: third.code, code_verifier: third.pkce.verifier });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect((await initialize(p, ok.body.access_token)).status).toBe(200);
    // Bound to this project's /mcp: not project B's, not this project's /api.
    expect((await initialize(other, ok.body.access_token)).status).toBe(401);
    expect((await p.client.request('GET', '/api/user/me', { bearer: ok.body.access_token })).status).toBe(
      401,
    );
    expect(email).toBeTruthy();
  });

  it('revokes what a code gave when the code is replayed', async () => {
    const { pkce, code } = await authorizeNewUser(p, clientId);
    const params = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    };
    const first = await token(p, params);
    expect(first.status).toBe(200);
    const replay = await token(p, params);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await initialize(p, first.body.access_token)).status).toBe(401);
    const refresh = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.body.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens and revokes the grant when a rotated one is reused', async () => {
    const { pkce, code } = await authorizeNewUser(p, clientId);
    const first = await token(p, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    });
    const refresh = (refreshToken: string) =>
      token(p, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await initialize(p, second.body.access_token)).status).toBe(200);
    const reused = await refresh(first.body.refresh_token);
    expect(reused.body.error).toBe('invalid_grant');
    // The whole family went with it.
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await initialize(p, second.body.access_token)).status).toBe(401);
  });

  it('takes a code or a refresh token only from the client it was issued to, on its own project', async () => {
    const thief = (await register(p, { client_name: 'Thief' })).body.client_id;
    const first = await authorizeNewUser(p, clientId);
    const exchange = {
      grant_type: 'authorization_code',
      code: first.code,
      redirect_uri: REDIRECT,
      code_verifier: first.pkce.verifier,
    };
    // Project B does not know the client; on project A another client gets nothing.
    const elsewhere = await token(other, { ...exchange, client_id: clientId });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error).toBe('invalid_client');
    const stolen = await token(p, { ...exchange, client_id: thief });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect(stolen.body.access_token).toBeUndefined();

    const second = await authorizeNewUser(p, clientId);
    const issued = await token(p, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: second.code,
      redirect_uri: REDIRECT,
      code_verifier: second.pkce.verifier,
    });
    expect(issued.status).toBe(200);
    const refreshAs = (target: TestProject, client: string) =>
      token(target, {
        grant_type: 'refresh_token',
        client_id: client,
        refresh_token: issued.body.refresh_token,
      });
    const byThief = await refreshAs(p, thief);
    expect(byThief.status).toBe(400);
    expect(byThief.body.error).toBe('invalid_grant');
    expect(byThief.body.access_token).toBeUndefined();
    expect((await refreshAs(other, clientId)).status).toBe(401);
    // Neither spent nor revoked the grant: its own client still refreshes it.
    const own = await refreshAs(p, clientId);
    expect(own.status).toBe(200);
    expect((await initialize(p, own.body.access_token)).status).toBe(200);
  });

  it('keeps MCP refresh tokens and /api/user refresh tokens apart', async () => {
    const { pkce, code, email, password } = await authorizeNewUser(p, clientId);
    const mcp = await token(p, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    });
    const atApi = await p.client.request('POST', '/api/user/auth/refresh', {
      json: { refreshToken: mcp.body.refresh_token },
    });
    expect(atApi.status).toBe(401);
    const login = await p.client.request<{ refreshToken: string }>('POST', '/api/user/auth/login', {
      json: { email, password },
    });
    const atMcp = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: login.body.refreshToken,
    });
    expect(atMcp.body.error).toBe('invalid_grant');
    // Neither presentation counted as a reuse: both still rotate at home.
    expect(
      (
        await token(p, {
          grant_type: 'refresh_token',
          client_id: clientId,
          refresh_token: mcp.body.refresh_token,
        })
      ).status,
    ).toBe(200);
  });

  it('remembers consent per user and client', async () => {
    const { email, password } = await authorizeNewUser(p, clientId);
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    await walk.open();
    const again = await walk.post({ action: 'signin', email, password });
    expect(again.status).toBe(303);
    expect(new URL(String(again.headers.location)).searchParams.get('code')).toBeTruthy();
  });

  it('lists a user MCP clients and revokes one: its tokens stop, and consent is asked again', async () => {
    const { pkce, code, email, password } = await authorizeNewUser(p, clientId);
    const mcp = await token(p, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    });
    const login = await p.client.request<{ accessToken: string }>('POST', '/api/user/auth/login', {
      json: { email, password },
    });
    const bearer = login.body.accessToken;
    const listed = await p.client.request<{ clients: Record<string, unknown>[] }>(
      'GET',
      '/api/user/mcp/clients',
      {
        bearer,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.clients).toEqual([
      expect.objectContaining({ clientId, clientName: 'Probe <b>client</b>', liveConnections: 1 }),
    ]);
    // Not with the MCP token itself: only the user's own app manages grants.
    expect(
      (await p.client.request('GET', '/api/user/mcp/clients', { bearer: mcp.body.access_token })).status,
    ).toBe(401);

    expect((await p.client.request('DELETE', `/api/user/mcp/clients/${clientId}`, { bearer })).status).toBe(
      204,
    );
    expect((await initialize(p, mcp.body.access_token)).status).toBe(401);
    const refresh = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: mcp.body.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await p.client.request('DELETE', `/api/user/mcp/clients/${clientId}`, { bearer })).status).toBe(
      404,
    );
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    await walk.open();
    const again = await walk.post({ action: 'signin', email, password });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Allow');
  });

  it('never redirects to an unregistered client or redirect URI', async () => {
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    for (const overrides of [
      { client_id: 'mcp_unknown' },
      { redirect_uri: 'https://evil.example/cb' },
      { redirect_uri: undefined },
    ]) {
      const res = await walk.open(overrides);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('refuses metadata document URLs at private addresses (this host runs in production mode)', async () => {
    let hits = 0;
    const local = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const port = (local.address() as AddressInfo).port;
    try {
      for (const url of [
        `https://127.0.0.1:${port}/client.json`,
        `https://localhost:${port}/client.json`,
        'https://10.0.0.1/client.json',
        'https://169.254.169.254/latest/meta-data/client',
        `http://127.0.0.1:${port}/client.json`,
      ]) {
        const res = await new ConsentWalk(p, url, verifierPair().challenge).open();
        expect({ url, status: res.status }).toEqual({ url, status: 400 });
        expect(res.headers.location).toBeUndefined();
        expect(res.text).toMatch(/not at a public address|must use https/);
      }
      expect(hits).toBe(0);
    } finally {
      local.close();
    }
  });

  it('sends PKCE and resource problems back to the client with error, state and iss', async () => {
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    for (const [overrides, error] of [
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: `${other.publicUrl}/mcp` }, 'invalid_target'],
    ] as const) {
      const res = await walk.open(overrides);
      expect(res.status).toBe(303);
      const location = new URL(String(res.headers.location));
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('st-123');
      expect(location.searchParams.get('iss')).toBe(p.publicUrl);
    }
  });

  it('refuses a consent form without this browser cookie or CSRF token, and cannot be framed', async () => {
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    const page = await walk.open();
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'none'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('Probe &lt;b&gt;client&lt;/b&gt;');
    const form = { action: 'signup', email: uniqueEmail('csrf'), password: strongPassword() };
    expect((await walk.post(form, '')).status).toBe(403);
    expect((await walk.post(form, 'mcp_csrf=' + randomBytes(32).toString('base64url'))).status).toBe(403);
    expect((await walk.post({ ...form, csrf: 'f'.repeat(64) })).status).toBe(403);
    // A ticket of this sign-in does not work with another browser's cookie.
    const signedUp = await walk.post(form);
    expect(signedUp.status).toBe(200);
    const stranger = new ConsentWalk(p, clientId, verifierPair().challenge);
    await stranger.open();
    stranger.fields = { ...walk.fields, csrf: stranger.fields.csrf! };
    expect((await stranger.post({ action: 'allow' })).status).toBe(400);
  });

  it('answers Deny with access_denied', async () => {
    const walk = new ConsentWalk(p, clientId, verifierPair().challenge);
    await walk.open();
    const res = await walk.post({ action: 'deny' });
    expect(res.status).toBe(303);
    expect(new URL(String(res.headers.location)).searchParams.get('error')).toBe('access_denied');
  });
});

/** The SDK client's OAuth state, in memory; the authorization URL goes to the test's browser. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK e2e client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the official MCP SDK client with its own OAuth, and the consent page in Chromium', () => {
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startRedirectCatcher>>;
  let redirectUrl: string;
  let codes: URLSearchParams[];

  beforeAll(async () => {
    browser = await launchLocalBrowser();
    callback = await startRedirectCatcher();
    ({ redirectUrl, answers: codes } = callback);
  });

  afterAll(async () => {
    await browser?.close();
    callback?.close();
  });

  const transportFor = (p: TestProject, provider: MemoryProvider) =>
    new StreamableHTTPClientTransport(new URL(`${p.publicUrl}/mcp`), {
      authProvider: provider,
      fetch: localhostFetch,
    });

  it('discovers, registers, signs up and approves in the browser, then calls a tool as that user', async () => {
    const p = await project();
    expect((await deploy(host, p.id, WHOAMI)).status).toBe(201);
    const provider = new MemoryProvider(redirectUrl);
    const first = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    const transport = transportFor(p, provider);
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^mcp_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin).toBe(p.publicUrl);
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${p.publicUrl}/mcp`);

    const email = uniqueEmail('sdk');
    const password = strongPassword();
    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    await page.type('#email', email);
    await page.type('#password', password);
    await Promise.all([page.waitForNavigation(), page.click('button[value="signup"]')]);
    expect(await page.$eval('main', (m) => m.textContent)).toContain(`Signed in as ${email}`);
    await Promise.all([page.waitForNavigation(), page.click('button[value="allow"]')]);
    expect(page.url().startsWith(redirectUrl)).toBe(true);
    await page.close();
    const answer = codes.at(-1)!;
    expect(answer.get('iss')).toBe(p.publicUrl);

    await transport.finishAuth(answer.get('code')!);
    const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await client.connect(transportFor(p, provider));
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ email });
    await client.close();

    // A second run reuses the grant (the saved tokens), no browser needed.
    const again = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await again.connect(transportFor(p, provider));
    expect(
      ((await again.callTool({ name: 'whoami', arguments: {} })) as CallToolResult).structuredContent,
    ).toEqual({ email });
    await again.close();

    // The user revokes the client from their app: the SDK client is sent back to sign in.
    const login = await p.client.request<{ accessToken: string }>('POST', '/api/user/auth/login', {
      json: { email, password },
    });
    const clientId = String(provider.info?.client_id);
    const revoked = await p.client.request('DELETE', `/api/user/mcp/clients/${clientId}`, {
      bearer: login.body.accessToken,
    });
    expect(revoked.status).toBe(204);
    provider.authorizationUrl = undefined;
    const afterRevoke = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await expect(afterRevoke.connect(transportFor(p, provider))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
  });
});
