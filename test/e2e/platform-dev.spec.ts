import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropTenantDatabase } from '../../libs/db/src/tenant-provisioning.js';
import { adminQuery, adminUrl } from '../../libs/db/src/testing/throwaway-database.js';
import { createClient, type TokenStorage } from '../../libs/platform-client/src/index.js';
import { createRedisConnection } from '../../libs/queue/src/index.js';
import { freePort, repoRoot } from '../support/app-process.js';
import { strongPassword, uniqueEmail } from '../support/user-client.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hiddenFields, WHOAMI_TOOL } from './mcp-oauth-harness.js';

// `platform dev` as a user runs it: the BUILT command (tools/platform-cli/dist/main.js) on a copy
// of examples/boards, with a database, Redis prefix and data folder of its own. Everything goes
// through the local address it prints, with the browser client package where a page would use it.

const CLI = join(repoRoot, 'tools', 'platform-cli', 'dist', 'main.js');
const EXAMPLE = join(repoRoot, 'examples', 'boards');
const run = randomBytes(4).toString('hex');
const DATABASE = `platform_dev_test_${run}`;
const REDIS_PREFIX = `${process.env.REDIS_PREFIX ?? 'test'}-platform-dev-${run}`;
const BOOT_TIMEOUT_MS = 300_000;

interface Cli {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string | null>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: adminUrl(),
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return { child, output: () => out, exited };
}

/** Waits until the output (from `from` on) matches; returns the match. */
async function waitForOutput(
  cli: Cli,
  pattern: RegExp,
  timeoutMs = 30_000,
  from = 0,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = cli.output().slice(from).match(pattern);
    if (match) return match;
    if (cli.child.exitCode !== null || cli.child.signalCode !== null) {
      throw new Error(`platform dev exited before printing ${pattern}:\n${cli.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${cli.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function memoryStorage(): TokenStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('platform dev', () => {
  let projectDir: string;
  let dataDir: string;
  let cli: Cli;
  let port: number;
  let base: string;
  let projectId: string | undefined;
  let hostPort: number;
  let sinkPort: number;

  beforeAll(async () => {
    projectDir = mkdtempSync(join(tmpdir(), 'platform-dev-project-'));
    dataDir = mkdtempSync(join(tmpdir(), 'platform-dev-data-'));
    cpSync(EXAMPLE, projectDir, {
      recursive: true,
      filter: (source) => !source.includes('.platform') && !source.endsWith('.env'),
    });
    writeFileSync(join(projectDir, '.env'), 'BOARD_TITLE=Test Boards\n');
    mkdirSync(join(projectDir, 'mcp'));
    writeFileSync(join(projectDir, 'mcp', 'whoami.ts'), WHOAMI_TOOL['mcp/whoami.ts']);
    port = await freePort();
    base = `http://localhost:${port}`;
    cli = startCli(['dev', projectDir, '--port', String(port), '--database', DATABASE], {
      SUITE_DATA_DIR: dataDir,
    });
    await waitForOutput(
      cli,
      /watching api\/, hooks\/, jobs\/, mcp\/ and \.env; Ctrl-C stops everything/,
      BOOT_TIMEOUT_MS,
    );
    projectId = (await waitForOutput(cli, /project\s+([0-9a-f-]{36})/))[1]!;
    hostPort = Number((await waitForOutput(cli, /local host\s+http:\/\/127\.0\.0\.1:(\d+)/))[1]);
    sinkPort = Number((await waitForOutput(cli, /local sink on 127\.0\.0\.1:(\d+)/))[1]);
  }, BOOT_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    // SIGTERM first, so the command stops the host it started (a SIGKILL would orphan it).
    if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGTERM');
      const force = setTimeout(() => cli.child.kill('SIGKILL'), 20_000);
      await cli.exited;
      clearTimeout(force);
    }
    const link = join(projectDir, '.platform', 'project.json');
    projectId ??= existsSync(link)
      ? (JSON.parse(readFileSync(link, 'utf8')) as { projectId: string }).projectId
      : undefined;
    if (projectId) await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
    await adminQuery(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    const redis = createRedisConnection(process.env.REDIS_URL!);
    const keys = await redis.keys(`${REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    rmSync(projectDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('remembers the project of the directory in .platform/ and prints where everything is', () => {
    const link = JSON.parse(readFileSync(join(projectDir, '.platform', 'project.json'), 'utf8')) as {
      projectId: string;
    };
    expect(link.projectId).toBe(projectId);
    expect(cli.output()).toContain(`is served at http://localhost:${port}`);
    expect(cli.output()).toMatch(/deployed v1/);
  });

  it('serves public/ and the browser client built by the suite', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');
    const script = await fetch(`${base}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain("import { createClient } from '/_platform/client.js';");
    const client = await fetch(`${base}/_platform/client.js`);
    expect(client.headers.get('content-type')).toMatch(/javascript/);
    expect(await client.text()).toContain('export function createClient');
    expect((await fetch(`${base}/../package.json`)).status).toBe(404);
  });

  it('signs up and in through the local address, fires the auth hook and prints the welcome mail', async () => {
    const email = uniqueEmail('dev');
    const password = strongPassword();
    const from = cli.output().length;
    const client = createClient({ url: base, storage: memoryStorage() });
    const signedUp = await client.auth.signUp({ email, password, name: 'Ada' });
    expect(signedUp.accessToken).toEqual(expect.any(String));
    await client.auth.signOut();
    await client.auth.signIn.email({ email, password });
    expect((await client.auth.getUser()).user).toMatchObject({ email, name: 'Ada' });

    await waitForOutput(
      cli,
      new RegExp(`\\[project\\]\\s+\\[hook\\] user.created ${email} \\(Ada\\)`),
      30_000,
      from,
    );
    await waitForOutput(
      cli,
      new RegExp(`\\[hook\\] user.signed_in ${email} \\(Ada\\) via email`),
      30_000,
      from,
    );
    await waitForOutput(cli, new RegExp(`\\[mail\\]\\s+to ${email}: Welcome to`), 30_000, from);

    await expect(client.auth.signIn.email({ email, password: `${password}-wrong` })).rejects.toMatchObject({
      status: 401,
      code: 'invalid-credentials',
    });
    await waitForOutput(cli, /\[hook\] auth.failed invalid_credentials/, 30_000, from);
  });

  it('does not fire user.deleted, even when its local control plane deletes a user', async () => {
    const email = uniqueEmail('gone');
    const client = createClient({ url: base, storage: memoryStorage() });
    await client.auth.signUp({ email, password: strongPassword(), name: 'Gone' });
    const { user } = (await client.auth.getUser()) as { user: { id: string } };
    await waitForOutput(cli, new RegExp(`\\[hook\\] user.created ${email}`), 30_000);
    const { adminToken } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
      adminToken: string;
    };
    const from = cli.output().length;
    const deleted = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: hostPort,
          path: `/v1/projects/${projectId}/users/${user.id}`,
          method: 'DELETE',
          // The control plane answers on the platform's PUBLIC_URL host: the local address.
          headers: { host: `localhost:${port}`, authorization: `Bearer ${adminToken}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(deleted).toBe(204);
    // A fired hook prints within a second or two (see the sign-up test); give it ample time.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(cli.output().slice(from)).not.toMatch(/user\.deleted/);
  });

  it('serves the tools of mcp/ at /mcp of the local address, behind its OAuth consent page', async () => {
    expect(cli.output()).toContain(`mcp           ${base}/mcp`);
    // Discovery names the local address, the one the client calls.
    const unauthorized = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
    const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
    };
    expect(server.issuer).toBe(base);

    // A client registers, a person signs up on the consent page and allows it.
    const redirectUri = 'http://127.0.0.1:8976/callback';
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Dev probe',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const page = await fetch(
      `${base}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'st',
        resource: `${base}/mcp`,
      }).toString()}`,
    );
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const post = (fields: Record<string, string>) =>
      fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams(fields).toString(),
      });
    const email = uniqueEmail('dev-mcp');
    const signedUp = await post({
      ...hiddenFields(await page.text()),
      action: 'signup',
      email,
      password: strongPassword(),
    });
    expect(signedUp.status).toBe(200);
    const allowed = await post({ ...hiddenFields(await signedUp.text()), action: 'allow' });
    expect(allowed.status).toBe(303);
    const back = new URL(allowed.headers.get('location')!);
    expect(back.searchParams.get('iss')).toBe(base);
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };

    // The official SDK client calls the tool as that person.
    const mcp = new Client({ name: 'platform-dev-spec', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    try {
      expect((await mcp.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
      const result = (await mcp.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      expect(result.structuredContent).toEqual({ email });
    } finally {
      await mcp.close();
    }
  });

  it('answers each defineApi auth mode of the example', async () => {
    const email = uniqueEmail('modes');
    const client = createClient({ url: base, storage: memoryStorage() });
    await client.auth.signUp({ email, password: strongPassword() });
    const { accessToken } = client.auth.tokens()!;
    const bearer = { authorization: `Bearer ${accessToken}` };

    // auth: false, reading .env
    expect(await (await fetch(`${base}/api/hello`)).json()).toEqual({ message: 'Hello from Test Boards' });
    // 'required'
    expect((await fetch(`${base}/api/boards/list`)).status).toBe(401);
    expect(
      (await fetch(`${base}/api/boards/list`, { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    const boards = await client.get<{ owner: string; boards: unknown[] }>('/api/boards/list');
    expect(boards.owner).toBe(email);
    expect(boards.boards).toHaveLength(3);
    // 'optional'
    expect(await (await fetch(`${base}/api/whoami`)).json()).toEqual({ signedIn: false, email: null });
    expect(
      await (await fetch(`${base}/api/whoami`, { headers: { authorization: 'Bearer nope' } })).json(),
    ).toEqual({ signedIn: false, email: null });
    expect(await (await fetch(`${base}/api/whoami`, { headers: bearer })).json()).toEqual({
      signedIn: true,
      email,
    });
    // custom verifier
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/api/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ cards: 2 }),
      });
    expect((await post({})).status).toBe(401);
    expect((await post(bearer)).status).toBe(401);
    const imported = await post({ 'x-service-key': 'boards-demo-service-key' });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toEqual({ importedBy: 'Importer', received: { cards: 2 } });
  });

  it('prints magic-link mails from the local sink with a link that signs the user in', async () => {
    const email = uniqueEmail('magic');
    const client = createClient({ url: base, storage: memoryStorage() });
    await client.auth.signUp({ email, password: strongPassword() });
    const from = cli.output().length;
    const redirect = encodeURIComponent(`${base}/`);
    const asked = await fetch(
      `${base}/api/user/auth/magic-link?email=${encodeURIComponent(email)}&redirect_uri=${redirect}`,
    );
    expect(asked.status).toBe(200);

    await waitForOutput(cli, new RegExp(`\\[mail\\]\\s+to ${email}: Your sign-in link`), 30_000, from);
    const [, code] = await waitForOutput(
      cli,
      /link: http:\/\/localhost:\d+\/\?type=magic&code=([\w-]+)/,
      30_000,
      from,
    );
    const callback = await fetch(`${base}/api/user/auth/magic-link/callback?code=${code}`);
    expect(callback.status).toBe(200);
    expect(await callback.json()).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
  });

  it('redeploys an edited file, and keeps the last good deployment when an edit is broken', async () => {
    const file = join(projectDir, 'api', 'hello.ts');
    const original = readFileSync(file, 'utf8');
    let from = cli.output().length;
    writeFileSync(file, original.replace('Hello from', 'Hi again from'));
    await waitForOutput(cli, /deployed v2/, 60_000, from);
    expect(await (await fetch(`${base}/api/hello`)).json()).toEqual({ message: 'Hi again from Test Boards' });

    from = cli.output().length;
    writeFileSync(file, 'export default defineApi({{{');
    await waitForOutput(cli, /deploy failed \(400 invalid-request: api\/hello\.ts/, 60_000, from);
    await waitForOutput(cli, /deployment v2 keeps serving/, 5_000, from);
    expect(await (await fetch(`${base}/api/hello`)).json()).toEqual({ message: 'Hi again from Test Boards' });

    from = cli.output().length;
    writeFileSync(file, original);
    await waitForOutput(cli, /deployed v3/, 60_000, from);
    expect(await (await fetch(`${base}/api/hello`)).json()).toEqual({ message: 'Hello from Test Boards' });
  });

  it('refuses a port in use and a missing directory with a clear message', async () => {
    const busy = startCli(['dev', projectDir, '--port', String(port)], { SUITE_DATA_DIR: dataDir });
    expect(await busy.exited).toBe(1);
    expect(busy.output()).toContain(`port ${port} is already in use`);

    const missing = startCli(['dev', join(projectDir, 'nope')]);
    expect(await missing.exited).toBe(2);
    expect(missing.output()).toMatch(/nope does not exist/);
  });

  it('stops everything it started on SIGTERM', async () => {
    expect(await answers(hostPort)).toBe(true);
    expect(await answers(sinkPort)).toBe(true);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/stopped/);
    for (const closed of [port, hostPort, sinkPort]) expect(await answers(closed)).toBe(false);
    // The project is still there for the next run (its id stays in .platform/).
    expect(existsSync(join(projectDir, '.platform', 'project.json'))).toBe(true);
  });
});
