import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { localhostFetch } from '../support/localhost-fetch.js';
import { createTestProject, dropTestProject, type TestProject } from '../support/user-client.js';
import { deploy, signUp } from './project-code-harness.js';
import {
  decodeJwt,
  forgeJwt,
  GENEROUS_LIMITS,
  infra,
  projectSigningKey,
  startProjectHost,
  type Host,
} from './user-auth-harness.js';

// MCP tools in project code (mcp/**, defineMcpTool) served on the project host's /mcp, and the
// resource-server half of MCP authorization (401 + RFC 9728 metadata, tokens bound to one
// project's /mcp), against a real project host process, Postgres, Redis and the official MCP SDK
// client.

let host: Host;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

const tool = (body: string) =>
  `import { defineMcpTool } from '@suite/platform-sdk';\nexport default defineMcpTool(${body});`;

const PUBLIC_TOOLS = {
  'mcp/add.ts': tool(`{
    name: 'add', title: 'Add', description: 'Adds two numbers', auth: false,
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    handler: ({ input, user }) => ({ sum: input.a + input.b, ...(user ? { leaked: true } : {}) }),
  }`),
  'mcp/greet.ts': `import { defineMcpTool } from '@suite/platform-sdk';
    import { greeting } from './_lib/greeting';
    export default defineMcpTool({ name: 'greet', description: 'Greets', auth: 'optional',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
      handler: ({ input, env, user }) => greeting(env.GREETING, input.name ?? user?.email ?? 'stranger') });`,
  'mcp/_lib/greeting.ts': `export const greeting = (g, who) => g + ', ' + who;`,
  'mcp/fails.ts': tool(`{ name: 'fails', description: 'Always throws', auth: false,
    inputSchema: { type: 'object' }, handler: () => { throw new Error('the shelf is empty'); } }`),
  'mcp/notes.ts': tool(`{ name: 'notes', description: 'Writes and reads a note with ctx.db', auth: false,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: async ({ db, input }) => {
      await db.query('create table if not exists app.notes (text text)');
      await db.query('insert into app.notes values ($1)', [input.text]);
      return (await db.query('select text from app.notes')).rows.map((r) => r.text);
    } }`),
  '.env': 'GREETING=Hello',
};

const WHOAMI = {
  'mcp/whoami.ts': tool(`{ name: 'whoami', description: 'Who is signed in',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
    handler: ({ user }) => ({ email: user.email }) }`),
};

async function connect(p: TestProject, token?: string): Promise<Client> {
  const client = new Client({ name: 'project-mcp-spec', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${p.publicUrl}/mcp`), {
    fetch: localhostFetch,
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

/** POST /mcp initialize by hand: the status and WWW-Authenticate a client sees first. */
function initialize(p: TestProject, bearer?: string) {
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
    ...(bearer ? { bearer } : {}),
  });
}

/** An MCP access token for `user`'s session family, signed with the project's key like the host's. */
async function mcpToken(
  p: TestProject,
  accessToken: string,
  overrides: {
    payload?: Record<string, unknown>;
    header?: Record<string, unknown>;
    signer?: TestProject;
  } = {},
): Promise<string> {
  const claims = decodeJwt(accessToken).payload;
  const key = await projectSigningKey((overrides.signer ?? p).id);
  const now = Math.floor(Date.now() / 1000);
  return forgeJwt(
    { alg: 'ES256', kid: key.kid, typ: 'mcp_access', ...overrides.header },
    {
      typ: 'mcp_access',
      iss: p.publicUrl,
      aud: `${p.publicUrl}/mcp`,
      sub: claims.sub,
      sid: claims.sid,
      client_id: 'test-client',
      email: claims.email,
      name: null,
      picture: null,
      iat: now,
      exp: now + 600,
      ...overrides.payload,
    },
    key.privateKey,
  );
}

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('deploying MCP tools', () => {
  it('lists the deployed tools in the deploy answer', async () => {
    const p = await project();
    const res = await deploy(host, p.id, { ...PUBLIC_TOOLS, ...WHOAMI });
    expect(res.status).toBe(201);
    expect((res.json as { tools: { name: string; auth: string }[] }).tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'add', auth: 'false' }),
        expect.objectContaining({ name: 'greet', auth: 'optional' }),
        expect.objectContaining({ name: 'whoami', auth: 'required' }),
      ]),
    );
  });

  it.each([
    [
      'no default export',
      { 'mcp/x.ts': 'export const a = 1;' },
      /mcp\/x\.ts must default-export defineMcpTool/,
    ],
    [
      'another kind',
      {
        'mcp/x.ts': `import { defineJob } from '@suite/platform-sdk'; export default defineJob({ handler() {} });`,
      },
      /must default-export defineMcpTool/,
    ],
    [
      'a bad name',
      {
        'mcp/x.ts': tool(
          `{ name: 'has space', description: 'd', inputSchema: { type: 'object' }, handler() {} }`,
        ),
      },
      /mcp\/x\.ts: name must be/,
    ],
    [
      'no description',
      { 'mcp/x.ts': tool(`{ name: 'x', inputSchema: { type: 'object' }, handler() {} }`) },
      /description must be a non-empty string/,
    ],
    [
      'a schema that is not an object schema',
      { 'mcp/x.ts': tool(`{ name: 'x', description: 'd', inputSchema: { type: 'string' }, handler() {} }`) },
      /inputSchema must have type 'object'/,
    ],
    [
      'a schema that does not compile',
      {
        'mcp/x.ts': tool(
          `{ name: 'x', description: 'd', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } }, handler() {} }`,
        ),
      },
      /inputSchema is not a valid JSON Schema/,
    ],
    [
      'an invalid auth',
      {
        'mcp/x.ts': tool(
          `{ name: 'x', description: 'd', auth: async () => null, inputSchema: { type: 'object' }, handler() {} }`,
        ),
      },
      /auth must be 'required', 'optional' or false/,
    ],
    [
      'two tools of one name',
      {
        'mcp/a.ts': tool(`{ name: 'same', description: 'd', inputSchema: { type: 'object' }, handler() {} }`),
        'mcp/b.ts': tool(`{ name: 'same', description: 'd', inputSchema: { type: 'object' }, handler() {} }`),
      },
      /both define the MCP tool same/,
    ],
  ])('refuses %s with a clear 400', async (_, files, message) => {
    const p = await project();
    const res = await deploy(host, p.id, files as Record<string, string>);
    expect(res.status).toBe(400);
    expect(String((res.json as { message?: string }).message)).toMatch(message);
  });
});

describe('/mcp with public tools', () => {
  let p: TestProject;
  let client: Client;

  beforeAll(async () => {
    p = await project();
    expect((await deploy(host, p.id, PUBLIC_TOOLS)).status).toBe(201);
    client = await connect(p);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools of the deployment with their schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'fails', 'greet', 'notes']);
    const add = tools.find((t) => t.name === 'add')!;
    expect(add).toMatchObject({
      title: 'Add',
      description: 'Adds two numbers',
      inputSchema: { type: 'object', required: ['a', 'b'] },
      outputSchema: { type: 'object', required: ['sum'] },
    });
  });

  it('answers structuredContent when the tool has an outputSchema', async () => {
    const result = (await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(result.content).toEqual([{ type: 'text', text: '{"sum":42}' }]);
  });

  it('runs handlers with the deployment env, its helpers and ctx.db, and no user without a token', async () => {
    const greet = (await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })) as CallToolResult;
    expect(greet.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
    const anonymous = (await client.callTool({ name: 'greet', arguments: {} })) as CallToolResult;
    expect(anonymous.content).toEqual([{ type: 'text', text: 'Hello, stranger' }]);
    const notes = (await client.callTool({ name: 'notes', arguments: { text: 'milk' } })) as CallToolResult;
    expect(notes.content).toEqual([{ type: 'text', text: '["milk"]' }]);
  });

  it('turns a throw and invalid arguments into isError results', async () => {
    const thrown = (await client.callTool({ name: 'fails', arguments: {} })) as CallToolResult;
    expect(thrown).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the shelf is empty' }] });
    const invalid = (await client.callTool({ name: 'add', arguments: { a: 'two' } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toMatch(/Invalid arguments for add/);
  });

  it('refuses an unknown tool as a protocol error', async () => {
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
  });

  it('answers 405 to GET (stateless: no standalone stream)', async () => {
    const res = await p.client.request('GET', '/mcp', { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
  });
});

describe('/mcp authorization (resource server)', () => {
  let a: TestProject;
  let b: TestProject;
  let user: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    a = await project();
    b = await project();
    expect((await deploy(host, a.id, { ...PUBLIC_TOOLS, ...WHOAMI })).status).toBe(201);
    expect((await deploy(host, b.id, WHOAMI)).status).toBe(201);
    user = await signUp(a);
    await signUp(b); // b gets a signing key of its own
  });

  it('answers 401 with the RFC 9728 pointer when a tool needs a user and no token is sent', async () => {
    const res = await initialize(a);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${a.publicUrl}/.well-known/oauth-protected-resource"`,
    );
  });

  it('publishes protected resource metadata naming the host as its authorization server', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await a.client.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        resource: `${a.publicUrl}/mcp`,
        authorization_servers: [a.publicUrl],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('lets browser-based clients (the Inspector) call across origins, with Bearer tokens only', async () => {
    const preflight = await a.client.request('OPTIONS', '/mcp', {
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const unauthorized = await initialize(a);
    expect(unauthorized.headers['access-control-allow-origin']).toBe('*');
    expect(String(unauthorized.headers['access-control-expose-headers'])).toMatch(/www-authenticate/);
    const metadata = await a.client.request('GET', '/.well-known/oauth-protected-resource');
    expect(metadata.headers['access-control-allow-origin']).toBe('*');
  });

  it('runs a tool as the user of a valid MCP token (ctx.user)', async () => {
    const client = await connect(a, await mcpToken(a, user.accessToken));
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ email: user.email });
    const greet = (await client.callTool({ name: 'greet', arguments: {} })) as CallToolResult;
    expect(greet.content).toEqual([{ type: 'text', text: `Hello, ${user.email}` }]);
    const add = (await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })) as CallToolResult;
    expect(add.structuredContent).toEqual({ sum: 2 }); // auth: false never sees the user
    await client.close();
  });

  it('refuses tokens that are not this project /mcp token with invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused = {
      'an /api/user access token': user.accessToken,
      'a token of project B on project A': await mcpToken(a, user.accessToken, { signer: b }),
      'a token for another resource': await mcpToken(a, user.accessToken, {
        payload: { aud: `${b.publicUrl}/mcp` },
      }),
      'a token for the project API audience': await mcpToken(a, user.accessToken, { payload: { aud: a.id } }),
      'an expired token': await mcpToken(a, user.accessToken, {
        payload: { iat: now - 1200, exp: now - 600 },
      }),
      'a token living longer than allowed': await mcpToken(a, user.accessToken, {
        payload: { exp: now + 24 * 3600 },
      }),
      'an unsigned token': (await mcpToken(a, user.accessToken)).replace(/\.[^.]+$/, '.'),
    };
    for (const [what, token] of Object.entries(refused)) {
      const res = await initialize(a, token);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token".*resource_metadata=/);
    }
  });

  it('refuses a token of project A sent to project B', async () => {
    const res = await initialize(b, await mcpToken(a, user.accessToken));
    expect(res.status).toBe(401);
  });

  it('stops a token once its session family is signed out', async () => {
    const other = await signUp(a);
    const token = await mcpToken(a, other.accessToken);
    expect((await initialize(a, token)).status).toBe(200);
    const out = await a.client.request('POST', '/api/user/auth/refresh', {
      json: { refreshToken: other.refreshToken, revoke: true },
    });
    expect(out.status).toBe(200);
    expect((await initialize(a, token)).status).toBe(401);
  });
});
