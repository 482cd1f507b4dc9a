import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BrowserPool,
  chromiumArgs,
  launchLocalBrowser,
  runningAsRoot,
  type BrowserSession,
} from '@suite/browser-agent';
import { createHostResolver, EgressPolicy } from '@suite/egress-policy';
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../support/app-process.js';
import { TestDns } from '../support/test-dns.js';

// The filtering proxy of each browser context, against real Chromium. "Public" addresses are
// stood in for by 127.0.0.2 (allow-listed) reached through a test DNS server; the private targets
// are listeners on 127.0.0.1 and ::1 that must never see a request. No traffic leaves loopback:
// every other address in these pages is an IP literal refused before any connection.

const policy = (allowedHosts: string[]) =>
  new EgressPolicy({
    mode: 'public-only',
    allowedHosts,
    modeSetting: 'BROWSER_NETWORK_POLICY',
    allowListSetting: 'BROWSER_ALLOWED_HOSTS',
    subject: 'browser network',
  });

describe('browser network policy (public-only, per context proxy)', () => {
  const dns = new TestDns();
  let pool: BrowserPool;
  let publicSite: Server;
  const privateHits: string[] = [];
  const privateServers: Server[] = [];
  let port = 0;
  let privatePort = 0;
  let resolverAddress = '';

  const record = (where: string) => (req: IncomingMessage) => privateHits.push(`${where} ${req.url}`);
  // Every socket the test servers accepted (upgraded ones included, which close() would wait for).
  const sockets = new Set<Socket>();
  const track = (server: Server): Server =>
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });

  beforeAll(async () => {
    resolverAddress = await dns.start();
    dns.set('public.test', '127.0.0.2');
    dns.set('rebind.test', '127.0.0.2', '127.0.0.1');
    dns.set('internal.test', '127.0.0.1');
    dns.set('localhost', '127.0.0.1');

    // The private side: loopback listeners that count every request and WebSocket upgrade.
    const secret = createServer((req, res) => {
      record('127.0.0.1')(req);
      res.end('secret');
    });
    secret.on('upgrade', (req, socket) => {
      record('127.0.0.1 upgrade')(req);
      socket.destroy();
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    privatePort = (secret.address() as AddressInfo).port;
    privateServers.push(track(secret));
    const secret6 = createServer((req, res) => {
      record('::1')(req);
      res.end('secret');
    });
    await new Promise<void>((resolve) => secret6.listen(privatePort, '::1', resolve)).catch(() => undefined);
    privateServers.push(track(secret6));

    const pages: Record<string, string> = {
      '/': `<!doctype html><title>Public</title><h1>Welcome</h1>
        <iframe srcdoc="<p>made by the page</p>"></iframe><iframe src="data:text/html,<p>inline</p>"></iframe>`,
      '/frames': `<!doctype html><title>Frames</title>
        <iframe src="http://169.254.169.254/latest/meta-data/"></iframe>
        <p id="fetch">pending</p>
        <script>
          fetch('http://169.254.169.254/latest/meta-data/').then(
            () => (document.getElementById('fetch').textContent = 'fetch reached'),
            () => (document.getElementById('fetch').textContent = 'fetch refused'));
        </script>`,
      '/literals': `<!doctype html><title>Literals</title><ul id="out"></ul>
        <script>
          const targets = ${JSON.stringify([
            'http://2130706433:PORT/decimal',
            'http://0177.0.0.1:PORT/octal',
            'http://0x7f.0.0.1:PORT/hex',
            'http://127.1:PORT/short',
            'http://[::1]:PORT/ipv6',
            'http://[::ffff:127.0.0.1]:PORT/mapped',
            'http://[::ffff:7f00:1]:PORT/mapped-hex',
            'http://[64:ff9b::7f00:1]:PORT/nat64',
            'http://0.0.0.0:PORT/unspecified',
            'http://localhost:PORT/name',
            'http://internal.test:PORT/dns',
          ])};
          window.results = Promise.all(targets.map((t) => fetch(t.replace('PORT', location.search.slice(1)), { mode: 'no-cors' })
            .then(() => t + ' answered', () => t + ' failed')));
        </script>`,
      '/download': `<!doctype html><title>Download</title><a id="get" href="/report.csv" download>Get the report</a>`,
      '/ws': `<!doctype html><title>WS</title><p id="ws">pending</p>
        <script>
          const ws = new WebSocket('ws://' + location.search.slice(1) + '/socket');
          ws.onopen = () => (document.getElementById('ws').textContent = 'ws open');
          ws.onerror = () => (document.getElementById('ws').textContent = 'ws refused');
        </script>`,
    };
    publicSite = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/redirect')
        return void res.writeHead(302, { location: `http://127.0.0.1:${privatePort}/secret` }).end();
      if (path === '/report.csv')
        return void res
          .writeHead(200, {
            'content-type': 'text/csv',
            'content-disposition': 'attachment; filename="report.csv"',
          })
          .end('a,b\n1,2\n');
      const body = pages[path];
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    // Completes WebSocket handshakes: a tunnel (CONNECT) to an allowed host must work.
    publicSite.on('upgrade', (req, socket) => {
      const accept = createHash('sha1')
        .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.end(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
    });
    track(publicSite);
    await new Promise<void>((resolve) => publicSite.listen(0, '127.0.0.2', resolve));
    port = (publicSite.address() as AddressInfo).port;

    pool = new BrowserPool({
      open: () => launchLocalBrowser({ warn: () => undefined }),
      network: {
        // 127.0.0.2 stands in for a public address.
        policy: policy(['127.0.0.2']),
        resolve: createHostResolver([resolverAddress]),
      },
    });
  }, 60_000);

  afterAll(async () => {
    await pool.close();
    await dns.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => publicSite.close(resolve));
    await Promise.all(privateServers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const withSession = async (run: (session: BrowserSession) => Promise<void>) => {
    const session = await pool.acquire();
    try {
      await run(session);
    } finally {
      await session.close();
    }
  };

  it('lets an allowed host through', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/`);
      expect(await page.title()).toBe('Public');
      expect(network!.blocked).toEqual([]);
    });
  });

  it('refuses loopback addresses, which Chromium would otherwise send around the proxy', async () => {
    await withSession(async ({ page, network }) => {
      const response = await page.goto(`http://127.0.0.1:${privatePort}/direct`).catch((e: Error) => e);
      expect(response).not.toBeInstanceOf(Error);
      expect(network!.blocked[0]?.message).toBe(
        `blocked by BROWSER_NETWORK_POLICY=public-only: 127.0.0.1 is a loopback address; set BROWSER_NETWORK_POLICY=allow-private or add 127.0.0.1 (or 127.0.0.1:${privatePort}) to BROWSER_ALLOWED_HOSTS`,
      );
    });
    expect(privateHits).toEqual([]);
  });

  it('refuses a redirect from an allowed host to 127.0.0.1', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/redirect`).catch(() => undefined);
      expect(network!.blocked[0]?.target).toBe(`http://127.0.0.1:${privatePort}/secret`);
    });
    expect(privateHits).toEqual([]);
  });

  it('refuses an iframe and a fetch() to the cloud metadata address', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/frames`);
      await page.waitForFunction(`document.getElementById('fetch').textContent !== 'pending'`);
      expect(await page.$eval('#fetch', (e) => e.textContent)).toBe('fetch refused');
      const messages = network!.blocked.map((b) => b.message);
      expect(messages.length).toBeGreaterThanOrEqual(2);
      for (const message of messages)
        expect(message).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
    });
  });

  it('refuses decimal, octal, hex, IPv6, IPv4-mapped and NAT64 forms of loopback, and names that resolve to it', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/literals?${privatePort}`);
      // The proxy answers each with its 403 (an opaque no-cors response): wait for all of them.
      await page.evaluate('window.results');
      const messages = network!.blocked.map((b) => b.message).join('\n');
      expect(messages).toContain('127.0.0.1 is a loopback address');
      expect(messages).toContain('::1 is a loopback address');
      expect(messages).toContain('internal.test resolved to 127.0.0.1, a loopback address');
      expect(messages).toMatch(/0\.0\.0\.0 is an unspecified address/);
      expect(network!.blocked.map((b) => b.target)).toEqual(
        expect.arrayContaining([
          `http://127.0.0.1:${privatePort}/decimal`,
          `http://127.0.0.1:${privatePort}/octal`,
          `http://127.0.0.1:${privatePort}/hex`,
          `http://127.0.0.1:${privatePort}/short`,
          `http://[::1]:${privatePort}/ipv6`,
          `http://[::ffff:7f00:1]:${privatePort}/mapped`,
          `http://[::ffff:7f00:1]:${privatePort}/mapped-hex`,
          `http://[64:ff9b::7f00:1]:${privatePort}/nat64`,
          `http://localhost:${privatePort}/name`,
          `http://internal.test:${privatePort}/dns`,
        ]),
      );
    });
    expect(privateHits).toEqual([]);
  });

  it('refuses a WebSocket to a private port', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/ws?127.0.0.1:${privatePort}`);
      await page.waitForFunction(`document.getElementById('ws').textContent !== 'pending'`);
      expect(await page.$eval('#ws', (e) => e.textContent)).toBe('ws refused');
      expect(network!.blocked.map((b) => b.target)).toContain(`127.0.0.1:${privatePort}`);
    });
    expect(privateHits).toEqual([]);
  });

  it('tunnels a WebSocket to an allowed host', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/ws?public.test:${port}`);
      await page.waitForFunction(`document.getElementById('ws').textContent !== 'pending'`);
      expect(await page.$eval('#ws', (e) => e.textContent)).toBe('ws open');
      expect(network!.blocked).toEqual([]);
    });
  });

  it('refuses what a popup opens on a private address', async () => {
    await withSession(async ({ page, network }) => {
      await page.goto(`http://public.test:${port}/`);
      await page.evaluate(`window.open('http://127.0.0.1:${privatePort}/popup')`);
      const deadline = Date.now() + 20_000;
      while (!network!.blocked.some((b) => b.target.endsWith('/popup')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(network!.blocked.map((b) => b.target)).toContain(`http://127.0.0.1:${privatePort}/popup`);
    });
    expect(privateHits).toEqual([]);
  });

  it('checks the address actually connected to: a name rebinding to 127.0.0.1 is refused', async () => {
    dns.set('rebind.test', '127.0.0.2', '127.0.0.1');
    await withSession(async ({ page, network }) => {
      await page.goto(`http://rebind.test:${port}/`);
      expect(await page.title()).toBe('Public');
      // The same name again: this time it resolves to loopback, and the connection is refused.
      await page.goto(`http://rebind.test:${port}/again`).catch(() => undefined);
      expect(network!.blocked.map((b) => b.message)).toContain(
        `blocked by BROWSER_NETWORK_POLICY=public-only: rebind.test resolved to 127.0.0.1, a loopback address; set BROWSER_NETWORK_POLICY=allow-private or add rebind.test (or rebind.test:${port}) to BROWSER_ALLOWED_HOSTS`,
      );
    });
    expect(privateHits).toEqual([]);
  });

  // Headless Chromium saves nothing by default either, so the refused half shows no file rather than
  // a refusal; the allowed half shows the setting is what lets a file through, into the job's folder.
  it('refuses downloads unless they are allowed, and then keeps them in a folder of the job', async () => {
    const findFile = (dir: string, name: string): string[] => {
      try {
        return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(name));
      } catch {
        return [];
      }
    };
    const download = async (session: BrowserSession) => {
      await session.page.goto(`http://public.test:${port}/download`);
      await session.page.click('#get');
      await new Promise((r) => setTimeout(r, 2_000));
    };
    let profile = '';
    await withSession(async (session) => {
      profile = String(
        session.browser.process()?.spawnargs.find((a) => a.startsWith('--user-data-dir=')),
      ).slice(16);
      await download(session);
      expect(session.network!.downloadPath).toBeUndefined();
    });
    expect(profile).not.toBe('');
    expect(findFile(profile, 'report.csv')).toEqual([]);

    const allowing = new BrowserPool({
      open: () => launchLocalBrowser({ warn: () => undefined }),
      network: {
        policy: policy(['127.0.0.2']),
        resolve: createHostResolver([resolverAddress]),
        allowDownloads: true,
      },
    });
    try {
      const session = await allowing.acquire();
      const folder = session.network!.downloadPath!;
      await download(session);
      const deadline = Date.now() + 20_000;
      while (!findFile(folder, 'report.csv').length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect(findFile(folder, 'report.csv')).toEqual(['report.csv']);
      await session.close();
      expect(existsSync(folder)).toBe(false);
    } finally {
      await allowing.close();
    }
  });

  it('keeps WebRTC from sending UDP around the proxy', async () => {
    const udp = createSocket('udp4');
    const packets: string[] = [];
    udp.on('message', (_msg, rinfo) => packets.push(`${rinfo.address}:${rinfo.port}`));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const stunPort = udp.address().port;
    try {
      await withSession(async ({ page }) => {
        await page.goto(`http://public.test:${port}/`);
        await page.evaluate(`(async () => {
          const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${stunPort}' }] });
          pc.createDataChannel('x');
          await pc.setLocalDescription(await pc.createOffer());
          await new Promise((resolve) => setTimeout(resolve, 1500));
          pc.close();
        })()`);
      });
      expect(packets).toEqual([]);
    } finally {
      udp.close();
    }
  });
});

describe('browser network policy (allow-private): service workers', () => {
  it("sends a service worker's requests through the context's proxy too", async () => {
    // A service worker needs a secure context: http://127.0.0.1 is one, and allow-private lets it load.
    const site = createServer((req, res) => {
      if (req.url === '/sw.js')
        return void res
          .writeHead(200, { 'content-type': 'text/javascript' })
          .end(
            `self.addEventListener('install', (e) => e.waitUntil(fetch('http://169.254.169.254/from-sw').catch(() => undefined)));`,
          );
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>SW</title><script>navigator.serviceWorker.register('/sw.js')</script>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const pool = new BrowserPool({
      open: () => launchLocalBrowser({ warn: () => undefined }),
      network: {
        policy: new EgressPolicy({
          mode: 'allow-private',
          allowedHosts: [],
          modeSetting: 'BROWSER_NETWORK_POLICY',
          allowListSetting: 'BROWSER_ALLOWED_HOSTS',
          subject: 'browser network',
        }),
      },
    });
    try {
      const session = await pool.acquire();
      await session.page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      const deadline = Date.now() + 20_000;
      while (!session.network!.blocked.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(session.network!.blocked.map((b) => b.target)).toContain('http://169.254.169.254/from-sw');
      await session.close();
    } finally {
      await pool.close();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('Chromium itself', () => {
  it('starts with a minimal environment: no database URL, keys or tokens', async () => {
    process.env.EGRESS_TEST_TOKEN = 'must-not-reach-chromium';
    const browser = await launchLocalBrowser({ warn: () => undefined });
    try {
      const pid = browser.process()!.pid!;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      const names = environ.map((line) => line.split('=')[0]);
      expect(names).not.toContain('EGRESS_TEST_TOKEN');
      expect(names).not.toContain('DATABASE_URL');
      expect(names).not.toContain('REDIS_URL');
      expect(environ.find((line) => line.startsWith('HOME='))).toMatch(/browser-agent-profile-/);
    } finally {
      delete process.env.EGRESS_TEST_TOKEN;
      await browser.close();
    }
  });

  it('keeps its sandbox unless this process runs as root, and warns once when it does', () => {
    const warnings: string[] = [];
    const first = chromiumArgs((m) => warnings.push(m));
    chromiumArgs((m) => warnings.push(m));
    expect(first.includes('--no-sandbox')).toBe(runningAsRoot());
    expect(chromiumArgs(() => undefined, 'off')).toContain('--no-sandbox');
    expect(warnings.length).toBeLessThanOrEqual(1);
  });

  // Run as an unprivileged user (as the image does), Chromium keeps its sandbox and still works.
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  (runningAsRoot() && setpriv ? it : it.skip)(
    'keeps its sandbox when not running as root',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sandbox-check-'));
      chmodSync(dir, 0o755);
      const script = join(dir, 'check.mjs');
      const dist = (lib: string) => pathToFileURL(join(repoRoot, 'libs', lib, 'dist', 'index.js')).href;
      writeFileSync(
        script,
        `import { launchLocalBrowser } from ${JSON.stringify(dist('browser-agent'))};
       const browser = await launchLocalBrowser({ warn: (m) => console.log('warned: ' + m) });
       const page = await browser.newPage();
       await page.goto('data:text/html,<title>sandboxed</title>');
       console.log(JSON.stringify({ uid: process.getuid(), title: await page.title(),
         noSandbox: browser.process().spawnargs.includes('--no-sandbox') }));
       await browser.close();`,
      );
      chmodSync(script, 0o644);
      try {
        const out = execFileSync(
          setpriv!,
          ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script],
          { env: { PATH: process.env.PATH, HOME: dir }, encoding: 'utf8', timeout: 60_000 },
        );
        expect(out).not.toContain('warned:');
        expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({
          uid: 65534,
          title: 'sandboxed',
          noSandbox: false,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
