import { describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  classifyAddress,
  EgressBlockedError,
  EgressPolicy,
  navigationSchemeProblem,
  parseAllowList,
  parseIp,
  pinnedLookup,
  pinnedRequest,
  resolveChecked,
} from './index.js';

const browserPolicy = (mode: 'public-only' | 'allow-private', allowedHosts: string[] = []) =>
  new EgressPolicy({
    mode,
    allowedHosts,
    modeSetting: 'BROWSER_NETWORK_POLICY',
    allowListSetting: 'BROWSER_ALLOWED_HOSTS',
    subject: 'browser network',
  });

describe('IP literals in every form', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('reads %s as %s', (input, canonical) => {
    expect(parseIp(input)?.address).toBe(canonical);
  });

  it.each(['example.com', '1.2.3.4.5', '256.1.1.1', '08.1.1.1', 'localhost', '1.2.3.0xg'])(
    'does not take %s for an IP',
    (input) => {
      expect(parseIp(input)).toBeUndefined();
    },
  );
});

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.1.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['93.184.215.14', 'public'],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'public'],
    ['::ffff:93.184.215.14', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('the policy', () => {
  it('refuses loopback and private addresses in public-only mode and says which setting to change', () => {
    const decision = browserPolicy('public-only').check('127.0.0.1', 8080, '127.0.0.1');
    expect(decision).toMatchObject({ allowed: false, rule: 'BROWSER_NETWORK_POLICY=public-only' });
    expect(!decision.allowed && decision.message).toBe(
      'blocked by BROWSER_NETWORK_POLICY=public-only: 127.0.0.1 is a loopback address; set BROWSER_NETWORK_POLICY=allow-private or add 127.0.0.1 (or 127.0.0.1:8080) to BROWSER_ALLOWED_HOSTS',
    );
    const mapped = browserPolicy('public-only').check('::ffff:127.0.0.1', 80, '::ffff:127.0.0.1');
    expect(!mapped.allowed && mapped.message).toContain('::ffff:7f00:1 (127.0.0.1) is a loopback address');
    const named = browserPolicy('public-only').check('intranet.test', 80, '10.0.0.5');
    expect(!named.allowed && named.message).toContain(
      'intranet.test resolved to 10.0.0.5, a private address',
    );
  });

  it('lets loopback and private addresses through in allow-private mode, never link-local or metadata', () => {
    const policy = browserPolicy('allow-private');
    expect(policy.check('127.0.0.1', 80, '127.0.0.1').allowed).toBe(true);
    expect(policy.check('10.0.0.1', 80, '10.0.0.1').allowed).toBe(true);
    const metadata = policy.check('169.254.169.254', 80, '169.254.169.254');
    expect(metadata).toMatchObject({ allowed: false, addressClass: 'metadata' });
    expect(!metadata.allowed && metadata.message).toMatch(
      /every BROWSER_NETWORK_POLICY mode.*add 169\.254\.169\.254 .*to BROWSER_ALLOWED_HOSTS/,
    );
    expect(policy.check('0.0.0.0', 80, '0.0.0.0').allowed).toBe(false);
  });

  it('lets allow-listed names, host:port pairs and CIDRs through, and nothing else', () => {
    const policy = browserPolicy('public-only', [
      'app.internal',
      '10.0.0.7:8080',
      '192.168.50.0/24',
      '[fd00::1]:443',
      '169.254.169.254',
    ]);
    expect(policy.check('app.internal', 9, '10.9.9.9').allowed).toBe(true);
    expect(policy.check('10.0.0.7', 8080, '10.0.0.7').allowed).toBe(true);
    expect(policy.check('10.0.0.7', 8081, '10.0.0.7').allowed).toBe(false);
    expect(policy.check('x.test', 80, '192.168.50.20').allowed).toBe(true);
    expect(policy.check('x.test', 80, '192.168.51.20').allowed).toBe(false);
    expect(policy.check('fd00::1', 443, 'fd00::1').allowed).toBe(true);
    expect(policy.check('169.254.169.254', 80, '169.254.169.254').allowed).toBe(true);
  });

  it('reports allow-list entries it cannot read', () => {
    expect(parseAllowList(['ok.test', 'bad host', '10.0.0.0/33', 'h:port']).problems).toHaveLength(3);
    expect(() => browserPolicy('public-only', ['10.0.0.0/99'])).toThrow(/BROWSER_ALLOWED_HOSTS/);
  });

  it('opens only http, https and about:blank', () => {
    expect(navigationSchemeProblem('https://example.com')).toBeUndefined();
    expect(navigationSchemeProblem('about:blank')).toBeUndefined();
    for (const url of [
      'file:///etc/passwd',
      'chrome://settings',
      'view-source:http://example.com',
      'data:text/html,hi',
      'javascript:alert(1)',
      'about:config',
      'ftp://example.com',
    ]) {
      expect(navigationSchemeProblem(url)).toMatch(
        /^blocked by the browser network policy: .* cannot be opened/,
      );
    }
  });
});

describe('pinned resolution', () => {
  it('checks every resolved address and refuses the host when one is private', async () => {
    const policy = browserPolicy('public-only', ['127.0.0.2']);
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    const resolve = async () => answers.shift() ?? [];
    await expect(resolveChecked(policy, resolve, 'rebind.test', 80)).resolves.toMatchObject({
      addresses: [{ address: '127.0.0.2', family: 4 }],
    });
    await expect(resolveChecked(policy, resolve, 'rebind.test', 80)).rejects.toThrow(
      'rebind.test resolved to 127.0.0.1, a loopback address',
    );
    await expect(
      resolveChecked(policy, async () => ['127.0.0.2', '10.0.0.1'], 'mixed.test', 80),
    ).rejects.toBeInstanceOf(EgressBlockedError);
    await expect(resolveChecked(policy, resolve, '0x7f000001', 80)).rejects.toThrow(
      /127\.0\.0\.1 is a loopback/,
    );
  });

  it('answers lookups with the checked addresses only', async () => {
    const lookup = pinnedLookup({
      host: 'a.test',
      port: 80,
      addresses: [{ address: '127.0.0.2', family: 4 }],
    });
    const all = await new Promise((resolve) => lookup('a.test', { all: true }, (_e, a) => resolve(a)));
    expect(all).toEqual([{ address: '127.0.0.2', family: 4 }]);
    const other = await new Promise((resolve) => lookup('b.test', {}, (e) => resolve(e?.code)));
    expect(other).toBe('ENOTFOUND');
  });
});

describe('pinned requests', () => {
  const listen = (host: string, handler: Parameters<typeof createServer>[1]) =>
    new Promise<Server>((resolve) => {
      const server = createServer(handler);
      server.listen(0, host, () => resolve(server));
    });

  it('connects to the address it checked, even when the name resolves elsewhere afterwards', async () => {
    const seen: string[] = [];
    const stand = await listen('127.0.0.2', (req, res) => {
      seen.push(`allowed ${req.url}`);
      res.end('ok');
    });
    const port = (stand.address() as AddressInfo).port;
    const secret = await listen('127.0.0.1', (_req, res) => {
      seen.push('secret');
      res.end('secret');
    }).catch(() => undefined);
    try {
      const policy = browserPolicy('public-only', ['127.0.0.2']);
      // First answer checked and pinned; a later one (the rebinding) is never asked for.
      const answers = [['127.0.0.2'], ['127.0.0.1']];
      const resolve = async () => answers.shift() ?? [];
      const response = await pinnedRequest(new URL(`http://rebind.test:${port}/hook`), {
        policy,
        resolve,
        timeoutMs: 10_000,
        body: '{}',
      });
      expect(response).toMatchObject({ status: 200, address: '127.0.0.2' });
      await expect(
        pinnedRequest(new URL(`http://rebind.test:${port}/hook`), { policy, resolve, timeoutMs: 10_000 }),
      ).rejects.toThrow(/127\.0\.0\.1, a loopback address/);
      expect(seen).toEqual(['allowed /hook']);
    } finally {
      stand.close();
      secret?.close();
    }
  });

  it('does not follow redirects', async () => {
    const server = await listen('127.0.0.1', (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    });
    try {
      const port = (server.address() as AddressInfo).port;
      const response = await pinnedRequest(new URL(`http://127.0.0.1:${port}/`), {
        policy: browserPolicy('public-only', ['127.0.0.1']),
        resolve: async () => [],
        timeoutMs: 10_000,
      });
      expect(response).toMatchObject({ status: 302, location: 'http://169.254.169.254/latest/meta-data' });
    } finally {
      server.close();
    }
  });

  it('reads a body up to maxBodyBytes, refuses a larger one, and discards it when not asked', async () => {
    const server = await listen('127.0.0.1', (req, res) => {
      const size = req.url === '/big' ? 2_000 : 10;
      // Chunked (no Content-Length): the limit is enforced on what arrives, not on what is declared.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(size));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const options = {
        method: 'GET',
        policy: browserPolicy('public-only', ['127.0.0.1']),
        resolve: async () => [],
        timeoutMs: 10_000,
      };
      const small = await pinnedRequest(new URL(`${base}/small`), { ...options, maxBodyBytes: 1_000 });
      expect(small.body?.toString()).toBe('x'.repeat(10));
      expect(small.headers['content-type']).toBe('application/json');
      await expect(
        pinnedRequest(new URL(`${base}/big`), { ...options, maxBodyBytes: 1_000 }),
      ).rejects.toThrow(/larger than 1000 bytes/);
      expect((await pinnedRequest(new URL(`${base}/big`), options)).body).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
