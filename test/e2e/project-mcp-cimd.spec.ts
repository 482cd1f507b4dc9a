import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
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
import { deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// MCP clients named by a client ID metadata document (an URL as client_id) against a real project
// host: the host fetches the document from a local server (the host runs with
// MCP_CLIENT_METADATA_NETWORK=allow-private, the test mode that lets it reach loopback over http;
// production refuses both, see client-metadata-documents.spec.ts), shows its name on the consent
// page, and the official MCP SDK client, with that URL as its client id, signs in through the
// consent page in Chromium and calls a tool as the user.

let host: Host;
let docs: Server;
let docsBase: string;
let callback: Server;
let callbackUrl: string;
const codes: URLSearchParams[] = [];
const documents = new Map<string, Record<string, unknown>>();
const projects: TestProject[] = [];

const WHOAMI = {
  'mcp/whoami.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    export default defineMcpTool({ name: 'whoami', description: 'Who is signed in',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      handler: ({ user }) => ({ email: user.email }) });`,
};

/** Publishes a document at `path` of the local server; its client_id defaults to its own URL. */
function publish(path: string, fields: Record<string, unknown> = {}): string {
  const url = `${docsBase}${path}`;
  documents.set(path, {
    client_id: url,
    client_name: 'Doc <i>client</i>',
    client_uri: 'https://client.example',
    redirect_uris: [callbackUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...fields,
  });
  return url;
}

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

const verifierPair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizePath(p: TestProject, clientId: string, challenge: string, redirectUri = callbackUrl) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-cimd',
    resource: `${p.publicUrl}/mcp`,
  });
  return `/oauth/authorize?${query.toString()}`;
}

function hidden(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!;
  return fields;
}

/** Opens the consent page, signs up and allows, without a browser: the code and the user. */
async function approveAsNewUser(p: TestProject, clientId: string) {
  const pkce = verifierPair();
  const page = await p.client.request('GET', authorizePath(p, clientId, pkce.challenge));
  expect(page.status).toBe(200);
  const set = page.headers['set-cookie'];
  const cookie = String(Array.isArray(set) ? set[0] : set).split(';')[0]!;
  const post = async (fields: Record<string, string>, form: Record<string, string>): Promise<HttpResult> =>
    p.client.request('POST', '/oauth/authorize', {
      raw: new URLSearchParams({ ...fields, ...form }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { cookie },
    });
  const email = uniqueEmail('cimd');
  const password = strongPassword();
  const signedUp = await post(hidden(page.text), { action: 'signup', email, password });
  expect(signedUp.status).toBe(200);
  const allowed = await post(hidden(signedUp.text), { action: 'allow' });
  expect(allowed.status).toBe(303);
  const location = new URL(String(allowed.headers.location));
  return { page, pkce, email, password, location, code: location.searchParams.get('code')! };
}

function token(p: TestProject, params: Record<string, string>) {
  return p.client.request<{ access_token: string; refresh_token: string; error?: string }>(
    'POST',
    '/oauth/token',
    { raw: new URLSearchParams(params).toString(), contentType: 'application/x-www-form-urlencoded' },
  );
}

beforeAll(async () => {
  docs = createServer((req, res) => {
    const doc = documents.get(req.url ?? '');
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(JSON.stringify(doc));
  });
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') codes.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  docsBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  host = await startProjectHost({ ...GENEROUS_LIMITS, MCP_CLIENT_METADATA_NETWORK: 'allow-private' });
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
  docs?.close();
  callback?.close();
});

describe('client ID metadata documents on the consent page and the token endpoint', () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await project();
  });

  it('advertises client_id_metadata_document_supported', async () => {
    const res = await p.client.request('GET', '/.well-known/oauth-authorization-server');
    expect(res.body).toMatchObject({ client_id_metadata_document_supported: true });
  });

  it('shows the document name as self-asserted, with the host that publishes it and where it returns', async () => {
    const clientId = publish('/consent.json');
    const { page } = await approveAsNewUser(p, clientId);
    expect(page.text).toContain('Doc &lt;i&gt;client&lt;/i&gt;');
    expect(page.text).toContain(`published by <strong>${new URL(docsBase).host}</strong>`);
    expect(page.text).toContain(`go back to <strong>${new URL(callbackUrl).host}</strong>`);
  });

  it('issues tokens to the URL client, refreshes them, and lists and revokes the grant', async () => {
    const clientId = publish('/tokens.json');
    const { pkce, code, email, password } = await approveAsNewUser(p, clientId);
    const issued = await token(p, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: callbackUrl,
      code_verifier: pkce.verifier,
    });
    expect(issued.status).toBe(200);
    const refreshed = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: issued.body.refresh_token,
    });
    expect(refreshed.status).toBe(200);

    const login = await p.client.request<{ accessToken: string }>('POST', '/api/user/auth/login', {
      json: { email, password },
    });
    const bearer = login.body.accessToken;
    const listed = await p.client.request<{ clients: Record<string, unknown>[] }>(
      'GET',
      '/api/user/mcp/clients',
      { bearer },
    );
    expect(listed.body.clients).toEqual([
      expect.objectContaining({ clientId, clientName: 'Doc <i>client</i>', liveConnections: 1 }),
    ]);
    const path = `/api/user/mcp/clients/${encodeURIComponent(clientId)}`;
    expect((await p.client.request('DELETE', path, { bearer })).status).toBe(204);
    const after = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: refreshed.body.refresh_token,
    });
    expect(after.body.error).toBe('invalid_grant');
  });

  it('never redirects to a redirect URI the document does not list', async () => {
    const clientId = publish('/narrow.json');
    const res = await p.client.request(
      'GET',
      authorizePath(p, clientId, verifierPair().challenge, 'http://127.0.0.1:1/elsewhere'),
    );
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it.each([
    [
      'a document naming another client_id',
      () => publish('/liar.json', { client_id: 'https://claude.ai/x' }),
      /client_id/,
    ],
    [
      'a document asking for a client secret',
      () => publish('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }),
      /public clients only/,
    ],
    ['a document that is not there', () => `${docsBase}/missing.json`, /answered 404/],
    [
      'cloud metadata, refused in every mode',
      () => 'http://169.254.169.254/latest/meta-data/client',
      /not at a public address/,
    ],
  ])('shows %s as an error, never redirecting', async (_what, clientId, message) => {
    const res = await p.client.request('GET', authorizePath(p, clientId(), verifierPair().challenge));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toMatch(message);
  });

  it('does not take a URL client at the token endpoint before anyone approved it', async () => {
    const clientId = publish('/unapproved.json');
    const res = await token(p, {
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: 'x'.repeat(43),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});

/** The SDK client's OAuth state with a metadata document URL as its client id. */
class DocumentClientProvider implements OAuthClientProvider {
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(
    readonly clientId: string,
    readonly redirectUrl: string,
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Doc client',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return { client_id: this.clientId };
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
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the official MCP SDK client with a metadata document URL, consent in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchLocalBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs up and approves in the browser, then calls a tool as that user', async () => {
    const p = await project();
    expect((await deploy(host, p.id, WHOAMI)).status).toBe(201);
    const clientId = publish('/sdk.json', { client_name: 'SDK document client' });
    const provider = new DocumentClientProvider(clientId, callbackUrl);
    const transportFor = () =>
      new StreamableHTTPClientTransport(new URL(`${p.publicUrl}/mcp`), {
        authProvider: provider,
        fetch: localhostFetch,
      });
    const transport = transportFor();
    await expect(
      new Client({ name: 'cimd-e2e', version: '1.0.0' }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('client_id')).toBe(clientId);

    const email = uniqueEmail('cimd-sdk');
    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    expect(await page.$eval('h1', (h) => h.textContent)).toContain(`Sign in to`);
    expect(await page.$eval('main', (m) => m.textContent)).toContain('SDK document client');
    await page.type('#email', email);
    await page.type('#password', strongPassword());
    await Promise.all([page.waitForNavigation(), page.click('button[value="signup"]')]);
    expect(await page.$eval('main', (m) => m.textContent)).toContain(`Signed in as ${email}`);
    await Promise.all([page.waitForNavigation(), page.click('button[value="allow"]')]);
    expect(page.url().startsWith(callbackUrl)).toBe(true);
    await page.close();
    const answer = codes.at(-1)!;
    expect(answer.get('iss')).toBe(p.publicUrl);

    await transport.finishAuth(answer.get('code')!);
    const client = new Client({ name: 'cimd-e2e', version: '1.0.0' });
    await client.connect(transportFor());
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ email });
    await client.close();
  });
});
