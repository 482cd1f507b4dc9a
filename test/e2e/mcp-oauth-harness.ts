import { expect } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { localhostFetch } from '../support/localhost-fetch.js';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strongPassword, uniqueEmail, type HttpResult, type TestProject } from '../support/user-client.js';

// Driving the consent page of a project host without a browser, as a person would: for specs that
// need signed-in MCP clients rather than testing the flow itself (project-mcp-oauth.spec.ts does).

export const MCP_REDIRECT = 'http://127.0.0.1:8976/callback';

/** The whoami tool: structuredContent `{ email }` of the signed-in user. */
export const WHOAMI_TOOL = {
  'mcp/whoami.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    export default defineMcpTool({ name: 'whoami', title: 'Who am I', description: 'Who is signed in',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      handler: ({ user }) => ({ email: user.email }) });`,
};

export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return fields;
}

export async function registerMcpClient(p: TestProject, name: string, redirectUri = MCP_REDIRECT) {
  const res = await p.client.request<{ client_id: string }>('POST', '/oauth/register', {
    json: { client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
  });
  expect(res.status).toBe(201);
  return res.body.client_id;
}

/** Cookies of one host as a browser keeps them: by name, replaced or removed by Set-Cookie. */
export class CookieJar {
  readonly jar = new Map<string, string>();
  take(res: { headers: Record<string, string | string[] | undefined> }): void {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      if (/Max-Age=0/i.test(line)) this.jar.delete(name!.trim());
      else this.jar.set(name!.trim(), rest.join('='));
    }
  }
  get header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One authorization request on the consent page: its cookie and the hidden fields of the last page. */
export class ConsentSession {
  cookie = '';
  fields: Record<string, string> = {};
  readonly verifier = randomBytes(32).toString('base64url');

  constructor(
    readonly p: TestProject,
    readonly clientId: string,
    readonly redirectUri = MCP_REDIRECT,
  ) {}

  authorizePath(overrides: Record<string, string> = {}): string {
    return `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      code_challenge: createHash('sha256').update(this.verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      resource: `${this.p.publicUrl}/mcp`,
      ...overrides,
    }).toString()}`;
  }

  async open(overrides: Record<string, string> = {}): Promise<HttpResult> {
    const res = await this.p.client.request('GET', this.authorizePath(overrides), {
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    const set = res.headers['set-cookie'];
    const first = (Array.isArray(set) ? set[0] : set) ?? '';
    if (first) this.cookie = first.split(';')[0]!;
    this.fields = hiddenFields(res.text);
    return res;
  }

  async post(form: Record<string, string>): Promise<HttpResult> {
    const res = await this.p.client.request('POST', '/oauth/authorize', {
      raw: new URLSearchParams({ ...this.fields, ...form }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: this.cookie ? { cookie: this.cookie } : {},
    });
    if (res.status === 200) this.fields = hiddenFields(res.text);
    return res;
  }

  /** Exchanges the code of a 303 to the client for tokens. */
  async tokens(allowed: HttpResult): Promise<{ access_token: string; refresh_token: string }> {
    expect(allowed.status).toBe(303);
    const code = new URL(String(allowed.headers.location)).searchParams.get('code');
    expect(code).toBeTruthy();
    return this.exchange(code!);
  }

  /** Exchanges an authorization code the client received for tokens. */
  async exchange(code: string): Promise<{ access_token: string; refresh_token: string }> {
    const res = await this.p.client.request<{ access_token: string; refresh_token: string }>(
      'POST',
      '/oauth/token',
      {
        raw: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: this.clientId,
          code,
          redirect_uri: this.redirectUri,
          code_verifier: this.verifier,
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      },
    );
    expect(res.status).toBe(200);
    return res.body;
  }
}

/** A new user signs up on the consent page and allows the client: the user and their tokens. */
export async function connectNewUser(p: TestProject, clientId: string, redirectUri = MCP_REDIRECT) {
  const session = new ConsentSession(p, clientId, redirectUri);
  expect((await session.open()).status).toBe(200);
  const email = uniqueEmail('mcp');
  const password = strongPassword();
  expect((await session.post({ action: 'signup', email, password })).status).toBe(200);
  const tokens = await session.tokens(await session.post({ action: 'allow' }));
  return { email, password, ...tokens };
}

/** An existing user signs in on the consent page and allows the client. */
export async function connectUser(
  p: TestProject,
  clientId: string,
  user: { email: string; password: string },
  redirectUri = MCP_REDIRECT,
) {
  const session = new ConsentSession(p, clientId, redirectUri);
  expect((await session.open()).status).toBe(200);
  const signedIn = await session.post({ action: 'signin', ...user });
  const allowed = signedIn.status === 303 ? signedIn : await session.post({ action: 'allow' });
  return session.tokens(allowed);
}

/** POST /mcp initialize with a bearer token: 200 while the grant lives, 401 once revoked. */
export function mcpInitialize(p: TestProject, bearer: string) {
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

/** Calls the whoami tool with the official SDK client and a bearer token. */
export async function callWhoami(p: TestProject, accessToken: string): Promise<CallToolResult> {
  const client = new Client({ name: 'mcp-oauth-harness', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${p.publicUrl}/mcp`), {
      fetch: localhostFetch,
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  try {
    return (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
  } finally {
    await client.close();
  }
}

/** A client's redirect URI on loopback for a real browser: what it received, oldest first. */
export async function startRedirectCatcher(): Promise<{
  redirectUrl: string;
  answers: URLSearchParams[];
  close: () => void;
}> {
  const answers: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Only the redirect itself (Chromium asks for /favicon.ico too).
    if (url.pathname === '/callback') answers.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    redirectUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    answers,
    close: () => server.close(),
  };
}
