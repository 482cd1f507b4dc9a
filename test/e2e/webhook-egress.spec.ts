import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawRpc } from '../support/a2a-client.js';
import { A2aStack } from '../support/a2a-stack.js';
import { TestDns } from '../support/test-dns.js';

// Push-notification webhooks are public-only and connect to the address they checked. 127.0.0.2
// (allow-listed, reached as *.test names through a test DNS server) plays a public address; the
// listener on 127.0.0.1 plays the private service an attacker aims at and must never be called.

const KEY = 'webhook-egress-key';

describe('webhook egress', () => {
  const dns = new TestDns();
  let stack: A2aStack;
  const publicHits: string[] = [];
  const privateHits: string[] = [];
  const servers: Server[] = [];
  let port = 0;
  let n = 0;
  const rpc = (method: string, params: unknown) =>
    rawRpc(`${stack.gatewayUrl}/a2a`, { jsonrpc: '2.0', id: ++n, method, params }, { key: KEY });

  const newTask = async (): Promise<string> => {
    const created = await rpc('SendMessage', {
      message: { messageId: `egress-${++n}`, parts: [{ text: 'Open /' }] },
      configuration: { returnImmediately: true },
    });
    return (created.body.result!.task as { id: string }).id;
  };

  const until = async (what: string, check: () => boolean) => {
    const deadline = Date.now() + 45_000;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}\n${stack.pushWorker?.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    const resolver = await dns.start();
    const publicSide = createServer((req, res) => {
      publicHits.push(req.url ?? '');
      req.resume();
      if (req.url === '/redirect')
        return void res.writeHead(302, { location: `http://127.0.0.1:${port}/hook` }).end();
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => publicSide.listen(0, '127.0.0.2', resolve));
    port = (publicSide.address() as AddressInfo).port;
    const privateSide = createServer((req, res) => {
      privateHits.push(req.url ?? '');
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => privateSide.listen(port, '127.0.0.1', resolve));
    servers.push(publicSide, privateSide);
    stack = new A2aStack('webhook-egress', KEY, {
      PUSH_ALLOWED_HOSTS: '127.0.0.2',
      PUSH_DNS_SERVERS: resolver,
      PUSH_ATTEMPTS: '2',
      LOG_LEVEL: 'warn',
    });
    await stack.start();
    await stack.startPushWorker();
  }, 300_000);

  afterAll(async () => {
    await stack.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await dns.stop();
  });

  it.each([
    'file:///etc/passwd',
    'chrome://settings',
    'view-source:http://public.test/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:PORT/hook',
    'http://[::ffff:127.0.0.1]:PORT/hook',
    'http://2130706433:PORT/hook',
    'http://0177.0.0.1:PORT/hook',
    'http://0x7f.0.0.1:PORT/hook',
    'http://0.0.0.0:PORT/hook',
  ])('refuses %s when the config is created', async (url) => {
    const taskId = await newTask();
    const res = await rpc('CreateTaskPushNotificationConfig', {
      taskId,
      url: url.replace('PORT', String(port)),
    });
    expect(res.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/push notification url/),
    });
  });

  it('delivers to an allowed host', async () => {
    dns.set('public.test', '127.0.0.2');
    const taskId = await newTask();
    const created = await rpc('CreateTaskPushNotificationConfig', {
      taskId,
      url: `http://public.test:${port}/ok`,
    });
    expect(created.body.error).toBeUndefined();
    await rpc('CancelTask', { id: taskId });
    await until('the delivery', () => publicHits.includes('/ok'));
  });

  it('refuses a delivery when the name has rebound to 127.0.0.1 since the config was checked', async () => {
    dns.set('rebind.test', '127.0.0.2', '127.0.0.1');
    const taskId = await newTask();
    const created = await rpc('CreateTaskPushNotificationConfig', {
      taskId,
      url: `http://rebind.test:${port}/rebound`,
    });
    expect(created.body.error).toBeUndefined();
    await rpc('CancelTask', { id: taskId });
    await until('the refusal in the push worker log', () =>
      (stack.pushWorker?.output() ?? '').includes('rebind.test resolved to 127.0.0.1, a loopback address'),
    );
    expect(publicHits).not.toContain('/rebound');
    expect(privateHits).toEqual([]);
  });

  it('does not follow a redirect to 127.0.0.1', async () => {
    dns.set('public.test', '127.0.0.2');
    const taskId = await newTask();
    await rpc('CreateTaskPushNotificationConfig', { taskId, url: `http://public.test:${port}/redirect` });
    await rpc('CancelTask', { id: taskId });
    await until('the delivery to the redirecting hook', () => publicHits.includes('/redirect'));
    // Give a (wrongly) followed redirect time to arrive.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(privateHits).toEqual([]);
  });
});
