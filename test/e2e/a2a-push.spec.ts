import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { a2aClient, rawRpc } from '../support/a2a-client.js';
import { A2aStack } from '../support/a2a-stack.js';
import { insertApiKey } from '../support/runner-client.js';

// A2A push notifications: configs through JSON-RPC, deliveries to a local webhook (allowed by
// PUSH_ALLOWED_HOSTS, as loopback is refused otherwise), retried through the BullMQ queue.

const KEY = 'a2a-push-key';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

describe('A2A push notifications', () => {
  const stack = new A2aStack('a2a-push', KEY, { PUSH_ALLOWED_HOSTS: '127.0.0.1' });
  const deliveries: Delivery[] = [];
  /** How many deliveries to refuse (503), per notification token: they must be retried. */
  const refuse: Record<string, number> = { 'notify-token': 1, restart: 1 };
  const refused: Record<string, number> = {};
  let hook: Server;
  let hookUrl = '';
  let n = 0;
  const rpc = (method: string, params: unknown, key = KEY) =>
    rawRpc(`${stack.gatewayUrl}/a2a`, { jsonrpc: '2.0', id: ++n, method, params }, { key });

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const token = String(req.headers['x-a2a-notification-token'] ?? '');
        if ((refuse[token] ?? 0) > 0) {
          refuse[token]! -= 1;
          refused[token] = (refused[token] ?? 0) + 1;
          return void res.writeHead(503).end();
        }
        deliveries.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
    await stack.start();
    await stack.startWorker();
    await stack.startPushWorker();
  }, 300_000);

  afterAll(async () => {
    await stack.stop();
    await new Promise((resolve) => hook.close(resolve));
  });

  it('an inline config in SendMessage receives every task change, with its credentials and token', async () => {
    const res = await rpc('SendMessage', {
      message: {
        messageId: 'push-1',
        parts: [
          { text: 'Open /thanks. The page contains "Thanks"' },
          { data: { initial_url: stack.siteUrl } },
        ],
      },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: {
          url: hookUrl,
          token: 'notify-token',
          authentication: { scheme: 'Bearer', credentials: 'hook-secret' },
        },
      },
    });
    const { id } = res.body.result!.task as { id: string };
    const deadline = Date.now() + 45_000;
    const final = () => deliveries.find((d) => (d.body.task as { id?: string } | undefined)?.id === id);
    while (!final()) {
      if (Date.now() > deadline) throw new Error(`no final notification: ${JSON.stringify(deliveries)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const last = final()!;
    expect(refused['notify-token']).toBe(1); // the refused first delivery came again
    expect(last.headers.authorization).toBe('Bearer hook-secret');
    expect(last.headers['x-a2a-notification-token']).toBe('notify-token');
    expect(last.body).toMatchObject({
      task: { id, status: { state: 'TASK_STATE_COMPLETED' }, artifacts: expect.any(Array) },
    });
    // Each change is a delivery of its own, retried on its own: the refused one (often the WORKING
    // update, the first) comes again after its backoff, which a fast task's final may overtake.
    const working = () =>
      deliveries.filter((d) => {
        const update = d.body.statusUpdate as { taskId?: string; status?: { state?: string } } | undefined;
        return update?.taskId === id && update.status?.state === 'TASK_STATE_WORKING';
      });
    while (working().length === 0) {
      if (Date.now() > deadline) throw new Error(`no WORKING notification: ${JSON.stringify(deliveries)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(working()[0]!.headers.authorization).toBe('Bearer hook-secret');
  });

  it('a config created while the task works is told at once that it works, then of its end', async () => {
    const created = await rpc('SendMessage', {
      message: {
        messageId: 'push-late',
        parts: [
          { text: 'Open /slow?ms=3000. The page contains "Loaded"' },
          { data: { initial_url: stack.siteUrl } },
        ],
      },
      configuration: { returnImmediately: true },
    });
    const id = (created.body.result!.task as { id: string }).id;
    // The task is working before the config exists: its WORKING change happened before anyone followed it.
    const deadline = Date.now() + 45_000;
    for (;;) {
      const task = (await rpc('GetTask', { id })).body.result as { status: { state: string } };
      if (task.status.state === 'TASK_STATE_WORKING') break;
      if (Date.now() > deadline) throw new Error(`the task never worked: ${task.status.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const config = await rpc('CreateTaskPushNotificationConfig', { taskId: id, url: hookUrl, token: 'late' });
    expect(config.body.error).toBeUndefined();
    const ofTask = () => deliveries.filter((d) => d.headers['x-a2a-notification-token'] === 'late');
    while (!ofTask().some((d) => (d.body.task as { id?: string } | undefined)?.id === id)) {
      if (Date.now() > deadline) throw new Error(`no final notification: ${JSON.stringify(ofTask())}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(ofTask()[0]!.body).toMatchObject({
      statusUpdate: { taskId: id, status: { state: 'TASK_STATE_WORKING' } },
    });
  });

  it('a stream that ends early does not silence the notifications of its task', async () => {
    const aborted = new AbortController();
    const res = await fetch(`${stack.gatewayUrl}/a2a`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'early',
        method: 'SendStreamingMessage',
        params: {
          message: {
            messageId: 'push-early',
            parts: [
              { text: 'Open /slow?ms=2000. The page contains "Loaded"' },
              { data: { initial_url: stack.siteUrl } },
            ],
          },
          configuration: { taskPushNotificationConfig: { url: hookUrl, token: 'early' } },
        },
      }),
      signal: aborted.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // One read can carry more than one event: the first event is the task.
    const firstEvent = first.split('\n\n')[0]!;
    const id = (JSON.parse(firstEvent.replace(/^data: /, '').trim()) as { result: { task: { id: string } } })
      .result.task.id;
    aborted.abort(); // the client goes away while the task runs
    const deadline = Date.now() + 45_000;
    while (!deliveries.some((d) => (d.body.task as { id?: string } | undefined)?.id === id)) {
      if (Date.now() > deadline) throw new Error('no final notification after the stream ended');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('configs are created, read, listed and deleted per task, by its owner only', async () => {
    const created = await rpc('SendMessage', {
      message: { messageId: 'push-2', parts: [{ text: 'Open /' }, { data: { initial_url: stack.siteUrl } }] },
      configuration: { returnImmediately: true },
    });
    const taskId = (created.body.result!.task as { id: string }).id;
    const client = await a2aClient(stack.gatewayUrl, KEY);
    const config = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'cfg-1',
      taskId,
      url: hookUrl,
      token: 't1',
      authentication: undefined,
    });
    expect(config).toMatchObject({ id: 'cfg-1', taskId, url: hookUrl, token: 't1' });
    const snake = await rpc('CreateTaskPushNotificationConfig', { task_id: taskId, url: hookUrl });
    expect(snake.body.result).toMatchObject({ taskId, url: hookUrl, id: expect.any(String) });

    expect((await rpc('GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' })).body.result).toMatchObject({
      id: 'cfg-1',
    });
    const list = await rpc('ListTaskPushNotificationConfigs', { taskId });
    expect((list.body.result!.configs as unknown[]).length).toBe(2);
    expect(list.body.result!.nextPageToken).toBe('');

    const other = (await insertApiKey(`push-other-${Date.now()}`)).key;
    expect(
      (await rpc('GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' }, other)).body.error!.code,
    ).toBe(-32001);
    expect(
      (await rpc('CreateTaskPushNotificationConfig', { taskId, url: hookUrl }, other)).body.error!.code,
    ).toBe(-32001);

    expect((await rpc('DeleteTaskPushNotificationConfig', { taskId, id: 'cfg-1' })).body.result).toEqual({});
    expect((await rpc('GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' })).body.error!.code).toBe(
      -32602,
    );
  });

  it('refuses webhooks on private, link-local and metadata addresses with -32602', async () => {
    const created = await rpc('SendMessage', {
      message: { messageId: 'push-3', parts: [{ text: 'Open /' }, { data: { initial_url: stack.siteUrl } }] },
      configuration: { returnImmediately: true },
    });
    const taskId = (created.body.result!.task as { id: string }).id;
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://192.168.0.10/hook',
      'ftp://example.com/hook',
    ]) {
      const res = await rpc('CreateTaskPushNotificationConfig', { taskId, url });
      expect(res.body.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/push notification url/),
      });
    }
    // A key of its own: the API_KEYS owner is shared with specs running beside this one.
    const own = (await insertApiKey(`push-inline-${Date.now()}`)).key;
    const inline = await rpc(
      'SendMessage',
      {
        message: { messageId: 'push-4', parts: [{ text: 'Open /' }] },
        configuration: { taskPushNotificationConfig: { url: 'http://127.0.0.2/hook' } },
      },
      own,
    );
    expect(inline.body.error!.code).toBe(-32602);
    expect((await rpc('ListTasks', {}, own)).body.result!.totalSize).toBe(0); // no task was left behind
  });

  it('deliveries and followed tasks survive a gateway restart', async () => {
    const res = await rpc('SendMessage', {
      message: {
        messageId: 'push-restart',
        parts: [
          { text: 'Open /slow?ms=8000. The page contains "Loaded"' },
          { data: { initial_url: stack.siteUrl } },
        ],
      },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { url: hookUrl, token: 'restart' },
      },
    });
    const { id } = res.body.result!.task as { id: string };
    // The first delivery (the task starts working) is refused; the gateway dies before the task
    // ends (the push worker, which follows the task, retries the refused delivery).
    const deadline = Date.now() + 30_000;
    while (!refused.restart) {
      if (Date.now() > deadline) throw new Error('no delivery attempt');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    await stack.restartGateway('SIGKILL');

    const mine = () => deliveries.filter((d) => d.headers['x-a2a-notification-token'] === 'restart');
    const end = Date.now() + 45_000;
    while (!mine().some((d) => (d.body.task as { id?: string } | undefined)?.id === id)) {
      if (Date.now() > end)
        throw new Error(`no final notification after the restart: ${JSON.stringify(mine())}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(mine().map((d) => Object.keys(d.body)[0])).toEqual(['statusUpdate', 'task']);
    expect(mine()[1]!.body).toMatchObject({ task: { id, status: { state: 'TASK_STATE_COMPLETED' } } });
  }, 300_000);

  it('the gateway down while a task runs: the push worker still follows it and delivers its end', async () => {
    const res = await rpc('SendMessage', {
      message: {
        messageId: 'push-gateway-down',
        parts: [
          { text: 'Open /slow?ms=6000. The page contains "Loaded"' },
          { data: { initial_url: stack.siteUrl } },
        ],
      },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: { url: hookUrl, token: 'gateway-down' },
      },
    });
    expect(res.body.error).toBeUndefined();
    const { id } = res.body.result!.task as { id: string };
    const mine = () => deliveries.filter((d) => d.headers['x-a2a-notification-token'] === 'gateway-down');
    // The task works; no gateway is left running to follow it until it has ended.
    while (!mine().length) await new Promise((r) => setTimeout(r, 50));
    await stack.stopGateway('SIGKILL');
    try {
      while (!mine().some((d) => (d.body.task as { id?: string } | undefined)?.id === id))
        await new Promise((r) => setTimeout(r, 200));
      expect(mine().map((d) => Object.keys(d.body)[0])).toEqual(['statusUpdate', 'task']);
      expect(mine()[0]!.body).toMatchObject({
        statusUpdate: { taskId: id, status: { state: 'TASK_STATE_WORKING' } },
      });
      expect(mine()[1]!.body).toMatchObject({ task: { id, status: { state: 'TASK_STATE_COMPLETED' } } });
    } finally {
      await stack.restartGateway();
    }
  }, 300_000);
});
