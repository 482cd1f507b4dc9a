import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestProject, type TestProject } from '../support/user-client.js';
import type { RunnerClient } from '../support/runner-client.js';
import { FaultStack, sleep } from './support/fault-stack.js';
import {
  expectRestUnavailable,
  expectRpcUnavailable,
  expectToolUnavailable,
  GatewayClient,
  until,
} from './support/gateway-client.js';

// Postgres goes away under running apps and comes back: while it is down every API answers 503
// in its own error contract, and afterwards they serve again without being restarted.

describe('fault: Postgres restarted under running apps', () => {
  const stack = new FaultStack('pg-restart');
  let api: RunnerClient;
  let project: TestProject;
  let gateway: GatewayClient;

  const expectRunnerUnavailable = (res: { status: number; json: unknown }): void => {
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ detail: expect.stringMatching(/\S/), code: 'service_unavailable' });
  };

  beforeAll(async () => {
    await stack.start();
    // The user-client helpers provision tenant databases on the server TEST_PG_ADMIN_URL names.
    process.env.TEST_PG_ADMIN_URL = stack.postgres.adminUrl;
    api = (await stack.startJobsApi()).client;
    const host = await stack.startHttpApp('project-host', (port) => ({
      PUBLIC_URL: `http://localhost:${port}`,
      PLATFORM_ADMIN_TOKEN: 'fault-admin-token-0123456789',
      AUTH_SECRET: 'fault-auth-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      BCRYPT_COST: '10',
      TENANT_ADMIN_DATABASE_URL: stack.postgres.adminUrl,
    }));
    const started = await stack.startHttpApp('agent-gateway', (port) => ({
      PUBLIC_RUNNER_URL: `http://127.0.0.1:${port}`,
    }));
    gateway = new GatewayClient(started.url, stack.siteUrl);
    project = await createTestProject({ databaseUrl: stack.databaseUrl, port: host.port, smtpPort: 1 });
  });

  afterAll(() => stack.stop());

  it('answers 503 in each contract while Postgres is down and recovers without a restart', async () => {
    expect((await api.get('/v1/jobs')).status).toBe(200);
    expect((await gateway.rpc('ListTasks', {})).status).toBe(200);
    expect((await gateway.rest('GET', '/tasks')).status).toBe(200);
    expect((await gateway.tool('list_jobs', {})).isError).toBeFalsy();
    const registered = await project.client.register('ada@example.com', 'correct horse battery staple');
    expect(registered.status).toBe(201);

    await stack.postgres.stop();

    expectRunnerUnavailable(await api.get('/v1/jobs'));
    expectRunnerUnavailable(await api.post('/v1/jobs', { query: 'Open /', initial_url: stack.siteUrl }));
    expectRunnerUnavailable(await api.get('/v1/jobs/00000000-0000-4000-8000-000000000000'));
    const login = await project.client.login('ada@example.com', 'correct horse battery staple');
    expect(login.status).toBe(503);
    expect(login.body).toEqual({ code: expect.any(String), message: expect.stringMatching(/\S/) });
    const me = await project.client.me(registered.body.accessToken);
    expect(me.status).toBe(503);
    expect(me.body).toEqual({ code: expect.any(String), message: expect.stringMatching(/\S/) });
    // The agent gateway: each transport in its own error shape, none a 500 or a hang.
    expectRpcUnavailable(await gateway.rpc('ListTasks', {}));
    expectRpcUnavailable(await gateway.rpc('SendMessage', gateway.message()));
    expectRestUnavailable(await gateway.rest('GET', '/tasks'));
    expectRestUnavailable(await gateway.rest('POST', '/message:send', gateway.message()));
    expectToolUnavailable(await gateway.tool('list_jobs', {}));

    await stack.postgres.start();

    // Pools reconnect on their own: the first requests after the restart may still see a dead
    // connection, so allow a short settling time, then everything must work again.
    const deadline = Date.now() + 20_000;
    while ((await api.get('/v1/jobs')).status !== 200 && Date.now() < deadline) await sleep(250);
    expect((await api.get('/v1/jobs')).status).toBe(200);
    const job = await api.post('/v1/jobs', { query: 'Open /', initial_url: stack.siteUrl });
    expect(job.status).toBe(202);
    let relogin = await project.client.login('ada@example.com', 'correct horse battery staple');
    while (relogin.status !== 200 && Date.now() < deadline) {
      await sleep(250);
      relogin = await project.client.login('ada@example.com', 'correct horse battery staple');
    }
    expect(relogin.status).toBe(200);
    expect((await project.client.me(relogin.body.accessToken)).status).toBe(200);

    await until(async () => (await gateway.rpc('ListTasks', {})).status === 200);
    const sent = await gateway.rpc('SendMessage', gateway.message());
    expect(sent).toMatchObject({ status: 200, body: { result: { task: { id: expect.any(String) } } } });
    expect((await gateway.rest('GET', '/tasks')).status).toBe(200);
    expect((await gateway.tool('list_jobs', {})).isError).toBeFalsy();
  });
});
