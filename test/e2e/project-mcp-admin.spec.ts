import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import type { HostClient } from '../support/host-client.js';
import { createTestProject, dropTestProject, type TestProject } from '../support/user-client.js';
import {
  connectNewUser,
  connectUser,
  MCP_REDIRECT,
  mcpInitialize,
  registerMcpClient,
  WHOAMI_TOOL,
} from './mcp-oauth-harness.js';
import { ADMIN_TOKEN, controlPlane, deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The control plane's view of a project's MCP server (admin token): the deployed tools, the clients
// each user connected, and revoking one user's grant exactly as the user can. Real project host,
// Postgres and Redis; clients connect through the consent page; a client named by a metadata
// document is served from a local server (MCP_CLIENT_METADATA_NETWORK=allow-private). The
// dashboard's Auth and user pages show the same in Chromium, and revoke from there.

let host: Host;
let api: HostClient;
let docs: Server;
let documentUrl: string;
const projects: TestProject[] = [];

const ECHO_TOOL = {
  'mcp/echo.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    export default defineMcpTool({ name: 'echo', description: 'Says it back', auth: false,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: ({ input }) => input.text });`,
};

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

interface Connection {
  clientId: string;
  clientName: string | null;
  kind: string;
  user: { id: string; email: string };
  grantedAt: string;
  lastTokenAt: string | null;
  liveConnections: number;
}
interface ConnectionPage {
  items: Connection[];
  total: number;
  page: number;
  pageSize: number;
}

async function userIdOf(p: TestProject, email: string): Promise<string> {
  const res = await api.get(`/v1/projects/${p.id}/users?search=${encodeURIComponent(email)}`);
  return (res.json as { items: { id: string }[] }).items[0]!.id;
}

beforeAll(async () => {
  docs = createServer((req, res) => {
    if (req.url !== '/client.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: 'Document client',
        redirect_uris: [MCP_REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  documentUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}/client.json`;
  host = await startProjectHost({ ...GENEROUS_LIMITS, MCP_CLIENT_METADATA_NETWORK: 'allow-private' });
  api = controlPlane(host);
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
  docs?.closeAllConnections();
  await new Promise((resolve) => docs?.close(resolve));
});

describe('GET /v1/projects/{id}/mcp/tools', () => {
  it('lists the active deployment’s tools with auth and schemas; none before a deploy', async () => {
    const p = await project();
    const empty = await api.get(`/v1/projects/${p.id}/mcp/tools`);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ mcpEnabled: true, deploymentVersion: null, tools: [] });

    expect((await deploy(host, p.id, { ...WHOAMI_TOOL, ...ECHO_TOOL })).status).toBe(201);
    const res = await api.get(`/v1/projects/${p.id}/mcp/tools`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      mcpEnabled: true,
      deploymentVersion: 1,
      tools: [
        {
          name: 'echo',
          title: null,
          description: 'Says it back',
          auth: false,
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          outputSchema: null,
        },
        {
          name: 'whoami',
          title: 'Who am I',
          description: 'Who is signed in',
          auth: 'required',
          inputSchema: { type: 'object', properties: {} },
          outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
        },
      ],
    });
  });

  it('answers 404 project_not_found for an unknown or malformed project id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await api.get(`/v1/projects/${id}/mcp/tools`);
      expect({ id, status: res.status, code: (res.json as { code: string }).code }).toEqual({
        id,
        status: 404,
        code: 'project_not_found',
      });
    }
  });
});

describe('connected clients and revocation', () => {
  let p: TestProject;
  let other: TestProject;
  let registered: string;
  let alice: Awaited<ReturnType<typeof connectNewUser>>;
  let aliceId: string;
  let bob: Awaited<ReturnType<typeof connectNewUser>>;
  let bobId: string;
  let aliceDoc: { access_token: string; refresh_token: string };

  beforeAll(async () => {
    p = await project();
    other = await project();
    expect((await deploy(host, p.id, WHOAMI_TOOL)).status).toBe(201);
    expect((await deploy(host, other.id, WHOAMI_TOOL)).status).toBe(201);
    registered = await registerMcpClient(p, 'Registered <b>client</b>');
    alice = await connectNewUser(p, registered);
    bob = await connectNewUser(p, registered);
    aliceDoc = await connectUser(p, documentUrl, alice);
    aliceId = await userIdOf(p, alice.email);
    bobId = await userIdOf(p, bob.email);
  });

  it('lists every user’s clients with kind, user, grant time and last token time', async () => {
    const res = await api.get(`/v1/projects/${p.id}/mcp/clients`);
    expect(res.status).toBe(200);
    const page = res.json as ConnectionPage;
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    const seen = page.items.map((c) => [c.user.email, c.clientId, c.kind, c.clientName, c.liveConnections]);
    expect(seen).toEqual(
      expect.arrayContaining([
        [alice.email, registered, 'registered', 'Registered <b>client</b>', 1],
        [bob.email, registered, 'registered', 'Registered <b>client</b>', 1],
        [alice.email, documentUrl, 'metadata-document', 'Document client', 1],
      ]),
    );
    for (const item of page.items) {
      expect(Date.parse(item.grantedAt)).not.toBeNaN();
      expect(Date.parse(item.lastTokenAt!)).toBeGreaterThanOrEqual(Date.parse(item.grantedAt));
    }
    const paged = (await api.get(`/v1/projects/${p.id}/mcp/clients?pageSize=2&page=2`))
      .json as ConnectionPage;
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.items).toHaveLength(1);
    expect((await api.get(`/v1/projects/${p.id}/mcp/clients?pageSize=0`)).status).toBe(400);
    // Another project sees none of them.
    expect(((await api.get(`/v1/projects/${other.id}/mcp/clients`)).json as ConnectionPage).total).toBe(0);
  });

  it('lists one user’s clients; 404 for a user of no such id', async () => {
    const res = await api.get(`/v1/projects/${p.id}/users/${aliceId}/mcp/clients`);
    expect(res.status).toBe(200);
    expect((res.json as ConnectionPage).items.map((c) => c.clientId).sort()).toEqual(
      [registered, documentUrl].sort(),
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await api.get(`/v1/projects/${p.id}/users/${id}/mcp/clients`);
      expect({ id, status: missing.status, code: (missing.json as { code: string }).code }).toEqual({
        id,
        status: 404,
        code: 'not_found',
      });
    }
    // A user of another project is unknown here.
    expect((await api.get(`/v1/projects/${other.id}/users/${aliceId}/mcp/clients`)).status).toBe(404);
  });

  it('refuses without the admin token, with a user’s token, and on a project host', async () => {
    const path = `/v1/projects/${p.id}/users/${bobId}/mcp/clients/${registered}`;
    for (const client of [
      api.withToken(undefined),
      api.withToken('wrong'),
      api.withToken(bob.access_token),
    ]) {
      expect((await client.get(`/v1/projects/${p.id}/mcp/clients`)).status).toBe(401);
      expect((await client.delete(path)).status).toBe(401);
    }
    const onProjectHost = await api.at(p.host).delete(path);
    expect(onProjectHost.status).toBe(404);
    // Nothing was revoked by any of them.
    expect((await mcpInitialize(p, bob.access_token)).status).toBe(200);
  });

  it('revokes one user’s grant of one client: its tokens stop at once, others keep working', async () => {
    // Another project's id for the same user and client: not found, nothing revoked.
    const elsewhere = await api.delete(`/v1/projects/${other.id}/users/${bobId}/mcp/clients/${registered}`);
    expect(elsewhere.status).toBe(404);
    const unknownClient = await api.delete(
      `/v1/projects/${p.id}/users/${bobId}/mcp/clients/mcp_nosuchclient`,
    );
    expect(unknownClient.status).toBe(404);
    expect((unknownClient.json as { code: string }).code).toBe('not_found');

    const res = await api.delete(`/v1/projects/${p.id}/users/${bobId}/mcp/clients/${registered}`);
    expect(res.status).toBe(204);
    expect((await mcpInitialize(p, bob.access_token)).status).toBe(401);
    const refresh = await p.client.request<{ error: string }>('POST', '/oauth/token', {
      raw: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: registered,
        refresh_token: bob.refresh_token,
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(refresh.body.error).toBe('invalid_grant');
    // Alice's grant of the same client is untouched.
    expect((await mcpInitialize(p, alice.access_token)).status).toBe(200);
    // Gone from the lists; a second revoke finds nothing.
    const left = (await api.get(`/v1/projects/${p.id}/mcp/clients`)).json as ConnectionPage;
    expect(left.items.map((c) => c.user.email)).not.toContain(bob.email);
    expect((await api.delete(`/v1/projects/${p.id}/users/${bobId}/mcp/clients/${registered}`)).status).toBe(
      404,
    );
  });

  it('revokes a client named by a URL, percent-encoded in the path', async () => {
    expect((await mcpInitialize(p, aliceDoc.access_token)).status).toBe(200);
    const res = await api.delete(
      `/v1/projects/${p.id}/users/${aliceId}/mcp/clients/${encodeURIComponent(documentUrl)}`,
    );
    expect(res.status).toBe(204);
    expect((await mcpInitialize(p, aliceDoc.access_token)).status).toBe(401);
    const mine = (await api.get(`/v1/projects/${p.id}/users/${aliceId}/mcp/clients`)).json as ConnectionPage;
    expect(mine.items.map((c) => c.clientId)).toEqual([registered]);
  });

  it('is documented in /openapi.json', async () => {
    const doc = (await api.get('/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/projects/{projectId}/mcp/tools']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/projects/{projectId}/mcp/clients']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/projects/{projectId}/users/{userId}/mcp/clients']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/projects/{projectId}/users/{userId}/mcp/clients/{clientId}']!)).toEqual(
      ['delete'],
    );
  });
});

describe('the dashboard', () => {
  const READY = '#content:not([hidden]):not([aria-busy])';
  let browser: Browser;
  let p: TestProject;
  let clientId: string;
  let carol: Awaited<ReturnType<typeof connectNewUser>>;
  let carolId: string;

  const waitText = (page: Page, selector: string, part: string) =>
    page.waitForFunction(
      `(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '').includes(${JSON.stringify(part)})`,
    );

  /** A page whose console errors, page errors and failed requests are collected. */
  async function watchedPage(width: number) {
    const page = await browser.newPage();
    await page.setViewport({ width, height: 900 });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    return { page, problems };
  }

  async function open(page: Page, path: string) {
    const response = await page.goto(`http://localhost:${host.port}${path}`);
    if (await page.$('#admin-token')) {
      await page.type('#admin-token', ADMIN_TOKEN);
      await page.keyboard.press('Enter');
    }
    await page.waitForSelector(READY);
    return response!;
  }

  beforeAll(async () => {
    p = await project();
    expect((await deploy(host, p.id, { ...WHOAMI_TOOL, ...ECHO_TOOL })).status).toBe(201);
    clientId = await registerMcpClient(p, 'Editor <i>assistant</i>');
    carol = await connectNewUser(p, clientId);
    carolId = await userIdOf(p, carol.email);
    browser = await launchLocalBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the deployed tools and connected clients on the Auth page, at desktop and phone width', async () => {
    for (const width of [1100, 390]) {
      const { page, problems } = await watchedPage(width);
      const response = await open(page, `/projects/${p.id}/auth`);
      expect(response.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(response.headers()['x-frame-options']).toBe('DENY');
      await page.waitForSelector('#mcp-tools:not([hidden])');
      await page.waitForSelector('#mcp-clients:not([hidden])');
      const tools = await page.$eval('#mcp-tools tbody', (e) => e.textContent ?? '');
      expect(tools).toContain('whoami');
      expect(tools).toContain('Who am I');
      expect(tools).toContain('echo');
      expect(await page.$eval('#mcp-tools-state', (e) => e.textContent)).toMatch(
        /Deployment 1 serves 2 tools/,
      );
      const clients = await page.$eval('#mcp-clients tbody', (e) => e.textContent ?? '');
      // The client's own name is text, never markup.
      expect(clients).toContain('Editor <i>assistant</i>');
      expect(clients).toContain(carol.email);
      expect(await page.$('#mcp-clients i')).toBeNull();
      const revoke = await page.$eval('#mcp-clients button', (e) => e.getAttribute('aria-label'));
      expect(revoke).toBe(`Revoke Editor <i>assistant</i> for ${carol.email}`);
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('revokes a user’s client from the user page: its tokens stop at once', async () => {
    expect((await mcpInitialize(p, carol.access_token)).status).toBe(200);
    const { page, problems } = await watchedPage(1100);
    await open(page, `/projects/${p.id}/users/${carolId}`);
    await page.waitForSelector('#mcp-clients:not([hidden])');
    expect(await page.$eval('#mcp-clients tbody', (e) => e.textContent ?? '')).toContain(clientId);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#mcp-clients button.danger');
    await waitText(page, '#message', 'Revoked');
    await page.waitForSelector('#mcp-clients-empty:not([hidden])');
    expect(await page.$eval('#mcp-clients', (e) => e.hasAttribute('hidden'))).toBe(true);
    expect((await mcpInitialize(p, carol.access_token)).status).toBe(401);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('revocation needs the admin token in the request: a cross-site form or preflight gets nothing', async () => {
    const other = await connectNewUser(p, clientId);
    const otherId = await userIdOf(p, other.email);
    const path = `/v1/projects/${p.id}/users/${otherId}/mcp/clients/${clientId}`;
    // What a forged form could send: cookies and a form body, never an Authorization header.
    const forged = await api.withToken(undefined).request(path, {
      method: 'DELETE',
      body: 'x=1',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `dashboard=${ADMIN_TOKEN}`,
      },
    });
    expect(forged.status).toBe(401);
    const preflight = await api.withToken(undefined).request(path, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await mcpInitialize(p, other.access_token)).status).toBe(200);
  });
});
