import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { rawRpc } from '../support/a2a-client.js';
import { A2aStack } from '../support/a2a-stack.js';
import { insertApiKey } from '../support/runner-client.js';

// Abuse of A2A push notifications by one API key: configs without end on one task, and a flood of
// webhook deliveries (a config on an ended task posts at once). Caps per task and owner, and a
// pace per owner: the flood waits in the queue or is dropped, and another owner is still served.

const KEY = 'a2a-push-limits-key';

describe('A2A push notification limits', () => {
  // One delivery a minute per owner after a burst of 2, at most 90 s queued: of 8 deliveries at
  // once, 2 go now, 1 waits a minute, 5 are dropped. Owners may keep 14 configs on open tasks.
  const stack = new A2aStack('a2a-push-limits', KEY, {
    PUSH_ALLOWED_HOSTS: '127.0.0.1',
    PUSH_DELIVERIES_PER_OWNER_PER_MINUTE: '1',
    PUSH_DELIVERY_BURST: '2',
    PUSH_DELIVERY_MAX_DELAY_S: '90',
    PUSH_CONFIGS_PER_OWNER: '14',
  });
  const received: string[] = [];
  let hook: Server;
  let hookUrl = '';
  let n = 0;
  const rpc = (method: string, params: unknown, key = KEY) =>
    rawRpc(`${stack.gatewayUrl}/a2a`, { jsonrpc: '2.0', id: ++n, method, params }, { key });

  /** A task of `key`'s owner, ended (the blocking SendMessage waits) or not yet. Configs made in the last hour count either way. */
  const task = async (key: string, ended: boolean): Promise<string> => {
    const sent = await rpc(
      'SendMessage',
      {
        message: {
          messageId: `limits-${++n}`,
          parts: [{ text: 'Open /' }, { data: { initial_url: stack.siteUrl } }],
        },
        configuration: { returnImmediately: !ended },
      },
      key,
    );
    const result = sent.body.result as { task: { id: string; status: { state: string } } };
    if (ended) expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    return result.task.id;
  };

  beforeAll(async () => {
    hook = createServer((req, res) => {
      received.push(String(req.headers['x-a2a-notification-token'] ?? ''));
      req.resume();
      req.on('end', () => res.writeHead(200).end());
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

  it('a task holds at most 10 configs, also when they are created at once; a config is still replaced by its id', async () => {
    const owner = `limits-task-${Date.now()}`;
    const { key } = await insertApiKey(owner);
    const taskId = await task(key, false);
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc('CreateTaskPushNotificationConfig', { taskId, id: `c${i}`, url: hookUrl }, key),
      ),
    );
    const refused = made.filter((r) => r.body.error);
    expect(made.length - refused.length).toBe(10);
    for (const r of refused) {
      expect(r.body.error).toMatchObject({ code: -32000 });
      expect(r.body.error!.message).toMatch(/10 push notification configs.*PUSH_CONFIGS_PER_TASK/);
    }
    const listed = await rpc('ListTaskPushNotificationConfigs', { taskId }, key);
    expect((listed.body.result!.configs as unknown[]).length).toBe(10);

    const kept = made.findIndex((r) => !r.body.error);
    const replaced = await rpc(
      'CreateTaskPushNotificationConfig',
      { taskId, id: `c${kept}`, url: hookUrl, token: 'replaced' },
      key,
    );
    expect(replaced.body.result).toMatchObject({ id: `c${kept}`, token: 'replaced' });

    // The HTTP+JSON binding answers 429 with the same message.
    const rest = await fetch(`${stack.gatewayUrl}/a2a/rest/tasks/${taskId}/pushNotificationConfigs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ url: hookUrl }),
    });
    expect(rest.status).toBe(429);
    expect(JSON.stringify(await rest.json())).toMatch(/PUSH_CONFIGS_PER_TASK/);
  });

  it('an owner holds at most PUSH_CONFIGS_PER_OWNER configs across tasks; another owner is unaffected', async () => {
    const { key } = await insertApiKey(`limits-owner-${Date.now()}`);
    const tasks = [await task(key, false), await task(key, false)];
    const answers = [];
    for (let i = 0; i < 16; i++)
      answers.push(
        await rpc('CreateTaskPushNotificationConfig', { taskId: tasks[i % 2], url: hookUrl }, key),
      );
    expect(answers.filter((r) => !r.body.error)).toHaveLength(14);
    expect(answers.at(-1)!.body.error!.message).toMatch(/PUSH_CONFIGS_PER_OWNER/);

    const { key: other } = await insertApiKey(`limits-owner-other-${Date.now()}`);
    const otherTask = await task(other, false);
    expect(
      (await rpc('CreateTaskPushNotificationConfig', { taskId: otherTask, url: hookUrl }, other)).body.error,
    ).toBeUndefined();
  });

  it("one owner's flood of deliveries is paced and capped, and another owner's notification still goes out", async () => {
    const flooderOwner = `limits-flood-${Date.now()}`;
    const { key: flooder } = await insertApiKey(flooderOwner);
    const floodTask = await task(flooder, true);
    // Eight configs on an ended task: each posts at once, which the owner's pace holds back.
    for (let i = 0; i < 8; i++) {
      const made = await rpc(
        'CreateTaskPushNotificationConfig',
        { taskId: floodTask, url: hookUrl, token: 'flood' },
        flooder,
      );
      expect(made.body.error).toBeUndefined();
    }
    const { key: victim } = await insertApiKey(`limits-victim-${Date.now()}`);
    const victimTask = await task(victim, true);
    expect(
      (
        await rpc(
          'CreateTaskPushNotificationConfig',
          { taskId: victimTask, url: hookUrl, token: 'victim' },
          victim,
        )
      ).body.error,
    ).toBeUndefined();

    const count = (token: string) => received.filter((t) => t === token).length;
    while (count('victim') === 0) await new Promise((r) => setTimeout(r, 100));
    // The victim's one delivery arrived; of the flood, only the burst has (the next is a minute away).
    expect(count('flood')).toBeLessThanOrEqual(2);
    while (count('flood') < 2) await new Promise((r) => setTimeout(r, 100));
    expect(count('flood')).toBe(2);
    // Five went over the backlog's bound and were dropped, each with a warning (by the push worker,
    // which queues the notifications of the tasks it follows).
    const dropped = () =>
      (stack.pushWorker?.output() ?? '')
        .split('\n')
        .filter((line) => line.includes('push notification dropped') && line.includes(flooderOwner)).length;
    expect(dropped()).toBe(5);
  }, 300_000);
});
