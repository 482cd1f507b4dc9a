import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { a2aClient, dataPart, rawRpc, readSse, sendParams, userMessage } from '../support/a2a-client.js';
import { A2aStack } from '../support/a2a-stack.js';
import { insertApiKey } from '../support/runner-client.js';

// The A2A v1.0 JSON-RPC binding of the agent gateway, as real processes (gateway, and a browser
// worker once the tests that need tasks to stay queued are done), driven by the official client.

const KEY = 'a2a-spec-key';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

describe('A2A gateway', () => {
  const stack = new A2aStack('a2a', KEY, { A2A_BLOCKING_TIMEOUT_MS: '8000' });
  let client: Client;
  let rpcUrl = '';
  let otherKey = '';
  let n = 0;
  const rpc = (method: string, params: unknown, options: Parameters<typeof rawRpc>[2] = {}) =>
    rawRpc(rpcUrl, { jsonrpc: '2.0', id: ++n, method, params }, { key: KEY, ...options });

  const stateOf = async (id: string): Promise<string> =>
    ((await rpc('GetTask', { id })).body.result!.status as { state: string }).state;

  beforeAll(async () => {
    await stack.start();
    rpcUrl = `${stack.gatewayUrl}/a2a`;
    client = await a2aClient(stack.gatewayUrl, KEY);
    otherKey = (await insertApiKey(`a2a-other-${Date.now()}`)).key;
  });

  afterAll(() => stack.stop());

  describe('agent card', () => {
    it('is a complete public v1.0 card with cache validators', async () => {
      const res = await fetch(`${stack.gatewayUrl}/.well-known/agent-card.json`);
      expect(res.status).toBe(200);
      const card = (await res.json()) as Record<string, unknown>;
      expect(card).toMatchObject({
        name: expect.any(String),
        description: expect.any(String),
        version: '1.0.0',
        supportedInterfaces: [
          { url: `${stack.gatewayUrl}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: `${stack.gatewayUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
        capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
        defaultInputModes: expect.arrayContaining(['text/plain']),
        defaultOutputModes: expect.arrayContaining(['text/plain', 'video/mp4']),
        securitySchemes: {
          bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } },
          apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
        },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }],
      });
      const skills = card.skills as { id: string; examples: string[] }[];
      expect(skills[0]!.examples.length).toBeGreaterThan(0);
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const etag = res.headers.get('etag')!;
      expect(etag).toBeTruthy();
      expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN();
      const again = await fetch(`${stack.gatewayUrl}/.well-known/agent-card.json`, {
        headers: { 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
    });

    it('the extended card needs a valid key', async () => {
      const card = await client.getAgentCard();
      expect(card.name).toBe('Browser Test Runner');
      const extended = await rpc('GetExtendedAgentCard', {});
      expect(extended.body.result).toMatchObject({ version: '1.0.0', skills: expect.any(Array) });
      const anonymous = await rpc('GetExtendedAgentCard', {}, { key: null });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('JSON-RPC envelope', () => {
    it('refuses a missing or invalid key with 401 and a JSON-RPC error', async () => {
      for (const key of [null, 'not-a-key']) {
        const res = await rpc('GetTask', { id: 'x' }, { key });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
        expect(res.body.error!.data[0]).toMatchObject({ '@type': ERROR_INFO, reason: 'UNAUTHORIZED' });
      }
    });

    it('answers a missing A2A-Version (0.3) and other versions with -32009', async () => {
      for (const version of [null, '0.3']) {
        const res = await rpc('GetTask', { id: 'x' }, { version });
        expect(res.status).toBe(200);
        expect(res.body.error).toMatchObject({
          code: -32009,
          data: [{ '@type': ERROR_INFO, reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' }],
        });
      }
    });

    it('uses the standard codes for malformed requests', async () => {
      const parse = await rawRpc(rpcUrl, null, { key: KEY, rawBody: '{"jsonrpc": "2.0", ' });
      expect(parse.body).toMatchObject({ id: null, error: { code: -32700 } });
      expect((await rawRpc(rpcUrl, [], { key: KEY })).body.error!.code).toBe(-32600);
      expect(
        (await rawRpc(rpcUrl, { jsonrpc: '1.0', id: 7, method: 'GetTask' }, { key: KEY })).body,
      ).toMatchObject({
        id: 7,
        error: { code: -32600, data: [{ reason: 'INVALID_REQUEST', domain: 'a2a-protocol.org' }] },
      });
      expect((await rpc('tasks/get', { id: 'x' })).body.error).toMatchObject({
        code: -32601,
        data: [{ reason: 'METHOD_NOT_FOUND' }],
      });
      expect((await rpc('SendMessage', { message: { messageId: 'm', parts: [] } })).body.error).toMatchObject(
        {
          code: -32602,
          data: [{ reason: 'INVALID_PARAMS' }],
        },
      );
    });

    it('answers a body that is not JSON by its Content-Type with -32005, naming the media type', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'ct', method: 'ListTasks', params: {} });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await rawRpc(rpcUrl, null, {
          key: KEY,
          rawBody: body,
          headers: { 'content-type': type },
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          id: 'ct',
          error: {
            code: -32005,
            message: expect.stringContaining(type),
            data: [{ '@type': ERROR_INFO, reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' }],
          },
        });
      }
      const charset = await rawRpc(rpcUrl, null, {
        key: KEY,
        rawBody: body,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(charset.body).toMatchObject({ id: 'ct', result: { tasks: expect.any(Array) } });
    });

    it('a message with only parts of media types the agent does not read is -32005 naming what it reads', async () => {
      const card = (await (await fetch(`${stack.gatewayUrl}/.well-known/agent-card.json`)).json()) as {
        defaultInputModes: string[];
      };
      expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
      for (const parts of [
        [{ raw: Buffer.from('bytes').toString('base64'), mediaType: 'application/octet-stream' }],
        [{ url: 'https://example.com/cat.png', mediaType: 'image/png', filename: 'cat.png' }],
        [{ text: 'Open /', mediaType: 'image/png' }],
      ]) {
        const res = await rpc('SendMessage', { message: { messageId: randomUUID(), parts } });
        expect(res.body.error).toMatchObject({
          code: -32005,
          message: expect.stringContaining('text/plain and application/json'),
          data: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }],
        });
        expect(res.body.error!.message).toContain(parts[0]!.mediaType);
      }
      // A text part beside a file is read as before (the file is left out).
      const mixed = await rpc('SendMessage', {
        message: {
          messageId: randomUUID(),
          parts: [
            { text: 'Open /', mediaType: 'text/plain' },
            { url: 'https://example.com/a.png', mediaType: 'image/png' },
          ],
        },
        configuration: { returnImmediately: true },
      });
      expect(mixed.body.result!.task).toMatchObject({ status: { state: 'TASK_STATE_SUBMITTED' } });
    });

    it('also listens on /a2a/', async () => {
      const res = await rawRpc(
        `${rpcUrl}/`,
        { jsonrpc: '2.0', id: 'a', method: 'ListTasks', params: {} },
        { key: KEY },
      );
      expect(res.body).toMatchObject({ id: 'a', result: { tasks: expect.any(Array) } });
    });
  });

  describe('before any worker runs', () => {
    it('a blocking SendMessage answers with the submitted task after the server-side limit', async () => {
      const started = Date.now();
      const task = await client.sendMessage(sendParams(userMessage([`Open ${stack.siteUrl}thanks`])));
      expect(Date.now() - started).toBeGreaterThanOrEqual(7_900);
      expect(task).toMatchObject({ status: { state: TaskState.TASK_STATE_SUBMITTED } });
    });

    it('cancels a queued task; a second cancel, a message or a subscription to it are refused', async () => {
      const res = await rpc('SendMessage', {
        message: { message_id: 'm-cancel', role: 'ROLE_USER', parts: [{ text: 'Open /thanks' }] },
        configuration: { return_immediately: true },
      });
      const task = res.body.result!.task as { id: string; contextId: string; status: { state: string } };
      expect(task.status.state).toBe('TASK_STATE_SUBMITTED');

      const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
      expect(cancelled.status!.state).toBe(TaskState.TASK_STATE_CANCELED);

      expect((await rpc('CancelTask', { id: task.id })).body.error).toMatchObject({
        code: -32002,
        data: [{ reason: 'TASK_NOT_CANCELABLE' }],
      });
      const follow = await rpc('SendMessage', {
        message: { messageId: 'm2', taskId: task.id, parts: [{ text: 'Open /' }] },
      });
      expect(follow.body.error).toMatchObject({ code: -32004, data: [{ reason: 'UNSUPPORTED_OPERATION' }] });
      expect((await rpc('SubscribeToTask', { id: task.id })).body.error!.code).toBe(-32004);
    });

    it('unknown tasks are -32001 and a context that does not match the task is -32602', async () => {
      const missing = await rpc('GetTask', { id: randomUUID() });
      expect(missing.body.error).toMatchObject({ code: -32001, data: [{ reason: 'TASK_NOT_FOUND' }] });
      const created = await rpc('SendMessage', {
        message: { messageId: 'm3', parts: [{ text: 'Open /' }] },
        configuration: { returnImmediately: true },
      });
      const task = created.body.result!.task as { id: string; contextId: string };
      const mismatch = await rpc('SendMessage', {
        message: {
          messageId: 'm4',
          taskId: task.id,
          contextId: '01a20184-0000-7000-8000-000000000000',
          parts: [{ text: 'Open /' }],
        },
      });
      expect(mismatch.body.error!.code).toBe(-32602);
      expect(
        (await rpc('SendMessage', { message: { messageId: 'm5', taskId: 'nope', parts: [{ text: 'x' }] } }))
          .body.error!.code,
      ).toBe(-32001);
    });

    it('a contextId the client chose starts a context of its owner; the same id from another owner is another context', async () => {
      const send = async (contextId: string, key = KEY) => {
        const res = await rpc(
          'SendMessage',
          {
            message: { messageId: randomUUID(), contextId, parts: [{ text: 'Open /' }] },
            configuration: { returnImmediately: true },
          },
          { key },
        );
        expect(res.body.error).toBeUndefined();
        return res.body.result!.task as { id: string; contextId: string };
      };
      const listed = async (contextId: string, key = KEY) =>
        ((await rpc('ListTasks', { contextId }, { key })).body.result!.tasks as { id: string }[]).map(
          (t) => t.id,
        );
      const name = `client-chat-${randomUUID()}`;
      const first = await send(name);
      const second = await send(name);
      const theirs = await send(name, otherKey);
      expect([first.contextId, second.contextId, theirs.contextId]).toEqual([name, name, name]);
      expect(await listed(name)).toEqual([second.id, first.id]);
      // First messages of one new context may race: they all land in it.
      const raced = `raced-${randomUUID()}`;
      const racing = await Promise.all([1, 2, 3, 4, 5].map(() => send(raced)));
      expect(new Set(racing.map((t) => t.contextId))).toEqual(new Set([raced]));
      expect((await listed(raced)).sort()).toEqual(racing.map((t) => t.id).sort());
      expect(await listed(name, otherKey)).toEqual([theirs.id]);
      // The official client's own context ids (UUIDs) work the same way.
      const sdkContext = randomUUID();
      const sdkTask = await client.sendMessage(
        sendParams(userMessage(['Open /'], { contextId: sdkContext }), { returnImmediately: true }),
      );
      expect('contextId' in sdkTask && sdkTask.contextId).toBe(sdkContext);
      // Another owner's context id reads as a new one: nothing of the first owner's shows.
      const borrowed = await send(sdkContext, otherKey);
      expect(borrowed.contextId).toBe(sdkContext);
      expect(await listed(sdkContext, otherKey)).toEqual([borrowed.id]);
      expect(await listed(sdkContext)).toEqual([(sdkTask as { id: string }).id]);
      const history = (await rpc('GetTask', { id: borrowed.id }, { key: otherKey })).body.result as {
        history: { contextId: string }[];
      };
      expect(history.history.map((m) => m.contextId)).toEqual([sdkContext]);
    });

    it('other owners cannot read, list, cancel or subscribe to a task', async () => {
      const created = await rpc('SendMessage', {
        message: { messageId: 'mine', parts: [{ text: 'Open /' }] },
        configuration: { returnImmediately: true },
      });
      const { id } = created.body.result!.task as { id: string };
      for (const [method, params] of [
        ['GetTask', { id }],
        ['CancelTask', { id }],
        ['SubscribeToTask', { id }],
        ['ListTaskPushNotificationConfigs', { taskId: id }],
      ] as const) {
        const res = await rpc(method, params, { key: otherKey });
        expect(res.body.error).toMatchObject({ code: -32001 });
      }
      const list = await rpc('ListTasks', {}, { key: otherKey });
      expect((list.body.result!.tasks as { id: string }[]).map((t) => t.id)).not.toContain(id);
    });
  });

  describe('with a browser worker', () => {
    beforeAll(async () => {
      await stack.startWorker();
      // The first job of a worker also starts its browser: run one so timings below are a job's.
      const warm = await rpc('SendMessage', {
        message: {
          messageId: 'warm-up',
          parts: [{ text: 'Open /' }, { data: { initial_url: stack.siteUrl } }],
        },
        configuration: { returnImmediately: true },
      });
      const { id } = warm.body.result!.task as { id: string };
      const deadline = Date.now() + 150_000;
      while (!/COMPLETED|FAILED/.test(await stateOf(id))) {
        if (Date.now() > deadline) throw new Error('the warm-up job never ended');
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 180_000);

    it('a blocking SendMessage ends with the verdict and artifacts; the job is the task', async () => {
      const task = await client.sendMessage(
        sendParams(
          userMessage(
            [
              'Open /thanks. The page contains "Thanks for signing up"',
              dataPart({ initial_url: stack.siteUrl }),
            ],
            {
              metadata: { caller_ref: { keep_me: 1 } },
            },
          ),
        ),
      );
      expect('status' in task && task.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const res = await rpc('GetTask', { id: (task as { id: string }).id, historyLength: 1 });
      const wire = res.body.result as {
        status: { state: string; message: { role: string; parts: { text: string }[] } };
        artifacts: { artifactId: string; parts: Record<string, unknown>[] }[];
        history: { metadata: Record<string, unknown> }[];
      };
      expect(wire.status.state).toBe('TASK_STATE_COMPLETED');
      expect(wire.history).toHaveLength(1);
      expect(wire.history[0]!.metadata).toEqual({ caller_ref: { keep_me: 1 } });
      const byId = Object.fromEntries(wire.artifacts.map((a) => [a.artifactId, a.parts[0]!]));
      expect(byId.summary).toMatchObject({ text: expect.any(String) });
      expect(byId.steps).toMatchObject({ data: { steps: expect.any(Array) } });
      expect(byId.log).toMatchObject({
        url: `${stack.gatewayUrl}/v1/jobs/${(task as { id: string }).id}/log`,
        mediaType: 'text/plain',
      });
      expect(byId.video).toMatchObject({ url: expect.stringMatching(/\/video$/), mediaType: 'video/mp4' });
    });

    it('instructions the interpreter cannot understand ask for input; a follow-up on the task continues it', async () => {
      const first = await rpc('SendMessage', {
        message: {
          role: 'ROLE_USER',
          messageId: randomUUID(),
          parts: [
            { text: 'Open /thanks. Then juggle three flaming torches' },
            { data: { initial_url: stack.siteUrl } },
          ],
        },
      });
      const task = (first.body.result as { task: unknown }).task as {
        id: string;
        contextId: string;
        status: { state: string; message: { parts: { text: string }[] } };
      };
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.parts[0]!.text).toMatch(/juggle three flaming torches/);
      const listed = async (status: string): Promise<string[]> =>
        (
          (await rpc('ListTasks', { contextId: task.contextId, status })).body.result!.tasks as {
            id: string;
          }[]
        ).map((t) => t.id);
      expect(await listed('TASK_STATE_INPUT_REQUIRED')).toEqual([task.id]);
      expect(await listed('TASK_STATE_FAILED')).toEqual([]);

      const followUp = await rpc('SendMessage', {
        message: {
          role: 'ROLE_USER',
          messageId: randomUUID(),
          taskId: task.id,
          contextId: task.contextId,
          parts: [{ text: 'Open /thanks. The page contains "Thanks for signing up"' }],
        },
      });
      expect(followUp.body.error).toBeUndefined();
      const continued = (followUp.body.result as { task: unknown }).task as {
        id: string;
        status: { state: string };
      };
      expect(continued.id).toBe(task.id);
      expect(continued.status.state).toBe('TASK_STATE_COMPLETED');
      expect(await listed('TASK_STATE_INPUT_REQUIRED')).toEqual([]);
      expect(await listed('TASK_STATE_COMPLETED')).toEqual([task.id]);
      const history = (await rpc('GetTask', { id: task.id })).body.result as { history: unknown[] };
      expect(history.history).toHaveLength(2);
    });

    it('a task waiting for input is canceled by CancelTask (the job reads cancelled), or by DELETE /v1/jobs/{id}', async () => {
      const ask = async (): Promise<string> => {
        const res = await rpc('SendMessage', {
          message: {
            messageId: randomUUID(),
            parts: [
              { text: 'Open /thanks. Then juggle three flaming torches' },
              { data: { initial_url: stack.siteUrl } },
            ],
          },
        });
        const task = res.body.result!.task as { id: string; status: { state: string } };
        expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
        return task.id;
      };
      const viaA2a = await ask();
      const cancelled = await rpc('CancelTask', { id: viaA2a });
      expect(cancelled.body.result).toMatchObject({ id: viaA2a, status: { state: 'TASK_STATE_CANCELED' } });
      expect(await stateOf(viaA2a)).toBe('TASK_STATE_CANCELED');
      const apiUrl = await stack.startJobsApi();
      const headers = { authorization: `Bearer ${KEY}` };
      const job = await fetch(`${apiUrl}/v1/jobs/${viaA2a}`, { headers });
      expect(await job.json()).toMatchObject({ id: viaA2a, status: 'cancelled' });
      // A follow-up no longer continues it.
      const follow = await rpc('SendMessage', {
        message: { messageId: randomUUID(), taskId: viaA2a, parts: [{ text: 'Open /thanks' }] },
      });
      expect(follow.body.error).toMatchObject({ code: -32004 });

      const viaV1 = await ask();
      const deleted = await fetch(`${apiUrl}/v1/jobs/${viaV1}`, { method: 'DELETE', headers });
      expect(await deleted.json()).toMatchObject({ id: viaV1, status: 'cancelled', cancelled: true });
      expect(await stateOf(viaV1)).toBe('TASK_STATE_CANCELED');
    });

    it('a task that is working cannot be canceled', async () => {
      const res = await rpc('SendMessage', {
        message: {
          messageId: 'slow',
          parts: [
            { text: 'Open /slow. The page contains "Loaded"' },
            { data: { initialUrl: stack.siteUrl } },
          ],
        },
        configuration: { returnImmediately: true },
      });
      const { id } = res.body.result!.task as { id: string };
      const deadline = Date.now() + 30_000;
      while (
        ((await rpc('GetTask', { id })).body.result!.status as { state: string }).state !==
        'TASK_STATE_WORKING'
      ) {
        if (Date.now() > deadline) throw new Error('never started');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await rpc('CancelTask', { id })).body.error!.code).toBe(-32002);
    });

    it('SendStreamingMessage streams the task, its progress and its end over SSE', async () => {
      const events = [];
      for await (const event of client.sendMessageStream(
        sendParams(
          userMessage(['Open /thanks. The page contains "Thanks"', dataPart({ initial_url: stack.siteUrl })]),
        ),
      )) {
        events.push(event);
      }
      expect(events[0]!.payload!.$case).toBe('task');
      const last = events.at(-1)!.payload!;
      expect(last.$case).toBe('statusUpdate');
      expect(last.$case === 'statusUpdate' && last.value.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(events.some((e) => e.payload!.$case === 'artifactUpdate')).toBe(true);
    });

    it('SubscribeToTask follows a task to its end (raw SSE, camelCase JSON-RPC responses)', async () => {
      const created = await rpc('SendMessage', {
        message: {
          messageId: 'sub',
          parts: [
            { text: 'Open /slow. The page contains "Loaded"' },
            { data: { initial_url: stack.siteUrl } },
          ],
        },
        configuration: { returnImmediately: true },
      });
      const { id } = created.body.result!.task as { id: string };
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method: 'SubscribeToTask', params: { id } }),
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = await readSse(res);
      expect(events[0]).toMatchObject({ jsonrpc: '2.0', id: 'sub-1', result: { task: { id } } });
      expect(events.at(-1)).toMatchObject({
        result: { statusUpdate: { taskId: id, status: { state: 'TASK_STATE_COMPLETED' } } },
      });
    });

    it('a subscriber of a 10-step task gets every step as a WORKING update, in order, then the artifacts', async () => {
      const query = [
        'Open /thanks',
        'The page contains "Thanks"',
        'The title contains "Thanks"',
        'Go to /',
        'The page contains "Welcome"',
        'Click "Thanks page"',
        'The URL contains /thanks',
        'The page contains "signing up"',
        'Go to /',
        'The title contains "Demo Shop"',
      ].join('. ');
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'ten',
          method: 'SendStreamingMessage',
          params: {
            message: {
              messageId: randomUUID(),
              parts: [{ text: query }, { data: { initial_url: stack.siteUrl } }],
            },
          },
        }),
      });
      interface Update {
        metadata?: { kind: string; index: number; stepStatus: string };
        status: { state: string; message: { role: string; parts: { text: string }[] } };
      }
      const results = (await readSse(res)).map(
        (event) =>
          event.result as { statusUpdate?: Update; artifactUpdate?: { artifact: { artifactId: string } } },
      );
      const steps = results
        .map((result) => result.statusUpdate)
        .filter((update): update is Update => update?.metadata?.kind === 'step');
      const ended = steps.filter((update) => update.metadata!.stepStatus !== 'started');
      expect(ended.map((update) => update.metadata!.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for (const update of steps) {
        expect(update.status.state).toBe('TASK_STATE_WORKING');
        expect(update.status.message.role).toBe('ROLE_AGENT');
      }
      expect(ended[2]!.status.message.parts[0]!.text).toBe('Step 3/10 passed: The title contains "Thanks"');
      const artifacts = results.flatMap((result) =>
        result.artifactUpdate ? [result.artifactUpdate.artifact] : [],
      );
      expect(artifacts.map((artifact) => artifact.artifactId)).toEqual(
        expect.arrayContaining(['log', 'video']),
      );
      expect(results.at(-1)!.statusUpdate!.status.state).toBe('TASK_STATE_COMPLETED');
      // The log's link comes as soon as the task works, before its first step.
      const firstLog = results.findIndex((result) => result.artifactUpdate?.artifact.artifactId === 'log');
      const firstStep = results.findIndex((result) => result.statusUpdate?.metadata?.kind === 'step');
      expect(firstLog).toBeGreaterThan(0);
      expect(firstLog).toBeLessThan(firstStep);
    });

    it('a task is a job: its owner sees it in /v1/jobs, and jobs-api serves A2A on the same origin', async () => {
      const apiUrl = await stack.startJobsApi();
      const viaApi = await rawRpc(
        `${apiUrl}/a2a`,
        {
          jsonrpc: '2.0',
          id: 'via-api',
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'v1',
              parts: [{ text: 'Open /thanks' }, { data: { initial_url: stack.siteUrl } }],
            },
          },
        },
        { key: KEY },
      );
      const task = viaApi.body.result!.task as { id: string; status: { state: string } };
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const job = await fetch(`${apiUrl}/v1/jobs/${task.id}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(job.status).toBe(200);
      expect(await job.json()).toMatchObject({ id: task.id, status: 'succeeded', query: 'Open /thanks' });
      const other = await fetch(`${apiUrl}/v1/jobs/${task.id}`, {
        headers: { authorization: `Bearer ${otherKey}` },
      });
      expect(other.status).toBe(404);
      expect((await fetch(`${apiUrl}/.well-known/agent-card.json`)).status).toBe(200);
      // The HTTP+JSON binding is forwarded too.
      const viaRest = await fetch(`${apiUrl}/a2a/rest/tasks/${task.id}`, {
        headers: { authorization: `Bearer ${KEY}`, 'a2a-version': '1.0' },
      });
      expect(viaRest.status).toBe(200);
      expect(await viaRest.json()).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    });

    it('the HTTP+JSON binding (official client, REST transport) sends, streams, reads, lists and cancels', async () => {
      const rest = await a2aClient(stack.gatewayUrl, KEY, 'rest');
      const bindingOf = (c: Client) =>
        (c as unknown as { transport: { protocolName: string } }).transport.protocolName;
      expect([bindingOf(rest), bindingOf(client)]).toEqual(['HTTP+JSON', 'JSONRPC']);
      const task = await rest.sendMessage(
        sendParams(
          userMessage(['Open /thanks. The page contains "Thanks"', dataPart({ initial_url: stack.siteUrl })]),
        ),
      );
      expect('status' in task && task.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const id = (task as { id: string }).id;
      // The same task over both bindings.
      const viaRest = await rest.getTask({ tenant: '', id, historyLength: 1 });
      const viaRpc = await client.getTask({ tenant: '', id, historyLength: 1 });
      expect(viaRest).toEqual(viaRpc);
      expect(viaRest.history).toHaveLength(1);

      const events = [];
      for await (const event of rest.sendMessageStream(
        sendParams(
          userMessage(['Open /thanks. The page contains "Thanks"', dataPart({ initial_url: stack.siteUrl })]),
        ),
      ))
        events.push(event);
      expect(events[0]!.payload!.$case).toBe('task');
      const last = events.at(-1)!.payload!;
      expect(last.$case === 'statusUpdate' && last.value.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(events.some((e) => e.payload!.$case === 'artifactUpdate')).toBe(true);

      const listed = await rest.listTasks({
        tenant: '',
        contextId: (task as { contextId: string }).contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
      expect(listed.tasks.map((t) => t.id)).toEqual([id]);
      expect(listed.tasks[0]!.artifacts.length).toBeGreaterThan(0);

      const waiting = await rest.sendMessage(
        sendParams(
          userMessage([
            'Open /thanks. Then juggle three flaming torches',
            dataPart({ initial_url: stack.siteUrl }),
          ]),
        ),
      );
      expect('status' in waiting && waiting.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const cancelled = await rest.cancelTask({
        tenant: '',
        id: (waiting as { id: string }).id,
        metadata: undefined,
      });
      expect(cancelled.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(
        (await rest.listTaskPushNotificationConfig({ tenant: '', taskId: id, pageSize: 0, pageToken: '' }))
          .configs,
      ).toEqual([]);
      const card = await rest.getAgentCard();
      expect(card.skills.map((skill) => skill.id)).toContain('browser-test-artifacts');
    });

    it('HTTP+JSON errors are google.rpc.Status bodies with A2A\u2019s HTTP statuses, scoped to the owner', async () => {
      const base = `${stack.gatewayUrl}/a2a/rest`;
      const call = async (
        method: string,
        path: string,
        init: { key?: string; body?: string; type?: string } = {},
      ) => {
        const headers: Record<string, string> = { 'a2a-version': '1.0' };
        if (init.key !== '') headers.authorization = `Bearer ${init.key ?? KEY}`;
        if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
        const res = await fetch(`${base}${path}`, { method, headers, body: init.body });
        return { status: res.status, body: (await res.json()) as { error: Record<string, unknown> } };
      };
      const missing = await call('GET', `/tasks/${randomUUID()}`);
      expect(missing).toMatchObject({
        status: 404,
        body: {
          error: {
            code: 404,
            status: 'NOT_FOUND',
            details: [{ '@type': ERROR_INFO, reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
          },
        },
      });
      const created = await rpc('SendMessage', {
        message: { messageId: randomUUID(), parts: [{ text: 'Open /' }] },
        configuration: { returnImmediately: true },
      });
      const { id } = created.body.result!.task as { id: string };
      expect((await call('GET', `/tasks/${id}`, { key: otherKey })).status).toBe(404);
      expect((await call('POST', `/tasks/${id}:cancel`, { key: otherKey })).status).toBe(404);
      expect((await call('GET', `/tasks/${id}`, { key: '' })).status).toBe(401);
      const text = await call('POST', '/message:send', { body: 'Open /', type: 'text/plain' });
      expect(text).toMatchObject({
        status: 415,
        body: { error: { details: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] } },
      });
      const files = await call('POST', '/message:send', {
        body: JSON.stringify({
          message: { messageId: 'f', parts: [{ url: 'https://x/y.png', mediaType: 'image/png' }] },
        }),
      });
      expect(files.status).toBe(415);
      const invalid = await call('POST', '/message:send', {
        body: JSON.stringify({ message: { parts: [] } }),
      });
      expect(invalid).toMatchObject({
        status: 400,
        body: { error: { details: [{ reason: 'INVALID_PARAMS' }] } },
      });
      expect((await call('GET', '/nowhere')).status).toBe(404);
      const huge = await call('POST', '/message:send', {
        body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }),
      });
      expect(huge).toMatchObject({
        status: 413,
        body: { error: { code: 413, details: [{ reason: 'PAYLOAD_TOO_LARGE' }] } },
      });
      const unversioned = await fetch(`${base}/tasks/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(unversioned.status).toBe(400);
    });

    it('ListTasks pages newest first with an opaque token, filters, and artifacts only on request', async () => {
      const contextId = randomUUID();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await rpc('SendMessage', {
          message: {
            messageId: `l${i}`,
            contextId,
            parts: [{ text: 'Open /thanks' }, { data: { initial_url: stack.siteUrl } }],
          },
          configuration: { returnImmediately: true },
        });
        ids.push((res.body.result!.task as { id: string }).id);
      }
      const first = (await rpc('ListTasks', { contextId, pageSize: 2 })).body.result!;
      expect(first).toMatchObject({ totalSize: 3, pageSize: 2 });
      expect((first.tasks as { id: string }[]).map((t) => t.id)).toEqual([ids[2], ids[1]]);
      expect(first.nextPageToken).not.toBe('');
      const second = (
        await rpc('ListTasks', { context_id: contextId, page_size: 2, page_token: first.nextPageToken })
      ).body.result!;
      expect((second.tasks as { id: string }[]).map((t) => t.id)).toEqual([ids[0]]);
      expect(second.nextPageToken).toBe('');
      expect((first.tasks as Record<string, unknown>[])[0]!.artifacts).toBeUndefined();

      const sdkList = await client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
      expect(sdkList.tasks).toHaveLength(3);
      expect((await rpc('ListTasks', { pageSize: 101 })).body.error!.code).toBe(-32602);
      expect((await rpc('ListTasks', { pageToken: 'garbage' })).body.error!.code).toBe(-32602);
      const canceled = (await rpc('ListTasks', { status: 'TASK_STATE_CANCELED' })).body.result!;
      for (const t of canceled.tasks as { status: { state: string } }[])
        expect(t.status.state).toBe('TASK_STATE_CANCELED');
      expect(canceled.totalSize).toBeGreaterThanOrEqual(1);
    });
  });
});
