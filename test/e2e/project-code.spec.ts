import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from '../support/app-process.js';
import { createTestProject, dropTestProject, type TestProject } from '../support/user-client.js';
import { ADMIN_TOKEN, controlPlane, deploy, signUp } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Deploying project code and serving its APIs (defineApi auth modes, reserved routes, isolation)
// against a real project host process, Postgres and Redis.

let host: Host;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

const API = {
  'api/public.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: ({ request, user }) => ({ method: request.method, path: request.path, q: request.query, user }) });`,
  'api/boards/list.ts': `import { defineApi } from '@suite/platform-sdk';
    import { boards } from '../_lib/boards';
    export default defineApi({ auth: 'required', methods: ['GET'], handler: ({ user }) => ({ boards, user }) });`,
  'api/_lib/boards.ts': `export const boards = ['todo', 'done'];`,
  'api/maybe.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ auth: 'optional', handler: ({ user }) => ({ user }) });`,
  'api/custom.ts': `import { defineApi, reply } from '@suite/platform-sdk';
    export default defineApi({
      auth: async ({ headers }) => headers['x-api-key'] === 'sesame' ? { id: 'robot', email: 'robot@example.com', name: null, picture: null } : null,
      handler: ({ user, request }) => reply(201, { user, body: request.body }, { 'x-from': 'project' }),
    });`,
  'api/env.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: ({ env }) => ({ env, processEnv: Object.keys(process.env) }) });`,
  'api/user.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => ({ hijacked: true }) });`,
  'api/user/me.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => ({ hijacked: true }) });`,
  '.env': 'GREETING="hello there"\nSECRET_OF_A=a-only',
};

const HOSTILE = {
  'api/throws.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => { throw new Error('boom'); } });`,
  'api/loop.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ timeoutMs: 3000, handler: () => { for (;;) {} } });`,
  'api/exit.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => { process.exit(1); } });`,
  'api/snoop.ts': `import { defineApi } from '@suite/platform-sdk';
    import { readFileSync } from 'node:fs';
    const attempt = (f) => { try { return String(f()).slice(0, 200); } catch (e) { return 'refused: ' + e.code; } };
    export default defineApi({ handler: () => ({
      environ: attempt(() => readFileSync('/proc/' + process.ppid + '/environ', 'utf8')),
      selfEnviron: attempt(() => readFileSync('/proc/self/environ', 'utf8')),
      passwd: attempt(() => readFileSync('/etc/passwd', 'utf8')),
      databaseUrl: process.env.DATABASE_URL ?? null,
      adminToken: process.env.PLATFORM_ADMIN_TOKEN ?? null,
    }) });`,
  'api/hog.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => { const all = []; for (;;) all.push(new Array(1e6).fill(Math.random())); } });`,
  'api/ok.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => ({ ok: true }) });`,
};

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
});

afterAll(async () => {
  await host?.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('deploy validation', () => {
  it('needs the admin token on the control-plane host', async () => {
    const p = await project();
    const res = await controlPlane(host)
      .withToken(undefined)
      .post(`/v1/projects/${p.id}/deployments`, { files: {} });
    expect(res.status).toBe(401);
    const onProjectHost = await controlPlane(host)
      .at(p.host)
      .post(`/v1/projects/${p.id}/deployments`, { files: {} });
    expect(onProjectHost.status).toBe(404);
  });

  it('refuses an API file without a default export, or whose default is not defineApi', async () => {
    const p = await project();
    const none = await deploy(host, p.id, { 'api/a.ts': 'export const x = 1;' });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({
      code: 'invalid-request',
      message: expect.stringMatching(/default-export/),
    });
    const plain = await deploy(host, p.id, { 'api/a.ts': 'export default () => 1;' });
    expect(plain.status).toBe(400);
  });

  it('refuses hooks/auth.ts without a default export, and a non-boolean blocking, with invalid_auth_hook', async () => {
    const p = await project();
    const none = await deploy(host, p.id, { 'hooks/auth.ts': 'export const x = 1;' });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ code: 'invalid_auth_hook' });
    const blocking = await deploy(host, p.id, {
      'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
        export default defineAuthHook({ blocking: 'yes' as unknown as boolean });`,
    });
    expect(blocking.status).toBe(400);
    expect(blocking.json).toMatchObject({
      code: 'invalid_auth_hook',
      message: expect.stringMatching(/blocking/),
    });
  });

  it('clamps timeoutMs to 30 s, defaults it to 10 s, and registers only hooks/auth.ts', async () => {
    const p = await project();
    const res = await deploy(host, p.id, {
      'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
        import { note } from './lib/note';
        export default defineAuthHook({ blocking: true, timeoutMs: 99_000, onUserCreated: note });`,
      'hooks/lib/note.ts': 'export const note = async () => undefined;',
      'hooks/other.ts': 'export default 42;',
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      version: 1,
      status: 'active',
      hook: { blocking: true, timeoutMs: 30_000, handlers: ['onUserCreated'] },
    });
    const second = await deploy(host, p.id, {
      'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk'; export default defineAuthHook({});`,
    });
    expect(second.json).toMatchObject({ version: 2, hook: { blocking: false, timeoutMs: 10_000 } });
    const noHook = await deploy(host, p.id, {});
    expect(noHook.json).toMatchObject({ version: 3, hook: null, routes: [] });
  });

  it('refuses code that does not compile or imports outside its folder', async () => {
    const p = await project();
    const broken = await deploy(host, p.id, { 'api/a.ts': 'export default defineApi({ handler: () => ' });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ message: expect.stringMatching(/does not compile/) });
    const outside = await deploy(host, p.id, {
      'api/a.ts': `import x from '../hooks/secret'; export default x;`,
      'hooks/secret.ts': 'export default 1;',
    });
    expect(outside.status).toBe(400);
    const climbing = await deploy(host, p.id, { 'api/../../x.ts': 'export default 1;' });
    expect(climbing.status).toBe(400);
  });

  it('accepts a tar.gz of the project (the example boards project)', async () => {
    const p = await project();
    const dir = mkdtempSync(join(tmpdir(), 'pc-tar-'));
    const example = join(repoRoot, 'test', 'fixtures', 'projects', 'boards');
    execFileSync('tar', ['-czf', join(dir, 'p.tgz'), '-C', example, '.']);
    const archive = readFileSync(join(dir, 'p.tgz'));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: `/v1/projects/${p.id}/deployments`,
          method: 'POST',
          headers: {
            host: `localhost:${host.port}`,
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'content-type': 'application/gzip',
            'content-length': String(archive.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(archive);
    });
    expect(status).toBe(201);
    expect((await p.client.request('GET', '/api/boards/public')).body).toEqual({ title: 'Team boards' });
    expect((await p.client.request('GET', '/api/boards/_boards')).status).toBe(404);
    const user = await signUp(p);
    const list = await p.client.request('GET', '/api/boards/list', { bearer: user.accessToken });
    expect(list.body).toMatchObject({ owner: user.email, boards: [{ title: 'To do' }, { title: 'Done' }] });
  });
});

describe('defineApi routes and auth modes', () => {
  let p: TestProject;
  let tokens: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    p = await project();
    const res = await deploy(host, p.id, API);
    expect(res.status).toBe(201);
    expect((res.json as { routes: { path: string }[] }).routes.map((r) => r.path).sort()).toEqual([
      '/api/boards/list',
      '/api/custom',
      '/api/env',
      '/api/maybe',
      '/api/public',
    ]);
    tokens = await signUp(p);
  });

  it('serves api/<path>.ts at /api/<path> for every method, public by default', async () => {
    const get = await p.client.request('GET', '/api/public?x=1');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ method: 'GET', path: '/api/public', q: { x: '1' }, user: null });
    const post = await p.client.request('POST', '/api/public', { json: {} });
    expect(post.body).toMatchObject({ method: 'POST' });
    expect((await p.client.request('GET', '/api/nothing')).status).toBe(404);
  });

  it("'required' answers 401 without or with a bad Bearer and gives the handler the token's user", async () => {
    expect((await p.client.request('GET', '/api/boards/list')).status).toBe(401);
    expect((await p.client.request('GET', '/api/boards/list', { bearer: 'not.a.token' })).status).toBe(401);
    const ok = await p.client.request('GET', '/api/boards/list', { bearer: tokens.accessToken });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      boards: ['todo', 'done'],
      // email_verified: from the access token (a password sign-up never proved its address).
      user: {
        id: expect.any(String),
        email: tokens.email,
        name: 'Ada',
        picture: null,
        email_verified: false,
      },
    });
    const post = await p.client.request('POST', '/api/boards/list', { bearer: tokens.accessToken, json: {} });
    expect(post.status).toBe(405);
  });

  it("'optional' turns an invalid token into user null and still runs the handler", async () => {
    expect((await p.client.request('GET', '/api/maybe', { bearer: 'garbage' })).body).toEqual({ user: null });
    const ok = await p.client.request('GET', '/api/maybe', { bearer: tokens.accessToken });
    expect(ok.body).toMatchObject({ user: { email: tokens.email } });
  });

  it('a custom verifier decides: null gives 401, a user reaches the handler', async () => {
    expect((await p.client.request('POST', '/api/custom', { json: { a: 1 } })).status).toBe(401);
    const ok = await p.client.request('POST', '/api/custom', {
      json: { a: 1 },
      headers: { 'x-api-key': 'sesame' },
    });
    expect(ok.status).toBe(201);
    expect(ok.headers['x-from']).toBe('project');
    expect(ok.body).toEqual({
      user: { id: 'robot', email: 'robot@example.com', name: null, picture: null },
      body: { a: 1 },
    });
  });

  it('never lets project code take the reserved /api/user routes', async () => {
    const me = await p.client.request('GET', '/api/user/me', { bearer: tokens.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: tokens.email });
    expect((await p.client.request('GET', '/api/user')).status).toBe(404);
    expect((await p.client.request('GET', '/api/user/anything')).status).toBe(404);
  });

  it("gives the handler the deployment's .env and none of the host's environment", async () => {
    const res = await p.client.request('GET', '/api/env');
    expect(res.body).toMatchObject({ env: { GREETING: 'hello there', SECRET_OF_A: 'a-only' } });
    expect((res.body as { processEnv: string[] }).processEnv).not.toContain('DATABASE_URL');
  });
});

describe('response headers of project code', () => {
  it('drops cookies for other hosts, hop-by-hop, framing and platform headers; keeps the rest', async () => {
    const p = await project();
    const res = await deploy(host, p.id, {
      'api/headers.ts': `import { defineApi, reply } from '@suite/platform-sdk';
        export default defineApi({ handler: () => reply(200, { ok: true }, {
          'set-cookie': ['theme=dark; Path=/', 'sid=stolen; Domain=localhost; Path=/', 'platform_session=x; Path=/'],
          connection: 'close', 'keep-alive': 'timeout=1', 'transfer-encoding': 'chunked', upgrade: 'h2c',
          'proxy-authenticate': 'Basic', 'content-length': '1',
          'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
          'clear-site-data': '"cookies", "storage"', 'alt-svc': 'h3=":443"',
          'x-accel-redirect': '/internal/secrets', 'x-platform-project': 'another', 'x-suite-role': 'admin',
          location: 'javascript:alert(document.cookie)',
          'access-control-allow-origin': 'https://app.example.com', 'x-kept': 'yes',
        } as unknown as Record<string, string>) });`,
    });
    expect(res.status).toBe(201);
    const answer = await p.client.request('GET', '/api/headers');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true });
    expect(answer.headers['set-cookie']).toEqual(['theme=dark; Path=/']);
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
    // The host's own Connection and Keep-Alive stand, not the project's.
    expect(answer.headers.connection).not.toBe('close');
    expect(answer.headers['keep-alive']).not.toBe('timeout=1');
    for (const name of [
      'transfer-encoding',
      'upgrade',
      'proxy-authenticate',
      'strict-transport-security',
      'clear-site-data',
      'alt-svc',
      'x-accel-redirect',
      'x-platform-project',
      'x-suite-role',
      'location',
    ]) {
      expect([name, answer.headers[name]]).toEqual([name, undefined]);
    }
    // Logged by name and reason (the host's log reaches its stdout a moment later), never by value.
    const deadline = Date.now() + 5_000;
    while (!/project response headers dropped/.test(host.app.output()) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const logged = host.app.output();
    expect(logged).toMatch(/"name":"set-cookie","reason":"cookie-domain"/);
    expect(logged).not.toMatch(/stolen/);
  });
});

describe('hostile project code', () => {
  let evil: TestProject;
  let other: TestProject;

  beforeAll(async () => {
    evil = await project();
    other = await project();
    expect((await deploy(host, evil.id, HOSTILE)).status).toBe(201);
    expect((await deploy(host, other.id, { ...API, '.env': 'SECRET_OF_B=b-only' })).status).toBe(201);
  });

  it('a throw is a 500 for that request only', async () => {
    const res = await evil.client.request('GET', '/api/throws');
    expect(res.status).toBe(500);
    expect(res.text).not.toMatch(/boom/);
    expect((await evil.client.request('GET', '/api/ok')).body).toEqual({ ok: true });
  });

  it('an infinite loop is stopped at its timeout, and neither the host nor other projects wait', async () => {
    const started = Date.now();
    // Compared by order, not by a time budget: the other project answers while the loop still spins.
    const [loop, elsewhere] = await Promise.all([
      evil.client.request('GET', '/api/loop').then((res) => ({ res, at: Date.now() })),
      (async () => {
        await new Promise((r) => setTimeout(r, 200));
        const res = await other.client.request('GET', '/api/public');
        return { res, at: Date.now() };
      })(),
    ]);
    expect(loop.res.status).toBe(504);
    expect(loop.at - started).toBeGreaterThanOrEqual(3_000);
    expect(elsewhere.res.status).toBe(200);
    expect(elsewhere.at).toBeLessThan(loop.at);
    expect((await evil.client.request('GET', '/api/ok')).body).toEqual({ ok: true });
  });

  it('process.exit ends only the sandbox; the next call gets a fresh one', async () => {
    expect((await evil.client.request('GET', '/api/exit')).status).toBe(500);
    expect((await evil.client.request('GET', '/api/ok')).body).toEqual({ ok: true });
    expect((await fetch(`http://127.0.0.1:${host.port}/health`)).status).toBe(200);
  });

  it('a heap blow-up ends only the sandbox', async () => {
    const res = await evil.client.request('GET', '/api/hog');
    expect([500, 504]).toContain(res.status);
    expect((await evil.client.request('GET', '/api/ok')).body).toEqual({ ok: true });
    expect((await other.client.request('GET', '/api/public')).status).toBe(200);
  });

  it("cannot read the host's environment, files or another project's settings", async () => {
    const res = await evil.client.request('GET', '/api/snoop');
    const body = res.body as Record<string, string | null>;
    expect(body.databaseUrl).toBeNull();
    expect(body.adminToken).toBeNull();
    for (const key of ['environ', 'selfEnviron', 'passwd']) expect(body[key]).toMatch(/^refused/);
    const otherEnv = await evil.client.request('GET', '/api/env');
    expect(otherEnv.status).toBe(404);
    expect(JSON.stringify((await other.client.request('GET', '/api/env')).body)).not.toMatch(/a-only/);
  });
});
