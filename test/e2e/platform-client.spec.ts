import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { launchLocalBrowser } from '@suite/browser-agent';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { repoRoot } from '../support/app-process.js';
import {
  createTestProject,
  dropTestProject,
  strongPassword,
  uniqueEmail,
  type TestProject,
} from '../support/user-client.js';
import { deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The platform client in real headless Chromium against a running project host. The page is served
// by the project itself (a defineApi route returning HTML), so the client talks to its own origin.
// In-page code is written as strings: the test type-check has no DOM library.

let host: Host;
let browser: Browser;
let project: TestProject;
let base: string;

const esbuild = createRequire(join(repoRoot, 'apps', 'project-host', 'package.json'))('esbuild') as {
  build(options: object): Promise<{ outputFiles: { text: string }[] }>;
};

async function clientBundle(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(repoRoot, 'libs', 'platform-client', 'src', 'index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'Platform',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/**
 * Both tabs call `auth.refresh()` at once and return the refresh token each ends with. "At once": a
 * refresh request waits until both tabs have asked for a refresh (on a busy machine one tab's whole
 * refresh could otherwise finish before the other tab asks, and that second refresh would rightly
 * send the new token again).
 */
async function refreshAtOnce(a: Page, b: Page): Promise<unknown[]> {
  const bothAsked = async () => {
    for (;;) {
      const asked = await Promise.all([a, b].map((p) => p.evaluate('window.__refreshAsked === true')));
      if (asked.every(Boolean)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  for (const page of [a, b]) {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const held = request.url().endsWith('/api/user/auth/refresh') && request.method() === 'POST';
      void (held ? bothAsked() : Promise.resolve()).then(() => request.continue());
    });
  }
  const refresh = `(async () => {
    const pending = ${CLIENT}.auth.refresh();
    window.__refreshAsked = true;
    return (await pending).refreshToken;
  })()`;
  return Promise.all([a.evaluate(refresh), b.evaluate(refresh)]);
}

async function openPage(query = ''): Promise<{ page: Page; refreshes: () => number }> {
  const page = await browser.newPage();
  let refreshes = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/user/auth/refresh') && request.method() === 'POST') refreshes++;
  });
  const response = await page.goto(`${base}/api/page${query}`);
  expect(response?.status()).toBe(200);
  return { page, refreshes: () => refreshes };
}

const CLIENT = 'Platform.createClient({ url: location.origin })';

beforeAll(async () => {
  host = await startProjectHost(GENEROUS_LIMITS);
  project = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  base = `http://${project.slug}.localhost:${host.port}`;
  const res = await deploy(host, project.id, {
    'api/_client.ts': `export const CLIENT = ${JSON.stringify(await clientBundle())};`,
    'api/page.ts': `import { defineApi } from '@suite/platform-sdk';
      import { CLIENT } from './_client';
      export default defineApi({ handler: () => new Response(
        '<!doctype html><title>client</title><script>' + CLIENT + '</script>',
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      ) });`,
    'api/boards/list.ts': `import { defineApi } from '@suite/platform-sdk';
      export default defineApi({ auth: 'required', handler: ({ user }) => ({ boards: ['todo'], email: user.email }) });`,
    'api/notify.ts': `import { defineApi } from '@suite/platform-sdk';
      export default defineApi({ auth: 'required', methods: ['POST'], handler: async ({ user, push }) => {
        await push.send({ userId: user.id, title: 'Hello', body: 'to ' + user.email });
        return { sent: true };
      } });`,
  });
  expect(res.status).toBe(201);
  browser = await launchLocalBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.app.stop();
  if (project) await dropTestProject(infra.DATABASE_URL, project);
});

describe('platform client in Chromium', () => {
  const email = uniqueEmail('client');
  const password = strongPassword();

  it('signs up, keeps the tokens under platform:{url}:… and calls a protected API through the path builder', async () => {
    const { page } = await openPage();
    const result = await page.evaluate(`(async () => {
      const client = ${CLIENT};
      const pair = await client.auth.signUp({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)}, name: 'Ada' });
      return {
        stored: localStorage.getItem('platform:' + location.origin + ':accessToken') === pair.accessToken
          && localStorage.getItem('platform:' + location.origin + ':refreshToken') === pair.refreshToken,
        boards: await client.api.boards.list.get(),
        viaGet: await client.get('/api/boards/list'),
        user: (await client.auth.getUser()).user,
        locks: !!navigator.locks,
      };
    })()`);
    expect(result).toEqual({
      stored: true,
      boards: { boards: ['todo'], email },
      viaGet: { boards: ['todo'], email },
      user: { id: expect.any(String), email, name: 'Ada', picture: null },
      locks: true,
    });
    await page.close();
  });

  it('fetch refreshes once on 401 and retries, even for concurrent calls', async () => {
    const { page, refreshes } = await openPage();
    const result = await page.evaluate(`(async () => {
      const client = ${CLIENT};
      await client.auth.signIn.email({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)} });
      const before = localStorage.getItem('platform:' + location.origin + ':refreshToken');
      localStorage.setItem('platform:' + location.origin + ':accessToken', 'expired.or.bad');
      const answers = await Promise.all([client.fetch('/api/boards/list'), client.fetch('/api/boards/list'), client.api.boards.list.get()]);
      return {
        statuses: answers.slice(0, 2).map((r) => r.status),
        third: answers[2],
        rotated: localStorage.getItem('platform:' + location.origin + ':refreshToken') !== before,
      };
    })()`);
    expect(result).toEqual({ statuses: [200, 200], third: { boards: ['todo'], email }, rotated: true });
    expect(refreshes()).toBe(1);
    await page.close();
  });

  it('two tabs refreshing at once send one refresh between them and end with the same tokens', async () => {
    const a = await openPage();
    const b = await openPage();
    await a.page.evaluate(
      `${CLIENT}.auth.signIn.email({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)} })`,
    );
    const [ra, rb] = await refreshAtOnce(a.page, b.page);
    expect(ra).toBe(rb);
    expect(a.refreshes() + b.refreshes()).toBe(1);
    await a.page.close();
    await b.page.close();
  });

  it('without Web Locks (the localStorage fallback) two tabs still send one refresh and share the pair', async () => {
    const a = await openPage();
    const b = await openPage();
    const noLocks = `Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true })`;
    await a.page.evaluate(noLocks);
    await b.page.evaluate(noLocks);
    await a.page.evaluate(
      `${CLIENT}.auth.signIn.email({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)} })`,
    );
    const [ra, rb] = await refreshAtOnce(a.page, b.page);
    expect(ra).toBe(rb);
    expect(a.refreshes() + b.refreshes()).toBe(1);
    // The shared pair works: the session was not revoked as a reuse.
    const me = await b.page.evaluate(`${CLIENT}.auth.getUser().then((r) => r.user && r.user.email)`);
    expect(me).toBe(email);
    await a.page.close();
    await b.page.close();
  });

  it('consumeTokenFromUrl stores the pair from the address and strips it with replaceState', async () => {
    const { page } = await openPage('?keep=1&accessToken=acc-1&refreshToken=ref-1');
    const result = await page.evaluate(`(() => {
      const client = ${CLIENT};
      const pair = client.auth.consumeTokenFromUrl();
      return { pair, search: location.search, again: client.auth.consumeTokenFromUrl()};
    })()`);
    expect(result).toEqual({
      pair: { accessToken: 'acc-1', refreshToken: 'ref-1' },
      search: '?keep=1',
      again: null,
    });
    await page.close();
  });

  it('push.subscribe receives ctx.push messages over a ticketed EventSource and ends at sign-out', async () => {
    const { page } = await openPage();
    const urls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/_platform/push')) urls.push(request.url());
    });
    const result = await page.evaluate(`(async () => {
      const client = ${CLIENT};
      await client.auth.signIn.email({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)} });
      const seen = [];
      let ended;
      const gotEnd = new Promise((resolve) => (ended = resolve));
      let wake;
      const gotMessage = new Promise((resolve) => (wake = resolve));
      client.push.subscribe({ onMessage: (m) => { seen.push(m); wake(); }, onEnd: (reason) => ended(reason) });
      // Until the stream is open a push has no listener: send again until one arrives.
      for (let i = 0; seen.length === 0; i++) {
        await client.api.notify.post({});
        await Promise.race([gotMessage, new Promise((r) => setTimeout(r, 250))]);
      }
      await client.auth.signOut();
      return { message: seen[0], end: await gotEnd };
    })()`);
    expect(result).toEqual({
      message: { title: 'Hello', body: `to ${email}`, data: null, at: expect.any(String) },
      end: 'signed-out',
    });
    expect(urls.some((u) => /\/api\/_platform\/push\?ticket=[A-Za-z0-9_-]{43}$/.test(u))).toBe(true);
    expect(urls.every((u) => !u.includes('access_token') && !u.includes('eyJ'))).toBe(true);
    await page.close();
  });

  it('signOut revokes the refresh token and forgets the tokens', async () => {
    const { page } = await openPage();
    const result = await page.evaluate(`(async () => {
      const client = ${CLIENT};
      const pair = await client.auth.signIn.email({ email: ${JSON.stringify(email)}, password: ${JSON.stringify(password)} });
      await client.auth.signOut();
      const reuse = await fetch('/api/user/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: pair.refreshToken }) });
      return { tokens: client.auth.tokens(), user: (await client.auth.getUser()).user, reuse: reuse.status };
    })()`);
    expect(result).toEqual({ tokens: null, user: null, reuse: 401 });
    await page.close();
  });
});
