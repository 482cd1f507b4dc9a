import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EgressBlockedError } from '@suite/egress-policy';
import type { PushConfig, PushConfigRepository } from '@suite/push-delivery';
import type { QueueName, TypedJob } from '@suite/queue';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PushDeliveryConsumer } from './push-delivery.consumer.js';
import type { PushWorkerConfig } from './push-worker.config.js';

// The delivery of one notification, over an in-memory config repository and a local webhook.

const received: { url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(text) as unknown });
      if (req.url === '/moved') return void res.writeHead(302, { location: '/elsewhere' }).end();
      res.writeHead(req.url === '/broken' ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function consumer(configs: PushConfig[], allowedHosts = ['127.0.0.1']) {
  const repository = {
    find: async (jobId: string, id: string) => configs.find((c) => c.jobId === jobId && c.id === id) ?? null,
  } as unknown as PushConfigRepository;
  return new PushDeliveryConsumer(repository, {
    PUSH_ALLOWED_HOSTS: allowedHosts,
    PUSH_DNS_SERVERS: [],
    PUSH_TIMEOUT_MS: 5_000,
  } as unknown as PushWorkerConfig);
}

const config = (id: string, path: string, extra: Partial<PushConfig> = {}): PushConfig =>
  ({
    id,
    jobId: 'job-1',
    owner: 'key',
    url: `${base}${path}`,
    token: null,
    authScheme: null,
    authCredentials: null,
    createdAt: new Date(),
    ...extra,
  }) as PushConfig;

const job = (configId: string, event: unknown = { statusUpdate: { taskId: 'job-1' } }) =>
  ({ data: { configId, jobId: 'job-1', event, trace: {} } }) as TypedJob<typeof QueueName.PushNotifications>;

describe('PushDeliveryConsumer', () => {
  it('POSTs the event with the config’s credentials and token', async () => {
    const hooks = [config('c1', '/hook', { token: 'tok', authScheme: 'Bearer', authCredentials: 'secret' })];
    await consumer(hooks).deliver(job('c1', { task: { id: 'job-1' } }));
    const hit = received.find((r) => r.url === '/hook')!;
    expect(hit.body).toEqual({ task: { id: 'job-1' } });
    expect(hit.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer secret',
      'x-a2a-notification-token': 'tok',
    });
  });

  it('sends nothing for a config deleted since the notification was queued', async () => {
    const before = received.length;
    await consumer([]).deliver(job('gone'));
    expect(received.length).toBe(before);
  });

  it('fails (so the queue retries) on an error answer and on a redirect, which it does not follow', async () => {
    await expect(consumer([config('c2', '/broken')]).deliver(job('c2'))).rejects.toThrow(/answered 500/);
    await expect(consumer([config('c3', '/moved')]).deliver(job('c3'))).rejects.toThrow(
      /answered 302 \(a redirect to \/elsewhere\); redirects are not followed/,
    );
    expect(received.some((r) => r.url === '/elsewhere')).toBe(false);
  });

  it('refuses a private address the allow-list does not name', async () => {
    const before = received.length;
    await expect(consumer([config('c4', '/hook')], []).deliver(job('c4'))).rejects.toBeInstanceOf(
      EgressBlockedError,
    );
    expect(received.length).toBe(before);
  });
});
