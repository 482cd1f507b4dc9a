import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash, randomBytes } from 'node:crypto';
import type { HostClient } from '../support/host-client.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { callWhoami } from './mcp-oauth-harness.js';
import { controlPlane, deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The per-project MCP switch (`mcpEnabled` of PUT /v1/projects/{id}/auth): off, /mcp and the OAuth
// authorization server for MCP clients answer 404 and a token issued before calls nothing; on
// again, the same token works. Real project host, Postgres, Redis and the official MCP SDK client.

let host: Host;
let api: HostClient;
let p: TestProject;

const WHOAMI = {
  'mcp/whoami.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    export default defineMcpTool({ name: 'whoami', description: 'Who is signed in',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      handler: ({ user }) => ({ email: user.email }) });`,
};

const REDIRECT = 'http://127.0.0.1:8976/callback';
const AUTH = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'off' };

function hidden(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!;
  return fields;
}

function token(params: Record<string, string>) {
  return p.client.request<{ access_token: string; refresh_token: string; error?: string }>(
    'POST',
    '/oauth/token',
    { raw: new URLSearchParams(params).toString(), contentType: 'application/x-www-form-urlencoded' },
  );
}

/** Registration, sign-up on the consent page, Allow, and the code exchanged for tokens. */
async function signedInClient() {
  const registered = await p.client.request<{ client_id: string }>('POST', '/oauth/register', {
    json: { client_name: 'Switch probe', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
  });
  expect(registered.status).toBe(201);
  const clientId = registered.body.client_id;
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${p.publicUrl}/mcp`,
  });
  const page = await p.client.request('GET', `/oauth/authorize?${query.toString()}`);
  expect(page.status).toBe(200);
  const set = page.headers['set-cookie'];
  const cookie = String(Array.isArray(set) ? set[0] : set).split(';')[0]!;
  let fields = hidden(page.text);
  const post = (form: Record<string, string>) =>
    p.client.request('POST', '/oauth/authorize', {
      raw: new URLSearchParams({ ...fields, ...form }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { cookie },
    });
  const email = uniqueEmail('mcp-switch');
  const password = strongPassword();
  const signedUp = await post({ action: 'signup', email, password });
  expect(signedUp.status).toBe(200);
  fields = hidden(signedUp.text);
  const allowed = await post({ action: 'allow' });
  expect(allowed.status).toBe(303);
  const code = new URL(String(allowed.headers.location)).searchParams.get('code')!;
  const tokens = await token({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  return { clientId, email, password, ...tokens.body };
}

function whoami(accessToken: string): Promise<CallToolResult> {
  return callWhoami(p, accessToken);
}

function callTool(bearer?: string) {
  return p.client.request('POST', '/mcp', {
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    headers: { accept: 'application/json, text/event-stream' },
    ...(bearer ? { bearer } : {}),
  });
}

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
  api = controlPlane(host);
  p = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  expect((await deploy(host, p.id, WHOAMI)).status).toBe(201);
});

afterAll(async () => {
  await host?.app.stop();
  if (p) await dropTestProject(infra.DATABASE_URL, p);
});

describe('MCP on or off per project', () => {
  it('is on by default and shown by the settings API', async () => {
    const project = await api.get(`/v1/projects/${p.id}`);
    expect(project.status).toBe(200);
    expect((project.json as { auth: Record<string, unknown> }).auth).toMatchObject({ mcpEnabled: true });
  });

  it('off: /mcp and the OAuth endpoints answer 404 and an issued token calls nothing; on: the same token works again', async () => {
    const user = await signedInClient();
    expect((await whoami(user.access_token)).structuredContent).toEqual({ email: user.email });

    const off = await api.put(`/v1/projects/${p.id}/auth`, { ...AUTH, mcpEnabled: false });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ mcpEnabled: false });
    expect(((await api.get(`/v1/projects/${p.id}`)).json as { auth: unknown }).auth).toMatchObject({
      mcpEnabled: false,
    });

    const offMessage = 'MCP is off for this project';
    for (const bearer of [user.access_token, undefined]) {
      const call = await callTool(bearer);
      expect(call.status).toBe(404);
      expect(call.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: offMessage } });
    }
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/mcp',
    ]) {
      const res = await p.client.request('GET', path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: { error: 'not_found', error_description: offMessage },
      });
    }
    const register = await p.client.request('POST', '/oauth/register', {
      json: { client_name: 'Late', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
    });
    expect(register.status).toBe(404);
    expect(register.body).toEqual({ error: 'not_found', error_description: offMessage });
    const consent = await p.client.request('GET', `/oauth/authorize?client_id=${user.clientId}`);
    expect(consent.status).toBe(404);
    expect(consent.text).toContain(offMessage);
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: user.clientId,
      refresh_token: user.refresh_token,
    });
    expect(refresh.status).toBe(404);
    expect(refresh.body).toEqual({ error: 'not_found', error_description: offMessage });

    // /api/user is not under the switch: the user still signs in and lists the clients they approved.
    const login = await p.client.request<{ accessToken: string }>('POST', '/api/user/auth/login', {
      json: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    const clients = await p.client.request('GET', '/api/user/mcp/clients', {
      bearer: login.body.accessToken,
    });
    expect(clients.status).toBe(200);

    // Left out, the switch keeps its saved value.
    const kept = await api.put(`/v1/projects/${p.id}/auth`, AUTH);
    expect(kept.json).toMatchObject({ mcpEnabled: false });
    expect((await callTool(user.access_token)).status).toBe(404);

    const on = await api.put(`/v1/projects/${p.id}/auth`, { ...AUTH, mcpEnabled: true });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ mcpEnabled: true });
    expect((await whoami(user.access_token)).structuredContent).toEqual({ email: user.email });
    expect((await p.client.request('GET', '/.well-known/oauth-authorization-server')).status).toBe(200);
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: user.clientId,
      refresh_token: user.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect((await whoami(refreshed.body.access_token)).structuredContent).toEqual({ email: user.email });
  });

  it.each([['yes'], [1], [null]])('refuses mcpEnabled %p with the control plane 400', async (value) => {
    const res = await api.put(`/v1/projects/${p.id}/auth`, { ...AUTH, mcpEnabled: value });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'invalid-request',
      message: expect.stringMatching(/^mcpEnabled (must be true or false|is required)/),
    });
  });
});
