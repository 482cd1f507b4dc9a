import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestProject, type TestProject } from '../support/user-client.js';
import { Fuzzer, rawRequest, type RawResponse } from './support/fuzz-cases.js';
import { API_KEY, FaultStack } from './support/fault-stack.js';

// Malformed requests against every public endpoint of jobs-api, agent-gateway and project-host:
// random and broken bodies, wrong content types, huge bodies, bad UTF-8, odd methods and path
// parameters. Never a 5xx, and every error in the contract of its surface. The seed is printed;
// FUZZ_SEED=<seed> replays a run, FUZZ_ROUNDS=<n> makes it longer.

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const rounds = Number(process.env.FUZZ_ROUNDS ?? 6);
/** Wall-clock cap, so a slow machine ends with fewer rounds instead of a Jest timeout. */
const budgetMs = Number(process.env.FUZZ_BUDGET_MS ?? 60_000);
const ADMIN_TOKEN = 'fault-admin-token-0123456789';
const JOB_ID = '{job}';

type Contract = 'runner' | 'user' | 'json-rpc' | 'any';

interface Endpoint {
  app: 'jobs-api' | 'agent-gateway' | 'project-host';
  methods: string[];
  path: string;
  contract: Contract;
  auth?: 'api-key' | 'admin' | 'project';
  valid?: () => unknown;
}

const jobBody = (): unknown => ({ query: 'Open /', initial_url: 'http://127.0.0.1:9/' });
const rpcBody = (): unknown => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { role: 'user', parts: [{ text: 'Open /' }], messageId: 'm1' } },
});
const mcpBody = (): unknown => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

const endpoints: Endpoint[] = [
  {
    app: 'jobs-api',
    methods: ['POST', 'PUT', 'PATCH'],
    path: '/v1/jobs',
    contract: 'runner',
    auth: 'api-key',
    valid: jobBody,
  },
  {
    app: 'jobs-api',
    methods: ['GET', 'DELETE', 'POST'],
    path: `/v1/jobs/${JOB_ID}`,
    contract: 'runner',
    auth: 'api-key',
  },
  { app: 'jobs-api', methods: ['GET'], path: `/v1/jobs/${JOB_ID}/log`, contract: 'runner', auth: 'api-key' },
  {
    app: 'jobs-api',
    methods: ['GET'],
    path: `/v1/jobs/${JOB_ID}/video`,
    contract: 'runner',
    auth: 'api-key',
  },
  {
    app: 'jobs-api',
    methods: ['GET'],
    path: `/v1/jobs/${JOB_ID}/events`,
    contract: 'runner',
    auth: 'api-key',
  },
  {
    app: 'jobs-api',
    methods: ['GET', 'POST'],
    path: '/v1/jobs?limit=-1&cursor=%ff&status=nope',
    contract: 'runner',
    auth: 'api-key',
  },
  { app: 'jobs-api', methods: ['GET', 'DELETE'], path: '/v1/models', contract: 'runner' },
  { app: 'jobs-api', methods: ['GET', 'POST'], path: '/v1/nowhere', contract: 'runner', auth: 'api-key' },
  { app: 'jobs-api', methods: ['GET', 'POST'], path: `/jobs/${JOB_ID}`, contract: 'any' },
  { app: 'jobs-api', methods: ['GET', 'POST'], path: '/', contract: 'any' },
  {
    app: 'agent-gateway',
    methods: ['POST', 'GET', 'PUT'],
    path: '/a2a',
    contract: 'json-rpc',
    auth: 'api-key',
    valid: rpcBody,
  },
  {
    app: 'agent-gateway',
    methods: ['POST', 'GET', 'DELETE'],
    path: '/mcp',
    contract: 'json-rpc',
    auth: 'api-key',
    valid: mcpBody,
  },
  { app: 'agent-gateway', methods: ['GET', 'POST'], path: '/.well-known/agent-card.json', contract: 'any' },
  {
    app: 'project-host',
    methods: ['POST', 'PUT'],
    path: '/api/user/auth/register',
    contract: 'user',
    auth: 'project',
    valid: () => ({ email: 'a@b.co', password: 'correct horse battery' }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: '/api/user/auth/login',
    contract: 'user',
    auth: 'project',
    valid: () => ({ email: 'a@b.co', password: 'x' }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: '/api/user/auth/refresh',
    contract: 'user',
    auth: 'project',
    valid: () => ({ refreshToken: 'x' }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: '/api/user/auth/forgot-password',
    contract: 'user',
    auth: 'project',
    valid: () => ({ email: 'a@b.co' }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: '/api/user/auth/forgot-password/callback',
    contract: 'user',
    auth: 'project',
    valid: () => ({ token: 'x', password: 'y' }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: '/api/user/auth/email-change/callback',
    contract: 'user',
    auth: 'project',
    valid: () => ({ token: 'x' }),
  },
  {
    app: 'project-host',
    methods: ['GET'],
    path: '/api/user/auth/magic-link?email=%ff&redirect_uri=javascript:1',
    contract: 'user',
    auth: 'project',
  },
  {
    app: 'project-host',
    methods: ['GET'],
    path: '/api/user/auth/magic-link/callback?token=%00',
    contract: 'user',
    auth: 'project',
  },
  {
    app: 'project-host',
    methods: ['GET'],
    path: '/api/user/auth/idp?redirect_uri=%ff',
    contract: 'user',
    auth: 'project',
  },
  {
    app: 'project-host',
    methods: ['GET', 'PUT', 'PATCH'],
    path: '/api/user/me',
    contract: 'user',
    auth: 'project',
    valid: () => ({ name: 'Ada' }),
  },
  {
    app: 'project-host',
    methods: ['POST', 'GET'],
    path: '/v1/projects',
    contract: 'user',
    auth: 'admin',
    valid: () => ({ slug: 'fuzz', name: 'Fuzz' }),
  },
  {
    app: 'project-host',
    methods: ['GET', 'DELETE'],
    path: `/v1/projects/${JOB_ID}`,
    contract: 'user',
    auth: 'admin',
  },
  {
    app: 'project-host',
    methods: ['PUT'],
    path: `/v1/projects/${JOB_ID}/auth`,
    contract: 'user',
    auth: 'admin',
    valid: () => ({ enabled: true }),
  },
  {
    app: 'project-host',
    methods: ['PUT'],
    path: `/v1/projects/${JOB_ID}/smtp`,
    contract: 'user',
    auth: 'admin',
    valid: () => ({ host: 'x', port: 25 }),
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: `/v1/projects/${JOB_ID}/domains`,
    contract: 'user',
    auth: 'admin',
    valid: () => ({ domain: 'x.example' }),
  },
  {
    app: 'project-host',
    methods: ['GET'],
    path: `/v1/projects/${JOB_ID}/users`,
    contract: 'user',
    auth: 'admin',
  },
  {
    app: 'project-host',
    methods: ['GET'],
    path: `/v1/projects/${JOB_ID}/emails`,
    contract: 'user',
    auth: 'admin',
  },
  {
    app: 'project-host',
    methods: ['POST'],
    path: `/v1/projects/${JOB_ID}/deployments`,
    contract: 'user',
    auth: 'admin',
    valid: () => ({ files: {} }),
  },
];

/** What is wrong with an answer, or undefined when it keeps the surface's contract. */
/** The one 5xx a contract defines: project-host's 503 for sign-in a project has not configured. */
const CONTRACT_503 = new Set(['idp_oauth_unconfigured', 'idp_oauth_disabled', 'not_implemented']);

function contractViolation(contract: Contract, method: string, res: RawResponse): string | undefined {
  const code = (res.json as { code?: unknown } | undefined)?.code;
  const specified = res.status === 503 && contract === 'user' && CONTRACT_503.has(String(code));
  const specifiedHead = res.status === 503 && method === 'HEAD' && contract === 'user';
  if (res.status >= 500 && !specified && !specifiedHead) return `a ${res.status}`;
  if (res.status < 400 || method === 'HEAD' || contract === 'any') return undefined;
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return 'an error without a JSON body';
  switch (contract) {
    case 'runner': {
      const plain = typeof body.detail === 'string' && typeof body.code === 'string';
      const validation = Array.isArray(body.detail) && body.detail.length > 0;
      return plain || validation ? undefined : 'not a runner error ({detail, code} or a 422 detail list)';
    }
    case 'user':
      return typeof body.code === 'string' && typeof body.message === 'string'
        ? undefined
        : 'not {code, message}';
    case 'json-rpc': {
      const error = body.error as Record<string, unknown> | undefined;
      if (
        body.jsonrpc === '2.0' &&
        error &&
        typeof error.code === 'number' &&
        typeof error.message === 'string'
      )
        return undefined;
      return 'not a JSON-RPC error response';
    }
  }
}

describe('fault: fuzzing every public endpoint', () => {
  const stack = new FaultStack('fuzz');
  const ports: Record<Endpoint['app'], number> = { 'jobs-api': 0, 'agent-gateway': 0, 'project-host': 0 };
  let project: TestProject;
  let jobId = '';

  beforeAll(async () => {
    await stack.start();
    process.env.TEST_PG_ADMIN_URL = stack.postgres.adminUrl;
    // One at a time: three Node apps booting at once on a busy 2-core machine miss their deadline.
    const api = await stack.startHttpApp('jobs-api');
    const gateway = await stack.startHttpApp('agent-gateway', (port) => ({
      PUBLIC_RUNNER_URL: `http://127.0.0.1:${port}`,
    }));
    const host = await stack.startHttpApp('project-host', (port) => ({
      PUBLIC_URL: `http://localhost:${port}`,
      PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN,
      AUTH_SECRET: 'fault-auth-secret-0123456789abcdefghijklmnopqrstuvwxyz',
      BCRYPT_COST: '10',
    }));
    ports['jobs-api'] = api.port;
    ports['agent-gateway'] = gateway.port;
    ports['project-host'] = host.port;
    project = await createTestProject({ databaseUrl: stack.databaseUrl, port: host.port, smtpPort: 1 });
    const created = await rawRequest(
      api.port,
      'POST',
      '/v1/jobs',
      { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ query: 'Open /', initial_url: stack.siteUrl })),
    );
    jobId = (created.json as { id: string }).id;
  });

  afterAll(() => stack.stop());

  it(`never answers 5xx and always in the surface's error contract (seed ${seed})`, async () => {
    process.stdout.write(`fuzz seed ${seed} (replay with FUZZ_SEED=${seed})\n`);
    const fuzz = new Fuzzer(seed);
    const violations: string[] = [];
    // Printed as found too, so even a run cut short by a timeout shows what it saw.
    const report = (line: string): void => {
      process.stdout.write(`fuzz violation: ${line}\n`);
      violations.push(line);
    };
    const slow: string[] = [];
    let sent = 0;
    const stopAt = Date.now() + budgetMs;
    for (let round = 0; round < rounds && Date.now() < stopAt; round++) {
      for (const endpoint of endpoints) {
        if (round > 0 && Date.now() > stopAt) break;
        // HEAD on an event stream would wait for the stream's end: streams get GET only.
        const odd = endpoint.path.endsWith('/events') ? ['OPTIONS', 'PATCH'] : ['OPTIONS', 'HEAD', 'PATCH'];
        const method = fuzz.pick([...endpoint.methods, ...endpoint.methods, ...odd]);
        const param = round === 0 ? jobId : fuzz.pick([jobId, fuzz.pathParam()]);
        const path = endpoint.path.replace(JOB_ID, param);
        const headers: Record<string, string> = {};
        const credential = fuzz.int(8);
        if (endpoint.auth === 'api-key' && credential > 0)
          headers.authorization = `Bearer ${credential === 1 ? 'wrong' : API_KEY}`;
        if (endpoint.auth === 'admin' && credential > 0)
          headers.authorization = `Bearer ${credential === 1 ? 'wrong' : ADMIN_TOKEN}`;
        if (endpoint.auth === 'project') {
          headers.host = credential === 0 ? `nope.localhost:${ports['project-host']}` : project.host;
          if (credential === 1) headers.authorization = `Bearer ${fuzz.token()}`;
        }
        if (endpoint.app === 'agent-gateway' && endpoint.path === '/mcp' && fuzz.int(2) === 0)
          headers.accept = 'application/json, text/event-stream';
        const { body, contentType, label } =
          method === 'GET' || method === 'HEAD'
            ? { body: undefined, contentType: undefined, label: 'no body' }
            : fuzz.body(endpoint.valid ?? (() => fuzz.json()));
        if (contentType) headers['content-type'] = contentType;
        const what = `${endpoint.app} ${method} ${path.slice(0, 120)} [${label}]`;
        sent++;
        const began = Date.now();
        try {
          const res = await rawRequest(ports[endpoint.app], method, path, headers, body);
          if (Date.now() - began > 5_000) slow.push(`${what}: ${Date.now() - began} ms`);
          const problem = contractViolation(endpoint.contract, method, res);
          if (problem) report(`${what}: ${problem} (${res.status} ${res.text.slice(0, 200)})`);
        } catch (error) {
          // A huge body may be refused before it is read: the server answers 413 and closes.
          if (label.startsWith('huge') && /EPIPE|ECONNRESET/.test((error as Error).message)) continue;
          report(`${what}: ${(error as Error).message} after ${Date.now() - began} ms`);
        }
      }
    }
    process.stdout.write(`fuzz sent ${sent} requests; slow answers: ${slow.join('; ') || 'none'}\n`);
    expect(sent).toBeGreaterThanOrEqual(endpoints.length);
    expect({ seed, violations }).toEqual({ seed, violations: [] });
  }, 240_000);
});
