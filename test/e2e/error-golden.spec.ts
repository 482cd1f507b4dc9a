import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aStack } from '../support/a2a-stack.js';
import { createTestProject, dropTestProject, UserClient, type TestProject } from '../support/user-client.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// Golden error bodies: every kind of bad input each contract refuses, with the exact status,
// content type and body a client sees (byte-for-byte for HTTP bodies). They pin the wire output
// of the validation and error mappers: /v1 (pydantic-style 422 `detail`), /api/user and the
// control plane (`{code,message}`), /a2a (JSON-RPC errors) and /mcp (isError tool results).
// Record them again only for a deliberate contract change: UPDATE_GOLDEN=1 rewrites the file.

const GOLDEN_FILE = join(import.meta.dirname, 'golden', 'error-bodies.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const KEY = 'error-golden-key';
const ADMIN = 'user-auth-admin-token-0123456789';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

interface HttpCase {
  method: string;
  path: string;
  /** A JSON value (serialised), or a raw string with `contentType`. */
  json?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

const post = (path: string, json: unknown): HttpCase => ({ method: 'POST', path, json });
const put = (path: string, json: unknown): HttpCase => ({ method: 'PUT', path, json });

interface GoldenHttp {
  status: number;
  contentType: string | undefined;
  /** The parsed body when it serialises back to the same bytes, else the raw text. */
  body?: unknown;
  text?: string;
}

type Golden = Record<string, unknown>;

const golden: Golden = existsSync(GOLDEN_FILE)
  ? (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Golden)
  : {};
const recorded: Golden = {};

/** One exchange as a client sees it, through the suite's raw HTTP client (any Host header). */
async function send(base: string, host: string | undefined, input: HttpCase): Promise<GoldenHttp> {
  const url = new URL(input.path, base);
  const client = new UserClient(Number(url.port), host ?? url.host);
  const res = await client.request(input.method, url.pathname + url.search, input);
  const result: GoldenHttp = { status: res.status, contentType: res.headers['content-type'] };
  if (res.body !== undefined && JSON.stringify(res.body) === res.text) result.body = res.body;
  else result.text = res.text;
  return result;
}

/** The case's headers over the defaults; an empty value sends no such header. */
function headersOf(defaults: Record<string, string>, input: HttpCase): Record<string, string> {
  const headers = { ...defaults, ...input.headers };
  for (const [key, value] of Object.entries(headers)) if (value === '') delete headers[key];
  return headers;
}

function check(name: string, actual: unknown): void {
  recorded[name] = actual;
  if (UPDATE) return;
  expect(Object.hasOwn(golden, name) ? { [name]: golden[name] } : `no golden entry for ${name}`).toEqual({
    [name]: actual,
  });
  // toEqual ignores key order; the wire does not.
  expect(JSON.stringify(actual)).toBe(JSON.stringify(golden[name]));
}

const stack = new A2aStack('error-golden', KEY);
let runner = '';
let host: Host;
let project: TestProject;
let accessToken = '';

beforeAll(async () => {
  await stack.start();
  runner = await stack.startJobsApi();
  host = await startProjectHost({ ...GENEROUS_LIMITS });
  project = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  const registered = await send(
    `http://127.0.0.1:${host.port}`,
    project.host,
    post('/api/user/auth/register', {
      email: `golden-${project.slug}@example.com`,
      password: 'Vt!golden-Pass-42q9',
    }),
  );
  accessToken = (registered.body as { accessToken: string }).accessToken;
});

afterAll(async () => {
  await host?.app.stop();
  if (project) await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
  await stack.stop();
  if (UPDATE) {
    mkdirSync(join(import.meta.dirname, 'golden'), { recursive: true });
    const merged = { ...golden, ...recorded };
    const sorted = Object.fromEntries(Object.keys(merged).map((key) => [key, merged[key]]));
    writeFileSync(GOLDEN_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
});

describe('/v1 (pydantic-style 422 detail and the runner error bodies)', () => {
  const cases: Record<string, HttpCase> = {
    'create: empty object': post('/v1/jobs', {}),
    'create: no body': { method: 'POST', path: '/v1/jobs', raw: '' },
    'create: null body': post('/v1/jobs', null),
    'create: array body': post('/v1/jobs', []),
    'create: wrong types everywhere': post('/v1/jobs', {
      query: 5,
      initial_url: 7,
      model: false,
      env: 'desktop',
      highlight_mouse: 'true',
      metadata: [],
    }),
    'create: null where a default exists': post('/v1/jobs', {
      query: 'q',
      initial_url: null,
      env: null,
      highlight_mouse: null,
    }),
    'create: empty query': post('/v1/jobs', { query: '' }),
    'create: query too long': post('/v1/jobs', { query: 'x'.repeat(20_001) }),
    'create: metadata too large': post('/v1/jobs', { query: 'q', metadata: { blob: 'x'.repeat(70_000) } }),
    'create: float for a boolean': post('/v1/jobs', { query: 'q', highlight_mouse: 1 }),
    'create: unknown model': post('/v1/jobs', { query: 'q', model: 'gpt-nope' }),
    'create: malformed JSON': { method: 'POST', path: '/v1/jobs', raw: '{"query": "q",' },
    'create: too deeply nested JSON': {
      method: 'POST',
      path: '/v1/jobs',
      raw: `{"query":"q","metadata":${'['.repeat(200)}${']'.repeat(200)}}`,
    },
    'create: text/plain body': {
      method: 'POST',
      path: '/v1/jobs',
      raw: 'query=q',
      contentType: 'text/plain',
    },
    'create: no key': {
      method: 'POST',
      path: '/v1/jobs',
      json: { query: 'q' },
      headers: { authorization: '' },
    },
    'create: wrong key': {
      method: 'POST',
      path: '/v1/jobs',
      json: { query: 'q' },
      headers: { authorization: 'Bearer not-a-key' },
    },
    'list: bad limit and status': { method: 'GET', path: '/v1/jobs?limit=abc&status=nope' },
    'list: limit out of range': { method: 'GET', path: '/v1/jobs?limit=0' },
    'list: limit too high': { method: 'GET', path: '/v1/jobs?limit=201' },
    'get: unknown job': { method: 'GET', path: `/v1/jobs/${MISSING_ID}` },
    'get: not a uuid': { method: 'GET', path: '/v1/jobs/not-a-uuid' },
    'cancel: unknown job': { method: 'DELETE', path: `/v1/jobs/${MISSING_ID}` },
    'log: unknown job': { method: 'GET', path: `/v1/jobs/${MISSING_ID}/log` },
    'video: unknown job': { method: 'GET', path: `/v1/jobs/${MISSING_ID}/video` },
    'script: unknown format': { method: 'GET', path: `/v1/jobs/${MISSING_ID}/script?format=docx` },
    'script: unknown job': { method: 'GET', path: `/v1/jobs/${MISSING_ID}/script` },
    'route: unknown path': { method: 'GET', path: '/v1/nope' },
    'route: wrong method': { method: 'PATCH', path: '/v1/jobs' },
    'create: body too large': {
      method: 'POST',
      path: '/v1/jobs',
      raw: JSON.stringify({ query: 'q'.repeat(300_000) }),
    },
  };
  it.each(Object.keys(cases))('%s', async (name) => {
    const input = cases[name]!;
    const headers = headersOf({ authorization: `Bearer ${KEY}` }, input);
    check(`v1 ${name}`, await send(runner, undefined, { ...input, headers }));
  });
});

describe('/api/user ({code,message})', () => {
  const long = 'x'.repeat(300);
  const cases: Record<string, HttpCase> = {
    'register: empty object': post('/api/user/auth/register', {}),
    'register: wrong types': post('/api/user/auth/register', { email: 5, password: 5, name: 5 }),
    'register: bad email, empty password': post('/api/user/auth/register', {
      email: 'not-an-email',
      password: '',
    }),
    'register: email too long': post('/api/user/auth/register', {
      email: `${long}@example.com`,
      password: 'Vt!golden-Pass-42q9',
    }),
    'register: email null': post('/api/user/auth/register', { email: null, password: 'Vt!golden-Pass-42q9' }),
    'register: password too long': post('/api/user/auth/register', {
      email: 'a@example.com',
      password: 'p'.repeat(1025),
    }),
    'register: name too long with control characters': post('/api/user/auth/register', {
      email: 'a@example.com',
      password: 'Vt!golden-Pass-42q9',
      name: `${long}\u0007`,
    }),
    'register: name with a control character': post('/api/user/auth/register', {
      email: 'a@example.com',
      password: 'Vt!golden-Pass-42q9',
      name: 'a\nb',
    }),
    'register: weak password': post('/api/user/auth/register', {
      email: 'weak@example.com',
      password: 'password',
    }),
    'register: array body': post('/api/user/auth/register', []),
    'register: string body': post('/api/user/auth/register', 'hello'),
    'register: null body': post('/api/user/auth/register', null),
    'register: no body': { method: 'POST', path: '/api/user/auth/register' },
    'register: malformed JSON': { method: 'POST', path: '/api/user/auth/register', raw: '{"email":' },
    'register: text/plain body': {
      method: 'POST',
      path: '/api/user/auth/register',
      raw: 'email=a',
      contentType: 'text/plain',
    },
    'login: password missing': post('/api/user/auth/login', { email: 'a@example.com' }),
    'login: wrong password': post('/api/user/auth/login', {
      email: 'nobody@example.com',
      password: 'whatever',
    }),
    'refresh: empty token, revoke not a boolean': post('/api/user/auth/refresh', {
      refreshToken: '  ',
      revoke: 'yes',
    }),
    'refresh: token missing': post('/api/user/auth/refresh', {}),
    'refresh: unknown token': post('/api/user/auth/refresh', { refreshToken: 'no-such-token' }),
    'magic link: no query': { method: 'GET', path: '/api/user/auth/magic-link' },
    'magic link: repeated email': {
      method: 'GET',
      path: '/api/user/auth/magic-link?email=a%40example.com&email=b%40example.com',
    },
    'magic link: bad email': { method: 'GET', path: '/api/user/auth/magic-link?email=nope' },
    'magic link: empty email and redirect_uri': {
      method: 'GET',
      path: '/api/user/auth/magic-link?email=&redirect_uri=',
    },
    'magic link callback: no code': { method: 'GET', path: '/api/user/auth/magic-link/callback' },
    'magic link callback: empty code': { method: 'GET', path: '/api/user/auth/magic-link/callback?code=%20' },
    'magic link callback: unknown code': {
      method: 'GET',
      path: '/api/user/auth/magic-link/callback?code=nope',
    },
    'forgot password: empty object': post('/api/user/auth/forgot-password', {}),
    'forgot password callback: wrong types': post('/api/user/auth/forgot-password/callback', {
      code: 5,
      password: '',
    }),
    'forgot password callback: code too long': post('/api/user/auth/forgot-password/callback', {
      code: 'c'.repeat(513),
      password: 'Vt!golden-Pass-42q9',
    }),
    'email change callback: code missing': post('/api/user/auth/email-change/callback', {}),
    'me: no token': { method: 'GET', path: '/api/user/me' },
    'update me: wrong types': {
      method: 'PUT',
      path: '/api/user/me',
      json: { name: 5, email: 'bad', currentPassword: '' },
      headers: { authorization: 'Bearer {access}' },
    },
    'update me: name null and bad email type': {
      method: 'PUT',
      path: '/api/user/me',
      json: { name: null, email: 7 },
      headers: { authorization: 'Bearer {access}' },
    },
    'update me: array body': {
      method: 'PUT',
      path: '/api/user/me',
      json: [],
      headers: { authorization: 'Bearer {access}' },
    },
    'route: unknown path': { method: 'GET', path: '/api/user/nope' },
    'route: wrong method': { method: 'DELETE', path: '/api/user/auth/login' },
    'register: body too large': post('/api/user/auth/register', {
      email: 'a@example.com',
      password: 'p'.repeat(70_000),
    }),
  };
  it.each(Object.keys(cases))('%s', async (name) => {
    const input = cases[name]!;
    const headers = Object.fromEntries(
      Object.entries(input.headers ?? {}).map(([key, value]) => [
        key,
        value.replace('{access}', accessToken),
      ]),
    );
    check(`user ${name}`, await send(`http://127.0.0.1:${host.port}`, project.host, { ...input, headers }));
  });
});

describe('control plane ({code,message})', () => {
  const cases: Record<string, HttpCase> = {
    'create project: empty object': post('/v1/projects', {}),
    'create project: array body': post('/v1/projects', []),
    'create project: slug too short': post('/v1/projects', { slug: 'ab' }),
    'create project: slug with capitals': post('/v1/projects', { slug: 'Bad_Slug' }),
    'create project: reserved slug': post('/v1/projects', { slug: 'admin' }),
    'create project: uuid slug': post('/v1/projects', { slug: MISSING_ID }),
    'create project: slug not a string': post('/v1/projects', { slug: 5 }),
    'create project: name with a control character': post('/v1/projects', {
      slug: 'golden-ok',
      name: 'a\u0001',
    }),
    'list projects: page 0': { method: 'GET', path: '/v1/projects?page=0' },
    'list projects: pageSize too big': { method: 'GET', path: '/v1/projects?pageSize=101' },
    'auth settings: empty object': put('/v1/projects/{project}/auth', {}),
    'auth settings: bad idpMode': put('/v1/projects/{project}/auth', {
      enabled: true,
      emailPassword: true,
      allowSignups: true,
      idpMode: 'google',
    }),
    'auth settings: string boolean': put('/v1/projects/{project}/auth', {
      enabled: 'true',
      emailPassword: true,
      allowSignups: true,
      idpMode: 'off',
    }),
    'auth settings: bad redirect schemes': {
      method: 'PUT',
      path: '/v1/projects/{project}/auth',
      json: {
        enabled: true,
        emailPassword: true,
        allowSignups: true,
        idpMode: 'off',
        redirectSchemes: ['https'],
      },
    },
    'auth settings: redirect schemes not a list': put('/v1/projects/{project}/auth', {
      enabled: true,
      emailPassword: true,
      allowSignups: true,
      idpMode: 'off',
      redirectSchemes: 'x',
    }),
    'smtp settings: empty object': put('/v1/projects/{project}/smtp', {}),
    'smtp settings: bad host': put('/v1/projects/{project}/smtp', {
      host: 'bad host!',
      port: 25,
      secure: false,
      from: 'a@example.com',
    }),
    'smtp settings: bad port': put('/v1/projects/{project}/smtp', {
      host: 'smtp.example.com',
      port: 70000,
      secure: false,
      from: 'a@example.com',
    }),
    'smtp settings: bad from': put('/v1/projects/{project}/smtp', {
      host: 'smtp.example.com',
      port: 25,
      secure: false,
      from: 'nobody',
    }),
    'domains: IP address': post('/v1/projects/{project}/domains', { domain: '10.0.0.1' }),
    'domains: single label': post('/v1/projects/{project}/domains', { domain: 'shop' }),
    'domains: verified not a boolean': post('/v1/projects/{project}/domains', {
      domain: 'shop.example.com',
      verified: 'yes',
    }),
    'users: search too long': {
      method: 'GET',
      path: `/v1/projects/{project}/users?search=${'s'.repeat(321)}`,
    },
    'users: bad page': { method: 'GET', path: '/v1/projects/{project}/users?page=x' },
    'emails: bad status': { method: 'GET', path: '/v1/projects/{project}/emails?status=lost' },
    'unknown project': { method: 'GET', path: `/v1/projects/${MISSING_ID}` },
    'no token': { method: 'GET', path: '/v1/projects', headers: { authorization: '' } },
    'wrong token': { method: 'GET', path: '/v1/projects', headers: { authorization: 'Bearer nope' } },
    'route: unknown path': { method: 'GET', path: '/v1/nope' },
  };
  it.each(Object.keys(cases))('%s', async (name) => {
    const input = cases[name]!;
    const headers = headersOf({ authorization: `Bearer ${ADMIN}` }, input);
    const path = input.path.replace('{project}', project.id);
    check(
      `control plane ${name}`,
      await send(`http://127.0.0.1:${host.port}`, `localhost:${host.port}`, { ...input, path, headers }),
    );
  });
});

describe('/a2a (JSON-RPC errors)', () => {
  const rpc = (method: string, params?: unknown): HttpCase =>
    post('/a2a', { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });
  const message = (extra: Record<string, unknown>) => ({ message: { messageId: 'm-1', ...extra } });
  const cases: Record<string, HttpCase> = {
    'no key': { ...rpc('GetTask', { id: MISSING_ID }), headers: { authorization: '' } },
    'body too large': {
      method: 'POST',
      path: '/a2a',
      raw: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { pad: 'x'.repeat(300_000) },
      }),
    },
    'MCP body too large': {
      method: 'POST',
      path: '/mcp',
      raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', pad: 'x'.repeat(300_000) }),
    },
    'gateway: unknown path': { method: 'GET', path: '/nope' },
    'gateway: wrong method on the agent card': { method: 'DELETE', path: '/.well-known/agent-card.json' },
    'wrong key': { ...rpc('GetTask', { id: MISSING_ID }), headers: { authorization: 'Bearer nope' } },
    'no A2A-Version': { ...rpc('GetTask', { id: MISSING_ID }), headers: { 'a2a-version': '' } },
    'A2A-Version 0.3': { ...rpc('GetTask', { id: MISSING_ID }), headers: { 'a2a-version': '0.3' } },
    'malformed JSON': { method: 'POST', path: '/a2a', raw: '{"jsonrpc":' },
    'empty batch': post('/a2a', []),
    'not an object': post('/a2a', 'hello'),
    'no method': post('/a2a', { jsonrpc: '2.0', id: 1 }),
    'wrong jsonrpc version': post('/a2a', { jsonrpc: '1.0', id: 1, method: 'GetTask' }),
    'unknown method': rpc('tasks/get', { id: 'x' }),
    'params not an object': rpc('SendMessage', 'x'),
    'message missing': rpc('SendMessage', {}),
    'parts empty': rpc('SendMessage', message({ parts: [] })),
    'messageId missing': rpc('SendMessage', { message: { parts: [{ text: 'Open the page' }] } }),
    'part with two kinds': rpc('SendMessage', message({ parts: [{ text: 'a', url: 'https://x' }] })),
    'part text not a string': rpc('SendMessage', message({ parts: [{ text: 5 }] })),
    'role agent': rpc('SendMessage', message({ role: 'ROLE_AGENT', parts: [{ text: 'Open the page' }] })),
    'empty query': rpc('SendMessage', message({ parts: [{ text: '' }] })),
    'metadata not an object': rpc('SendMessage', message({ parts: [{ text: 'Open' }], metadata: [1] })),
    'unknown task': rpc('GetTask', { id: MISSING_ID }),
    'task id missing': rpc('GetTask', {}),
    'historyLength negative': rpc('GetTask', { id: MISSING_ID, historyLength: -1 }),
    'cancel unknown task': rpc('CancelTask', { id: MISSING_ID }),
    'list: pageSize too big': rpc('ListTasks', { pageSize: 101 }),
    'list: bad pageToken': rpc('ListTasks', { pageToken: 'garbage' }),
    'list: unknown status filter matches nothing': rpc('ListTasks', { status: 'TASK_STATE_NOPE' }),
    'push config: unknown task': rpc('CreateTaskPushNotificationConfig', {
      taskId: MISSING_ID,
      pushNotificationConfig: { url: 'https://hooks.example.com/a2a' },
    }),
  };
  it.each(Object.keys(cases))('%s', async (name) => {
    const input = cases[name]!;
    const headers = headersOf({ authorization: `Bearer ${KEY}`, 'a2a-version': '1.0' }, input);
    check(`a2a ${name}`, await send(stack.gatewayUrl, undefined, { ...input, headers }));
  });
});

describe('/mcp (isError results and protocol errors)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'error-golden', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
  });
  afterAll(() => client?.close().catch(() => undefined));

  const cases: Record<string, [string, Record<string, unknown>]> = {
    'run: no query': ['run_browser_test', {}],
    'run: empty query': ['run_browser_test', { query: '' }],
    'run: wrong types': ['run_browser_test', { query: 5, env: 'desktop', highlight_mouse: 'yes' }],
    'run: unknown model': ['run_browser_test', { query: 'Open the page', model: 'gpt-nope' }],
    'get: unknown job': ['get_job', { job_id: MISSING_ID }],
    'get: not a uuid': ['get_job', { job_id: 'nope' }],
    'get: no job_id': ['get_job', {}],
    'log: unknown job': ['get_job_log', { job_id: MISSING_ID }],
    'cancel: unknown job': ['cancel_job', { job_id: MISSING_ID }],
    'list: limit 0': ['list_jobs', { limit: 0 }],
    'list: bad status': ['list_jobs', { status: 'nope' }],
    'unknown tool': ['no_such_tool', {}],
  };
  it.each(Object.keys(cases))('%s', async (name) => {
    const [tool, args] = cases[name]!;
    let outcome: unknown;
    try {
      outcome = { result: await client.callTool({ name: tool, arguments: args }) };
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      outcome = { error: { code, message } };
    }
    check(`mcp ${name}`, outcome);
  });
});
