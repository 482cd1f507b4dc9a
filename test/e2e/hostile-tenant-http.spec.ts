import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { launchLocalBrowser } from '@suite/browser-agent';
import { startMockProvider, type MockProvider } from '../support/oidc-mock.js';
import { createTestProject, dropTestProject, uniqueEmail, type TestProject } from '../support/user-client.js';
import { ADMIN_TOKEN, controlPlane, deploy, deployArchive, signUp } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Abuse of a project host over plain HTTP, by anonymous clients and by hostile sibling projects:
// oversized bodies, cookies planted for the parent domain, admin-token guessing, /metrics reached
// directly. Real host process, Postgres, Redis and sandboxes; each case is the attack first.

const MB = 1024 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

interface Send {
  host: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Without Content-Length (chunked), so the server cannot refuse by the header alone. */
  chunked?: boolean;
  /** Sent in 64 KB pieces, each after the last one left, as a client on a real network does. */
  paced?: boolean;
  /** The client's own address (any of 127.0.0.0/8 reaches the host's 127.0.0.1 on Linux). */
  localAddress?: string;
}

/**
 * One request to the host on 127.0.0.1; resolves with the answer even when the server answered
 * before reading the whole body and closed the connection (the rest of the upload then fails).
 */
function send(port: number, options: Send): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
        localAddress: options.localAddress,
        headers: {
          host: options.host,
          ...options.headers,
          ...(options.body !== undefined && !options.chunked
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => undefined);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (options.body === undefined) return void req.end();
    if (!options.chunked && !options.paced) return void req.end(options.body);
    // 64 KB pieces, as a slow client would stream them; paced: each once the last one left.
    const body = Buffer.from(options.body);
    void (async () => {
      for (let at = 0; at < body.length && !req.destroyed; at += 64 * 1024) {
        const piece = body.subarray(at, at + 64 * 1024);
        if (!options.paced) req.write(piece);
        else await new Promise<void>((done) => req.write(piece, () => setImmediate(done)));
      }
      if (!req.destroyed) req.end();
    })();
  });
}

/**
 * A raw upload that sends the headers and a first piece, waits until the host has answered (and
 * had the time to close), then sends the rest: what a client on a slow link does.
 */
async function slowUpload(
  port: number,
  hostName: string,
  path: string,
  bytes: number,
): Promise<{ answer: string; error?: string }> {
  // Half-open allowed: a client goes on sending after the host's FIN, as curl and browsers do.
  const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
  await once(socket, 'connect');
  let answer = '';
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
  const first = 64 * 1024;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostName}\r\nContent-Type: application/octet-stream\r\n` +
      `Content-Length: ${bytes}\r\n\r\n`,
  );
  socket.write(randomBytes(first));
  while (!answer.includes('\r\n\r\n') && !error && !socket.destroyed) await once(socket, 'data');
  await new Promise((done) => setTimeout(done, 300));
  const rest = randomBytes(bytes - first);
  for (let at = 0; at < rest.length && !error; at += 256 * 1024) {
    await new Promise<void>((done) =>
      socket.write(rest.subarray(at, at + 256 * 1024), (e) => {
        if (e) error ??= (e as NodeJS.ErrnoException).code ?? e.message;
        done();
      }),
    );
  }
  await new Promise((done) => setTimeout(done, 100));
  socket.destroy();
  return { answer, error };
}

let host: Host;
let provider: MockProvider;
const projects: TestProject[] = [];

async function project(): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

beforeAll(async () => {
  provider = await startMockProvider();
  host = await startProjectHost({
    ...GENEROUS_LIMITS,
    // Counters of its own: other specs' wrong tokens from 127.0.0.1 never count here.
    REDIS_PREFIX: `${infra.REDIS_PREFIX}-hostile-http`,
    IDP_ISSUER_URL: provider.issuer,
    IDP_CLIENT_ID: 'platform-client',
    IDP_CLIENT_SECRET: 'platform-secret',
  });
});

afterAll(async () => {
  await host?.app.stop();
  await provider?.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

/** `api/echo.ts` tells what body it got; `api/ping.ts` answers the sandbox's own random id. */
const BODY_PROJECT = {
  'api/echo.ts': `import { defineApi } from '@suite/platform-sdk';
    import { createHash } from 'node:crypto';
    export default defineApi({ handler: async ({ request }) => {
      const body = request.body;
      if (Buffer.isBuffer(body))
        return { kind: 'buffer', bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') };
      if (typeof body === 'string') return { kind: 'text', chars: body.length, head: body.slice(0, 20) };
      return { kind: typeof body, keys: body && typeof body === 'object' ? Object.keys(body).length : null };
    } });`,
  'api/ping.ts': `import { defineApi } from '@suite/platform-sdk';
    const sandbox = Math.random().toString(36).slice(2);
    export default defineApi({ handler: () => ({ ok: true, sandbox }) });`,
};

describe('oversized bodies', () => {
  let p: TestProject;

  beforeAll(async () => {
    p = await project();
    expect((await deploy(host, p.id, BODY_PROJECT)).status).toBe(201);
  });

  it("answers ten parallel anonymous 5 MB octet-stream bodies with 413 {code,message} while the project's other route keeps answering", async () => {
    const before = await send(host.port, { host: p.host, path: '/api/ping' });
    expect(before.status).toBe(200);
    const sandbox = (before.json as { sandbox: string }).sandbox;

    const body = randomBytes(5 * MB);
    const uploads = Array.from({ length: 10 }, (_, i) =>
      send(host.port, {
        host: p.host,
        path: '/api/echo',
        headers: { 'content-type': 'application/octet-stream' },
        body,
        chunked: i % 2 === 1,
      }),
    );
    const pings = Array.from({ length: 5 }, () => send(host.port, { host: p.host, path: '/api/ping' }));
    const [answers, pinged] = await Promise.all([Promise.all(uploads), Promise.all(pings)]);

    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(Object.keys(answer.json as object).sort()).toEqual(['code', 'message']);
      expect(answer.json).toMatchObject({ code: 'payload_too_large' });
    }
    for (const ping of pinged) expect(ping.status).toBe(200);
    // Nothing reached the sandbox: the same one still answers (it was neither overrun nor restarted).
    const after = await send(host.port, { host: p.host, path: '/api/ping' });
    expect(after.json).toEqual({ ok: true, sandbox });
  });

  it('lets a client that is still uploading read the 413 (the rest of the body is read and dropped, not reset)', async () => {
    // Before: the host closed the socket with the upload unread, the kernel reset it, and a client
    // that went on sending got EPIPE/ECONNRESET, often before it had read the answer.
    for (const path of ['/api/echo', '/api/user/auth/login']) {
      const upload = await slowUpload(host.port, p.host, path, 5 * MB);
      expect(upload.error).toBeUndefined();
      expect(upload.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(upload.answer).toContain('"code":"payload_too_large"');
    }
  });

  it('cuts off a client that goes on uploading far past the limit', async () => {
    // Content-Length of 200 MB, sent until the host ends the connection: it reads and drops a
    // bounded part (16 MB) of a refused body, never all of it.
    const declared = 200 * MB;
    const sent = await new Promise<number>((resolve) => {
      let bytes = 0;
      const req = request({
        host: '127.0.0.1',
        port: host.port,
        path: '/api/echo',
        method: 'POST',
        headers: {
          host: p.host,
          'content-type': 'application/octet-stream',
          'content-length': String(declared),
        },
      });
      req.on('response', (res) => res.resume());
      req.on('error', () => resolve(bytes));
      req.on('close', () => resolve(bytes));
      const piece = randomBytes(256 * 1024);
      const pump = (): void => {
        if (req.destroyed || bytes >= declared) return;
        bytes += piece.length;
        req.write(piece, () => setImmediate(pump));
      };
      pump();
    });
    expect(sent).toBeGreaterThan(MB);
    expect(sent).toBeLessThan(declared);
  });

  it('answers a gzip body over the limit on a project route with 413 too', async () => {
    const res = await send(host.port, {
      host: p.host,
      path: '/api/echo',
      headers: { 'content-type': 'application/gzip' },
      body: randomBytes(2 * MB),
      paced: true,
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: 'payload_too_large' });
  });

  it('hands a binary body within the limit to the handler as a Buffer of the same bytes', async () => {
    const body = randomBytes(700 * 1024);
    for (const type of ['application/octet-stream', 'image/png']) {
      const res = await send(host.port, {
        host: p.host,
        path: '/api/echo',
        headers: { 'content-type': type },
        body,
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        kind: 'buffer',
        bytes: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
      });
    }
  });

  it('hands text as a string and JSON up to the project limit as parsed JSON', async () => {
    const csv = await send(host.port, {
      host: p.host,
      path: '/api/echo',
      headers: { 'content-type': 'text/csv' },
      body: 'a,b\n1,2\n',
    });
    expect(csv.json).toEqual({ kind: 'text', chars: 8, head: 'a,b\n1,2\n' });
    // 300 KB of JSON: past the 64 KB of the platform's own routes, within the project's 1 MB.
    const items = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'x'.repeat(20)]));
    const json = await send(host.port, {
      host: p.host,
      path: '/api/echo',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    expect(json.status).toBe(200);
    expect(json.json).toEqual({ kind: 'object', keys: 10_000 });
  });

  it('refuses an octet-stream body on the platform routes (415, or 413 past their 64 KB) without parsing it', async () => {
    const big = await send(host.port, {
      host: p.host,
      path: '/api/user/auth/login',
      headers: { 'content-type': 'application/octet-stream' },
      body: randomBytes(5 * MB),
    });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ code: 'payload_too_large' });
    const small = await send(host.port, {
      host: `localhost:${host.port}`,
      path: `/v1/projects/${p.id}/auth`,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: randomBytes(1024),
    });
    expect(small.status).toBe(415);
    expect(Object.keys(small.json as object).sort()).toEqual(['code', 'message']);
  });

  it('still accepts a deployment as a tar.gz archive (up to 5 MB)', async () => {
    const padding = randomBytes(1536 * 1024).toString('base64'); // ~2 MB of text, ~1.5 MB compressed
    const res = await deployArchive(host, p.id, {
      ...BODY_PROJECT,
      'api/padding.json': JSON.stringify({ padding }),
    });
    expect(res.status).toBe(201);
    expect((await send(host.port, { host: p.host, path: '/api/ping' })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Cookie tossing: project code of a sibling host serves text/html whose script sets cookies for
// the parent domain, which the browser then sends to the callback's host (PUBLIC_URL) and to every
// other project host.
// ---------------------------------------------------------------------------------------------

const APP = `http://127.0.0.1:5173/after-sign-in`;

function locationOf(answer: Answer): URL {
  const value = answer.headers.location;
  if (typeof value !== 'string') throw new Error(`no Location (status ${answer.status}): ${answer.text}`);
  return new URL(value);
}

function cookieOf(answer: Answer): { name: string; value: string; line: string } {
  const header = answer.headers['set-cookie'];
  const line = (Array.isArray(header) ? header[0] : header) ?? '';
  const [pair = ''] = line.split(';');
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1), line };
}

/** Start route → hand-off on the callback's host (with `cookie`, what the browser holds there). */
async function startSignIn(target: TestProject, cookie?: string) {
  const start = await send(host.port, {
    host: target.host,
    path: `/api/user/auth/idp?redirect_uri=${encodeURIComponent(APP)}`,
  });
  expect(start.status).toBe(302);
  const hop = locationOf(start);
  const handed = await send(host.port, {
    host: hop.host,
    path: hop.pathname + hop.search,
    headers: cookie ? { cookie } : {},
  });
  expect(handed.status).toBe(302);
  const atProvider = await fetch(locationOf(handed), { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location')!);
  return { callback, cookie: cookieOf(handed), state: callback.searchParams.get('state')! };
}

function openCallback(callback: URL, cookie: string | undefined): Promise<Answer> {
  return send(host.port, {
    host: callback.host,
    path: callback.pathname + callback.search,
    headers: cookie ? { cookie } : {},
  });
}

describe('cookie tossing between project hosts', () => {
  let victimProject: TestProject;
  let sibling: TestProject;

  beforeAll(async () => {
    victimProject = await project();
    sibling = await project();
    const res = await controlPlane(host).put(`/v1/projects/${victimProject.id}/auth`, {
      enabled: true,
      emailPassword: true,
      allowSignups: true,
      idpMode: 'platform',
    });
    expect(res.status).toBe(200);
  });

  // A browser refuses `Domain=localhost`, so the cookies a sibling sets for a real parent domain
  // (`*.projects.example.com`) are written into the Cookie header here by hand, before the
  // browser's own, as a browser orders older, broader cookies. What a sibling cannot plant is a
  // `__Host-` cookie of another host: browsers keep those only from the host itself (the browser
  // case below shows the real one working).
  it('a binding cookie a sibling planted for the parent domain cannot bind a sign-in callback', async () => {
    const attackerClaims = { sub: `sub-${randomBytes(6).toString('hex')}`, email: uniqueEmail('tosser') };
    provider.claims = { ...attackerClaims, email_verified: true, name: 'Mallory' };
    const planted = randomBytes(32).toString('base64url');
    // The attacker starts a sign-in in their own browser, holding the key they plant elsewhere…
    const attacker = await startSignIn(victimProject, `ua_idp_browser=${planted}`);

    // The victim's browser holds, for the parent domain, every cookie a sibling can set: the key
    // planted, and the attacker's own key under this sign-in's cookie name without the prefix.
    const unprefixed = attacker.cookie.name.replace(/^__Host-/, '');
    const tossed = [
      `ua_idp_browser=${planted}`,
      `${unprefixed}=${attacker.cookie.value}`,
      `${unprefixed}=${planted}`,
    ].join('; ');
    const res = await openCallback(attacker.callback, tossed);
    expect(res.status).toBe(302);
    const final = locationOf(res);
    expect(final.searchParams.get('accessToken')).toBeNull();
    expect(final.searchParams.get('error')).toBe('invalid_state');
    // The attacker's browser got a key of the server's own, never the one it brought.
    expect(attacker.cookie.name).toMatch(/^__Host-ua_idp_[0-9a-f]{16}$/);
    expect(attacker.cookie.value).not.toBe(planted);
  });

  it("the planted cookies, sent first, do not stop the victim's own sign-in", async () => {
    provider.claims = {
      sub: `sub-${randomBytes(6).toString('hex')}`,
      email: uniqueEmail('victim'),
      email_verified: true,
    };
    const victim = await startSignIn(victimProject);
    const unprefixed = victim.cookie.name.replace(/^__Host-/, '');
    const header = [
      `ua_idp_browser=${randomBytes(32).toString('base64url')}`,
      `${unprefixed}=${randomBytes(32).toString('base64url')}`,
      `${victim.cookie.name}=${victim.cookie.value}`,
    ].join('; ');
    const res = await openCallback(victim.callback, header);
    expect(res.status).toBe(302);
    expect(locationOf(res).searchParams.get('accessToken')).toBeTruthy();
    // The callback spends the cookie.
    expect(cookieOf(res).line).toMatch(new RegExp(`^${victim.cookie.name}=; Max-Age=0`));
  });

  it("a 16 KB cookie header (a sibling's cookie bomb) does not break another project's /api/user routes", async () => {
    const tokens = await signUp(sibling);
    const bomb = Array.from({ length: 16 }, (_, i) => `bomb${i}=${'x'.repeat(1000)}`).join('; ');
    const me = await send(host.port, {
      host: sibling.host,
      path: '/api/user/me',
      headers: { cookie: bomb, authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email: tokens.email });
    const login = await send(host.port, {
      host: sibling.host,
      path: '/api/user/auth/login',
      headers: { cookie: bomb, 'content-type': 'application/json' },
      body: JSON.stringify({ email: tokens.email, password: tokens.password }),
    });
    expect(login.status).toBe(200);
  });

  it('in a real browser: a sibling page cannot plant the binding cookie, and the sign-in works with the __Host- cookie', async () => {
    // The sibling serves HTML whose script tries every cookie it could toss at the callback's host.
    const page = `<!doctype html><script>
      document.cookie = 'ua_idp_browser=planted; domain=localhost; path=/';
      document.cookie = '__Host-ua_idp_planted=planted; path=/; secure';
      document.cookie = 'ua_idp_browser=planted; path=/';
    </script><p>hello</p>`;
    expect(
      (
        await deploy(host, sibling.id, {
          'api/page.ts': `import { defineApi, reply } from '@suite/platform-sdk';
            export default defineApi({ handler: () => reply(200, ${JSON.stringify(page)}, { 'content-type': 'text/html' }) });`,
        })
      ).status,
    ).toBe(201);
    provider.claims = {
      sub: `sub-${randomBytes(6).toString('hex')}`,
      email: uniqueEmail('browser'),
      email_verified: true,
    };
    const browser = await launchLocalBrowser();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://${sibling.host}/api/page`);
      const back = `http://localhost:${host.port}/health`;
      await tab.goto(
        `http://${victimProject.host}/api/user/auth/idp?redirect_uri=${encodeURIComponent(back)}`,
      );
      const landed = new URL(tab.url());
      expect(landed.origin + landed.pathname).toBe(back);
      expect(landed.searchParams.get('error')).toBeNull();
      expect(landed.searchParams.get('accessToken')).toBeTruthy();
      // Nothing the sibling set reached the callback's host.
      const cookies = await tab.cookies(`http://localhost:${host.port}/internal/auth/idp/callback`);
      expect(cookies.map((c) => c.name)).not.toContain('ua_idp_browser');
      expect(cookies.map((c) => c.name)).not.toContain('__Host-ua_idp_planted');
    } finally {
      await browser.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Guessing the admin token. Each attacker connects from an address of its own (on Linux, any of
// 127.0.0.0/8 reaches the host's 127.0.0.1), as the host sees it with TRUSTED_PROXY_HOPS=0.
// ---------------------------------------------------------------------------------------------

describe('admin token guessing', () => {
  const controlHost = () => `localhost:${host.port}`;
  const check = (from: string, token: string, headers: Record<string, string> = {}) =>
    send(host.port, {
      host: controlHost(),
      path: '/v1/admin/token-check',
      localAddress: from,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ token }),
    });
  const api = (from: string, token: string, path: string) =>
    send(host.port, {
      host: controlHost(),
      path,
      localAddress: from,
      headers: { authorization: `Bearer ${token}` },
    });

  it('answers 429 with Retry-After after 10 wrong tokens from one address, whatever X-Forwarded-For it sends; the right token still works from another', async () => {
    const p = await project();
    const attacker = '127.0.0.2';
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) {
      // A spoofed X-Forwarded-For changes nothing: no proxy is trusted.
      answers.push(
        await check(attacker, `guess-${i}-${randomBytes(8).toString('hex')}`, {
          'x-forwarded-for': `203.0.113.${i}`,
        }),
      );
    }
    expect(answers.slice(0, 10).map((a) => [a.status, a.json])).toEqual(
      Array.from({ length: 10 }, () => [200, { valid: false }]),
    );
    for (const answer of answers.slice(10)) {
      expect(answer.status).toBe(429);
      expect(answer.json).toMatchObject({ code: 'rate_limited' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The control-plane API from that address: held off too, the right token included.
    const guessed = await api(attacker, 'another-guess-0123456789', `/v1/projects/${p.id}`);
    expect(guessed.status).toBe(429);
    expect(Number(guessed.headers['retry-after'])).toBeGreaterThan(0);
    expect((await api(attacker, ADMIN_TOKEN, `/v1/projects/${p.id}`)).status).toBe(429);
    expect((await check(attacker, ADMIN_TOKEN)).status).toBe(429);

    // The operator elsewhere is not affected.
    const operator = '127.0.0.3';
    expect((await api(operator, ADMIN_TOKEN, `/v1/projects/${p.id}`)).status).toBe(200);
    expect((await check(operator, ADMIN_TOKEN)).json).toEqual({ valid: true });
  });

  it('parallel guesses cannot slip past the budget', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api('127.0.0.4', `parallel-guess-${i}-0123456789`, '/v1/tenant-servers'),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('a request without a token guesses nothing and is not counted', async () => {
    for (let i = 0; i < 15; i++) {
      const res = await send(host.port, {
        host: controlHost(),
        path: '/v1/tenant-servers',
        localAddress: '127.0.0.5',
      });
      expect(res.status).toBe(401);
    }
    expect((await api('127.0.0.5', ADMIN_TOKEN, '/v1/tenant-servers')).status).toBe(200);
  });
});
