import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';

// The runner is one origin: jobs-api forwards the gateway's paths to agent-gateway.
const infra = {
  DATABASE_URL: process.env.DATABASE_URL!,
  REDIS_URL: process.env.REDIS_URL!,
  REDIS_PREFIX: process.env.REDIS_PREFIX!,
  API_KEYS: 'test-key-1',
  HOST: '127.0.0.1',
};

describe('jobs-api forwards /a2a, /mcp and the agent card to the gateway', () => {
  const apps: AppProcess[] = [];
  let runner = '';
  let gateway = '';

  beforeAll(async () => {
    const [gatewayPort, runnerPort] = [await freePort(), await freePort()];
    gateway = `http://127.0.0.1:${gatewayPort}`;
    runner = `http://127.0.0.1:${runnerPort}`;
    const gw = startApp('agent-gateway', { ...infra, PORT: String(gatewayPort) });
    const api = startApp('jobs-api', { ...infra, PORT: String(runnerPort), GATEWAY_URL: gateway });
    apps.push(gw, api);
    await waitForHttp(`${gateway}/health`, gw);
    await waitForHttp(`${runner}/health`, api);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
  });

  it.each(['/.well-known/agent-card.json', '/a2a', '/mcp'])(
    '%s answers exactly as the gateway does',
    async (path) => {
      const [direct, viaRunner] = await Promise.all([fetch(`${gateway}${path}`), fetch(`${runner}${path}`)]);
      expect(viaRunner.status).toBe(direct.status);
      expect(await viaRunner.text()).toBe(await direct.text());
    },
  );

  it('keeps MCP DNS rebinding protection behind the forwarding: the Host the caller used is checked', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    // fetch cannot set Host, and a rebinding page's requests carry its own DNS name there.
    const post = (host: string, extra: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${runner}/mcp`);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: {
              host,
              authorization: 'Bearer test-key-1',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...extra,
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(initialize);
      });
    const hostile = await post('tests.evil.example');
    expect(hostile.status).toBe(403);
    expect(JSON.parse(hostile.body)).toMatchObject({ error: { message: /Invalid Host header/ } });
    // A client cannot pass a hostile name off as forwarded by a friendly one: the runner replaces it.
    expect((await post('tests.evil.example', { 'x-forwarded-host': 'localhost' })).status).toBe(403);
    expect((await post(new URL(runner).host)).status).toBe(200);
  });

  it('serves its own paths itself', async () => {
    const health = (await (await fetch(`${runner}/health`)).json()) as { service: string };
    expect(health.service).toBe('jobs-api');
  });
});

describe('an unreachable gateway', () => {
  let api: AppProcess;
  afterAll(() => api.stop('SIGKILL'));

  it('answers 502 with a clear body instead of hanging', async () => {
    const [port, dead] = [await freePort(), await freePort()];
    api = startApp('jobs-api', { ...infra, PORT: String(port), GATEWAY_URL: `http://127.0.0.1:${dead}` });
    await waitForHttp(`http://127.0.0.1:${port}/health`, api);
    const res = await fetch(`http://127.0.0.1:${port}/a2a`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      code: 'bad_gateway',
      detail: expect.stringMatching(/agent gateway/),
    });
  });
});
