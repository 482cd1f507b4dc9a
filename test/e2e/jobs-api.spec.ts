import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import {
  insertApiKey,
  RunnerClient,
  sql,
  type RunnerResponse,
  type StoredApiKey,
} from '../support/runner-client.js';

// Black-box tests of the job API of the browser test runner (spec: "Browser Test Runner Service"),
// against one built jobs-api process on the real Postgres and Redis of this run. No browser worker
// runs, so jobs stay `queued`; where a test needs a job that ran, it writes what the worker would
// (artifact files, the job's row) itself.

const ENV_KEYS = ['e2e-env-key-one', 'e2e-env-key-two'];
const INTERPRETER = 'instruction-interpreter';
const DEFAULT_START_URL = 'https://duckduckgo.com/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENV_PATTERN = '^(local_browser|hosted_browser)$';

interface JobRecord {
  id: string;
  status: string;
  query: string;
  initial_url: string;
  model: string;
  env: string;
  highlight_mouse: boolean;
  metadata: Record<string, unknown> | null;
  summary: string | null;
  error: string | null;
  steps: unknown[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  links: { self: string; log: string; video: string | null };
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes?: Record<string, unknown> };
}
interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: OpenApiSchema }[];
  requestBody?: { content: Record<string, { schema: OpenApiSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: OpenApiSchema }> }>;
}
interface OpenApiSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: unknown[];
  [keyword: string]: unknown;
}

let app: AppProcess;
let base = '';
let artifactsDir = '';
let api: RunnerClient; // owner A: a key stored in api_keys, used for most tests
let ownerA: StoredApiKey;
let ownerB: StoredApiKey;
let ownerMany: StoredApiKey; // only for the default-limit test
let revokedKey: StoredApiKey;
const owners: string[] = [];
const envJobIds: string[] = [];

const job = (res: RunnerResponse) => res.json as JobRecord;
const jobs = (res: RunnerResponse) => (res.json as { jobs: JobRecord[] }).jobs;

async function createJob(client: RunnerClient, body: Record<string, unknown> = {}): Promise<JobRecord> {
  const res = await client.post('/v1/jobs', { query: 'Open https://example.com', ...body });
  expect(res.status).toBe(202);
  return job(res);
}

beforeAll(async () => {
  const run = randomBytes(4).toString('hex');
  // Keys are stored before their first use: the API caches a valid key for 10 s.
  [ownerA, ownerB, ownerMany, revokedKey] = await Promise.all([
    insertApiKey(`e2e-jobs-a-${run}`),
    insertApiKey(`e2e-jobs-b-${run}`),
    insertApiKey(`e2e-jobs-many-${run}`),
    insertApiKey(`e2e-jobs-revoked-${run}`, { revoked: true }),
  ]);
  owners.push(ownerA.owner, ownerB.owner, ownerMany.owner, revokedKey.owner);

  artifactsDir = await mkdtemp(join(tmpdir(), 'jobs-api-e2e-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = startApp('jobs-api', {
    DATABASE_URL: process.env.DATABASE_URL!,
    REDIS_URL: process.env.REDIS_URL!,
    // A queue of its own: a browser worker of another spec must not pick these jobs up.
    REDIS_PREFIX: `${process.env.REDIS_PREFIX!}-jobs-api-e2e`,
    API_KEYS: ENV_KEYS.join(','),
    HOST: '127.0.0.1',
    PORT: String(port),
    ARTIFACTS_DIR: artifactsDir,
  });
  await waitForHttp(`${base}/health`, app);
  api = new RunnerClient(base, ownerA.key);
});

afterAll(async () => {
  await app?.stop('SIGKILL');
  if (artifactsDir) await rm(artifactsDir, { recursive: true, force: true });
  if (owners.length) {
    await sql('DELETE FROM jobs WHERE owner = ANY($1) OR id = ANY($2::uuid[])', [owners, envJobIds]);
    await sql('DELETE FROM api_keys WHERE owner = ANY($1)', [owners]);
  }
});

describe('authentication', () => {
  const protectedCalls: [string, string, string][] = [
    ['GET', '/v1/jobs', ''],
    ['POST', '/v1/jobs', JSON.stringify({ query: 'Open https://example.com' })],
    ['GET', `/v1/jobs/${randomUUID()}`, ''],
    ['DELETE', `/v1/jobs/${randomUUID()}`, ''],
    ['GET', `/v1/jobs/${randomUUID()}/log`, ''],
    ['GET', `/v1/jobs/${randomUUID()}/video`, ''],
    ['GET', `/v1/jobs/${randomUUID()}/screenshot`, ''],
    ['GET', '/v1/models', ''],
  ];

  it.each(protectedCalls)(
    '%s %s without a key is 401 with a body that says how to send one',
    async (method, path, body) => {
      const res = await api.request(path, {
        method,
        key: null,
        ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({
        detail: 'An API key is required: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".',
        code: 'unauthorized',
      });
    },
  );

  it.each([
    ['a wrong bearer key', { authorization: 'Bearer not-a-key' }],
    ['a wrong X-API-Key', { 'x-api-key': 'not-a-key' }],
    ['a near miss of an env key', { authorization: `Bearer ${ENV_KEYS[0]}x` }],
  ])('%s is 401', async (_name, headers) => {
    const res = await api.get('/v1/jobs', { key: null, headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.json).toEqual({ detail: 'The API key is not valid or was revoked.', code: 'unauthorized' });
  });

  // Headers are built when the test runs: the stored keys exist only after beforeAll.
  it.each([
    ['Authorization: Bearer (1st key of API_KEYS)', () => ({ authorization: `Bearer ${ENV_KEYS[0]}` })],
    ['X-API-Key (2nd key of API_KEYS)', () => ({ 'x-api-key': ENV_KEYS[1]! })],
    ['a lower-case bearer scheme', () => ({ authorization: `bearer ${ENV_KEYS[1]}` })],
    ['Authorization: Bearer (stored key)', () => ({ authorization: `Bearer ${ownerB.key}` })],
    ['X-API-Key (stored key)', () => ({ 'x-api-key': ownerB.key })],
  ] as [string, () => Record<string, string>][])('accepts %s', async (_name, headers) => {
    const res = await api.get('/v1/jobs?limit=1', { key: null, headers: headers() });
    expect(res.status).toBe(200);
    expect(Array.isArray(jobs(res))).toBe(true);
  });

  it('keys of API_KEYS can create and read jobs', async () => {
    const viaEnv = api.as(ENV_KEYS[0]!);
    const created = await createJob(viaEnv, { query: 'created with an env key' });
    envJobIds.push(created.id);
    const read = await api.get(`/v1/jobs/${created.id}`, {
      key: null,
      headers: { 'x-api-key': ENV_KEYS[1]! },
    });
    expect(read.status).toBe(200);
    expect(job(read).id).toBe(created.id);
  });

  it('a key stored in api_keys sees only the jobs of its owner', async () => {
    const asB = api.as(ownerB.key);
    const mine = await createJob(api, { query: 'owner A only' });
    const theirs = await createJob(asB, { query: 'owner B only' });

    const notFound = { detail: `Job "${mine.id}" was not found.`, code: 'job_not_found' };
    for (const path of [
      `/v1/jobs/${mine.id}`,
      `/v1/jobs/${mine.id}/log`,
      `/v1/jobs/${mine.id}/video`,
      `/v1/jobs/${mine.id}/screenshot`,
    ]) {
      const res = await asB.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.json).toEqual(notFound);
    }
    const listB = jobs(await asB.get('/v1/jobs?limit=200'));
    expect(listB.map((j) => j.id)).toContain(theirs.id);
    expect(listB.map((j) => j.id)).not.toContain(mine.id);
    // Keys of API_KEYS belong to another owner too.
    expect((await api.as(ENV_KEYS[0]!).get(`/v1/jobs/${mine.id}`)).status).toBe(404);

    const cancel = await asB.delete(`/v1/jobs/${mine.id}`);
    expect(cancel.status).toBe(404);
    expect(cancel.json).toEqual(notFound);
    expect(job(await api.get(`/v1/jobs/${mine.id}`)).status).toBe('queued');
  });

  it('a revoked key is 401', async () => {
    const res = await api.get('/v1/jobs', { key: revokedKey.key });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ detail: 'The API key is not valid or was revoked.', code: 'unauthorized' });
    const create = await api.post('/v1/jobs', { query: 'x' }, { key: revokedKey.key });
    expect(create.status).toBe(401);
  });
});

describe('POST /v1/jobs', () => {
  it('answers 202 with the queued job record, defaults filled in and metadata echoed', async () => {
    const models = (await api.get('/v1/models')).json as { models: { id: string; default: boolean }[] };
    const defaultModel = models.models.find((m) => m.default)!.id;
    expect(defaultModel).toBe(INTERPRETER);

    const metadata = { ticket: 'QA-1', nested: { list: [1, 'two', null], flag: false } };
    const res = await api.post('/v1/jobs', {
      query: 'Open https://example.com and check "Example"',
      metadata,
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const record = job(res);
    expect(record.id).toMatch(UUID);
    expect(record).toEqual({
      id: record.id,
      status: 'queued',
      query: 'Open https://example.com and check "Example"',
      initial_url: DEFAULT_START_URL,
      model: defaultModel,
      env: 'local_browser',
      highlight_mouse: true,
      metadata,
      summary: null,
      error: null,
      steps: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      started_at: null,
      finished_at: null,
      links: { self: `/v1/jobs/${record.id}`, log: `/v1/jobs/${record.id}/log`, video: null },
    });
    expect(Math.abs(Date.parse(record.created_at) - Date.now())).toBeLessThan(60_000);

    const read = await api.get(record.links.self);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(record);
  });

  it('keeps the values a client gives', async () => {
    const record = await createJob(api, {
      query: 'Click "Sign in"',
      initial_url: 'https://example.com/login',
      model: INTERPRETER,
      env: 'local_browser',
      highlight_mouse: false,
      metadata: null,
    });
    expect(record).toMatchObject({
      query: 'Click "Sign in"',
      initial_url: 'https://example.com/login',
      model: INTERPRETER,
      env: 'local_browser',
      highlight_mouse: false,
      metadata: null,
    });
  });

  it('ignores unknown fields', async () => {
    const res = await api.post('/v1/jobs', { query: 'x', priority: 'high', status: 'succeeded', id: 'mine' });
    expect(res.status).toBe(202);
    expect(job(res).id).toMatch(UUID);
    expect(job(res).status).toBe('queued');
    expect(res.json).not.toHaveProperty('priority');
  });

  it('accepts metadata of exactly 64 KiB as JSON', async () => {
    const metadata = { a: 'x'.repeat(64 * 1024 - 8) }; // {"a":"…"} is 8 bytes around the value
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(65_536);
    const res = await api.post('/v1/jobs', { query: 'x', metadata });
    expect(res.status).toBe(202);
    expect(job(res).metadata).toEqual(metadata);
  });

  describe('validation: 422 with the FastAPI/pydantic detail', () => {
    const envMismatch = (input: unknown) => ({
      type: 'string_pattern_mismatch',
      loc: ['body', 'env'],
      msg: `String should match pattern '${ENV_PATTERN}'`,
      input,
      ctx: { pattern: ENV_PATTERN },
    });
    const cases: [string, unknown, unknown[]][] = [
      ['query missing', {}, [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: {} }]],
      [
        'query missing (the enclosing object is the input)',
        { initial_url: 'https://example.com' },
        [
          {
            type: 'missing',
            loc: ['body', 'query'],
            msg: 'Field required',
            input: { initial_url: 'https://example.com' },
          },
        ],
      ],
      [
        'query empty',
        { query: '' },
        [
          {
            type: 'string_too_short',
            loc: ['body', 'query'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
        ],
      ],
      [
        'query a number',
        { query: 5 },
        [{ type: 'string_type', loc: ['body', 'query'], msg: 'Input should be a valid string', input: 5 }],
      ],
      [
        'query null',
        { query: null },
        [{ type: 'string_type', loc: ['body', 'query'], msg: 'Input should be a valid string', input: null }],
      ],
      [
        'query a list',
        { query: ['a'] },
        [
          {
            type: 'string_type',
            loc: ['body', 'query'],
            msg: 'Input should be a valid string',
            input: ['a'],
          },
        ],
      ],
      ['env not matching the pattern', { query: 'x', env: 'cloud' }, [envMismatch('cloud')]],
      ['env in another case', { query: 'x', env: 'LOCAL_BROWSER' }, [envMismatch('LOCAL_BROWSER')]],
      [
        'highlight_mouse "yes"',
        { query: 'x', highlight_mouse: 'yes' },
        [
          {
            type: 'bool_type',
            loc: ['body', 'highlight_mouse'],
            msg: 'Input should be a valid boolean',
            input: 'yes',
          },
        ],
      ],
      [
        'metadata an array',
        { query: 'x', metadata: [1, 2] },
        [
          {
            type: 'dict_type',
            loc: ['body', 'metadata'],
            msg: 'Input should be a valid dictionary',
            input: [1, 2],
          },
        ],
      ],
      [
        'initial_url a number',
        { query: 'x', initial_url: 42 },
        [
          {
            type: 'string_type',
            loc: ['body', 'initial_url'],
            msg: 'Input should be a valid string',
            input: 42,
          },
        ],
      ],
      [
        'several fields at once (all reported, in field order)',
        { metadata: 'm', highlight_mouse: 'no', env: 'x', model: 3, initial_url: null, query: '' },
        [
          {
            type: 'string_too_short',
            loc: ['body', 'query'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
          {
            type: 'string_type',
            loc: ['body', 'initial_url'],
            msg: 'Input should be a valid string',
            input: null,
          },
          { type: 'string_type', loc: ['body', 'model'], msg: 'Input should be a valid string', input: 3 },
          envMismatch('x'),
          {
            type: 'bool_type',
            loc: ['body', 'highlight_mouse'],
            msg: 'Input should be a valid boolean',
            input: 'no',
          },
          {
            type: 'dict_type',
            loc: ['body', 'metadata'],
            msg: 'Input should be a valid dictionary',
            input: 'm',
          },
        ],
      ],
      ...([[1, 2], 'a string', 7, true] as unknown[]).map((body): [string, unknown, unknown[]] => [
        `body ${JSON.stringify(body)} (not an object)`,
        body,
        [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: body,
          },
        ],
      ]),
      ['body null', null, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]],
    ];

    it.each(cases)('%s', async (_name, body, detail) => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({ detail });
    });

    it('an empty body is a missing body', async () => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
      });
    });

    it.each([
      ['{"query": "x",', 14],
      ['{bad', 1],
      ["{'query': 'x'}", 1],
    ])('malformed JSON %p is json_invalid at its position', async (text, position) => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', position],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: expect.any(String) },
          },
        ],
      });
    });

    it('metadata over 64 KiB as JSON is a value_error that says the limit and the size', async () => {
      const metadata = { a: 'x'.repeat(64 * 1024 - 7) };
      const size = Buffer.byteLength(JSON.stringify(metadata));
      expect(size).toBe(65_537);
      const res = await api.post('/v1/jobs', { query: 'x', metadata });
      expect(res.status).toBe(422);
      const error = `must be at most 65536 bytes (64 KiB) when serialized as JSON, got ${size} bytes`;
      expect(res.json).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'metadata'],
            msg: `Value error, ${error}`,
            input: metadata,
            ctx: { error },
          },
        ],
      });
    });

    it('a query over 20000 characters is string_too_long (the documented maxLength)', async () => {
      const query = 'a'.repeat(20_001);
      const res = await api.post('/v1/jobs', { query });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        detail: [
          {
            type: 'string_too_long',
            loc: ['body', 'query'],
            msg: 'String should have at most 20000 characters',
            input: query,
            ctx: { max_length: 20_000 },
          },
        ],
      });
    });

    it.each([
      ['gpt-4o', /set OPENAI_API_KEY/],
      ['claude-sonnet-4', /set ANTHROPIC_API_KEY/],
    ])('model %p is refused at body.model, naming the variable that would serve it', async (model, hint) => {
      const res = await api.post('/v1/jobs', { query: 'x', model });
      expect(res.status).toBe(422);
      const detail = (res.json as { detail: { msg: string; ctx: { error: string } }[] }).detail;
      expect(detail).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'model'],
          msg: expect.stringMatching(/^Value error, /),
          input: model,
          ctx: { error: expect.stringMatching(hint) },
        },
      ]);
      expect(detail[0]!.msg).toBe(`Value error, ${detail[0]!.ctx.error}`);
      expect(detail[0]!.ctx.error).toContain(`'${model}'`);
      expect(detail[0]!.ctx.error).toContain(INTERPRETER); // what is served now
    });

    it('env hosted_browser without HOSTED_BROWSER_WS_URL is refused at body.env, naming the variable', async () => {
      const res = await api.post('/v1/jobs', { query: 'x', env: 'hosted_browser' });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'env'],
            msg: expect.stringMatching(/^Value error, .*HOSTED_BROWSER_WS_URL/),
            input: 'hosted_browser',
            ctx: { error: expect.stringMatching(/HOSTED_BROWSER_WS_URL/) },
          },
        ],
      });
    });

    it('a refused job is not stored', async () => {
      const before = jobs(await api.get('/v1/jobs?limit=200')).length;
      await api.post('/v1/jobs', { query: 'x', model: 'gpt-4o' });
      await api.post('/v1/jobs', { query: 'x', env: 'hosted_browser' });
      await api.post('/v1/jobs', { query: '' });
      expect(jobs(await api.get('/v1/jobs?limit=200')).length).toBe(before);
    });
  });

  describe('request framing', () => {
    it.each(['application/xml', 'application/x-www-form-urlencoded'])(
      'Content-Type %s is 415 with a clear body',
      async (contentType) => {
        const res = await api.request('/v1/jobs', {
          method: 'POST',
          body: contentType.includes('xml') ? '<job><query>x</query></job>' : 'query=x',
          headers: { 'content-type': contentType },
        });
        expect(res.status).toBe(415);
        expect(res.json).toEqual({
          detail: 'Unsupported Content-Type: send the body as JSON with "Content-Type: application/json".',
          code: 'unsupported_media_type',
        });
      },
    );

    it('Content-Type text/plain is 415 like every other non-JSON type', async () => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({ query: 'x' }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(415);
      expect(res.json).toMatchObject({ code: 'unsupported_media_type' });
    });

    it('Content-Type "application/json; charset=utf-8" is JSON', async () => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({ query: 'charset given' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.status).toBe(202);
      expect(job(res).query).toBe('charset given');
    });

    it('a body over the size limit is 413 with a clear body', async () => {
      const res = await api.request('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({ query: 'x'.repeat(300 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ detail: 'The request body is too large.', code: 'payload_too_large' });
    });

    // Postgres text and jsonb cannot hold U+0000: such input is a client error, never a 500.
    it.each([
      ['query', { query: 'a\u0000b' }],
      ['initial_url', { query: 'x', initial_url: 'https://example.com/\u0000' }],
      ['a metadata value', { query: 'x', metadata: { note: 'a\u0000b' } }],
    ])('a NUL character in %s is not a 500', async (_where, body) => {
      const res = await api.post('/v1/jobs', body);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.json)).toMatch(/must not contain NUL/);
    });
  });
});

describe('GET /v1/jobs', () => {
  it('lists the owner’s jobs newest first', async () => {
    const first = await createJob(api, { query: 'list 1' });
    const second = await createJob(api, { query: 'list 2' });
    const third = await createJob(api, { query: 'list 3' });
    const res = await api.get('/v1/jobs?limit=3');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jobs: expect.any(Array) });
    expect(jobs(res).map((j) => j.id)).toEqual([third.id, second.id, first.id]);
    expect(jobs(res)[0]).toEqual(third); // the same record as GET /v1/jobs/{id}
  });

  it('returns 50 by default and up to 200 with limit', async () => {
    const many = api.as(ownerMany.key);
    const created: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const records = await Promise.all(
        Array.from({ length: 11 }, (_, i) => createJob(many, { query: `bulk ${batch * 11 + i}` })),
      );
      created.push(...records.map((r) => r.id));
    }
    const all = jobs(await many.get('/v1/jobs?limit=200'));
    expect(all).toHaveLength(55);
    expect(new Set(all.map((j) => j.id))).toEqual(new Set(created));
    const times = all.map((j) => Date.parse(j.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const byDefault = await many.get('/v1/jobs');
    expect(byDefault.status).toBe(200);
    expect(jobs(byDefault).map((j) => j.id)).toEqual(all.slice(0, 50).map((j) => j.id));
    expect(jobs(await many.get('/v1/jobs?limit=1')).map((j) => j.id)).toEqual([all[0]!.id]);
  });

  it.each([
    [
      '0',
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ],
    [
      '-5',
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '-5',
        ctx: { ge: 1 },
      },
    ],
    [
      '201',
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 200',
        input: '201',
        ctx: { le: 200 },
      },
    ],
    [
      'abc',
      {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'abc',
      },
    ],
  ])('limit=%s is 422', async (limit, issue) => {
    const res = await api.get(`/v1/jobs?limit=${limit}`);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ detail: [issue] });
  });

  it('limit 1 and 200 are the bounds', async () => {
    expect(jobs(await api.get('/v1/jobs?limit=1'))).toHaveLength(1);
    expect((await api.get('/v1/jobs?limit=200')).status).toBe(200);
  });

  it('filters by status', async () => {
    const cancelled = await createJob(api, { query: 'to be cancelled' });
    const queued = await createJob(api, { query: 'stays queued' });
    expect((await api.delete(`/v1/jobs/${cancelled.id}`)).status).toBe(200);

    const onlyCancelled = jobs(await api.get('/v1/jobs?status=cancelled&limit=200'));
    expect(onlyCancelled.map((j) => j.id)).toContain(cancelled.id);
    expect(onlyCancelled.map((j) => j.id)).not.toContain(queued.id);
    expect(new Set(onlyCancelled.map((j) => j.status))).toEqual(new Set(['cancelled']));

    const onlyQueued = jobs(await api.get('/v1/jobs?status=queued&limit=200'));
    expect(onlyQueued.map((j) => j.id)).toContain(queued.id);
    expect(onlyQueued.map((j) => j.id)).not.toContain(cancelled.id);
    expect(new Set(onlyQueued.map((j) => j.status))).toEqual(new Set(['queued']));

    expect(jobs(await api.get('/v1/jobs?status=failed'))).toEqual([]);
  });

  it('an unknown status is 422 enum', async () => {
    const res = await api.get('/v1/jobs?status=done');
    expect(res.status).toBe(422);
    const expected = "'queued', 'running', 'succeeded', 'failed' or 'cancelled'";
    expect(res.json).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['query', 'status'],
          msg: `Input should be ${expected}`,
          input: 'done',
          ctx: { expected },
        },
      ],
    });
  });

  it('reports a bad limit and a bad status together', async () => {
    const res = await api.get('/v1/jobs?limit=0&status=done');
    expect(res.status).toBe(422);
    const detail = (res.json as { detail: { loc: unknown[] }[] }).detail;
    expect(detail.map((d) => d.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'status'],
    ]);
  });
});

describe('GET /v1/jobs/{job_id}', () => {
  it('answers 200 with the record', async () => {
    const created = await createJob(api, { metadata: { k: 'v' } });
    const res = await api.get(`/v1/jobs/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(created);
  });

  it('an unknown id is 404 with a clear body', async () => {
    const id = randomUUID();
    const res = await api.get(`/v1/jobs/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ detail: `Job "${id}" was not found.`, code: 'job_not_found' });
  });

  it.each(['not-a-uuid', '12345', `${randomUUID()}0`, "1'%20OR%20'1'='1", '%00'])(
    'a malformed id %p is 404, never 500',
    async (id) => {
      for (const path of [
        `/v1/jobs/${id}`,
        `/v1/jobs/${id}/log`,
        `/v1/jobs/${id}/video`,
        `/v1/jobs/${id}/screenshot`,
      ]) {
        const res = await api.get(path);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.json).toMatchObject({
          code: 'job_not_found',
          detail: expect.stringMatching(/was not found/),
        });
      }
      const cancel = await api.delete(`/v1/jobs/${id}`);
      expect(cancel.status).toBe(404);
    },
  );
});

describe('DELETE /v1/jobs/{job_id}', () => {
  it('cancels a queued job; the job reads cancelled afterwards', async () => {
    const created = await createJob(api);
    const res = await api.delete(`/v1/jobs/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: created.id,
      status: 'cancelled',
      cancelled: true,
      message: 'Job cancelled before it started.',
    });
    const after = job(await api.get(`/v1/jobs/${created.id}`));
    expect(after.status).toBe('cancelled');
    expect(after.finished_at).not.toBeNull();
    expect(after.started_at).toBeNull();

    const again = await api.delete(`/v1/jobs/${created.id}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      id: created.id,
      status: 'cancelled',
      cancelled: false,
      message: expect.stringMatching(/already ended \(cancelled\)/),
    });
  });

  it('leaves a running job running and says running jobs are not force-killed', async () => {
    const created = await createJob(api);
    // Stands in for the worker that picked the job up.
    await sql("UPDATE jobs SET status = 'running', started_at = now() WHERE id = $1", [created.id]);
    const res = await api.delete(`/v1/jobs/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: created.id,
      status: 'running',
      cancelled: false,
      message: expect.stringMatching(/running jobs are not force-killed/),
    });
    const after = job(await api.get(`/v1/jobs/${created.id}`));
    expect(after.status).toBe('running');
    expect(after.finished_at).toBeNull();
  });

  it('leaves a finished job unchanged', async () => {
    const created = await createJob(api);
    // Stands in for the worker that ran the job.
    await sql(
      "UPDATE jobs SET status = 'succeeded', started_at = now(), finished_at = now(), summary = 'All 1 steps passed.' WHERE id = $1",
      [created.id],
    );
    const before = job(await api.get(`/v1/jobs/${created.id}`));
    const res = await api.delete(`/v1/jobs/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: created.id,
      status: 'succeeded',
      cancelled: false,
      message: expect.stringMatching(/already ended \(succeeded\)/),
    });
    expect((await api.get(`/v1/jobs/${created.id}`)).json).toEqual(before);
  });

  it('an unknown id is 404', async () => {
    const id = randomUUID();
    const res = await api.delete(`/v1/jobs/${id}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ detail: `Job "${id}" was not found.`, code: 'job_not_found' });
  });

  it('a cancelled job leaves the queue (the /health snapshot counts one less waiting)', async () => {
    const waiting = async () =>
      ((await api.get('/health', { key: null })).json as { queue: { waiting: number } }).queue.waiting;
    const before = await waiting();
    const created = await createJob(api);
    expect(await waiting()).toBe(before + 1);
    await api.delete(`/v1/jobs/${created.id}`);
    expect(await waiting()).toBe(before);
  });
});

describe('GET /v1/jobs/{job_id}/log', () => {
  it('is an empty 200 while the job is queued, as text or NDJSON', async () => {
    const created = await createJob(api);
    const text = await api.get(created.links.log);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toBe('');
    const ndjson = await api.get(created.links.log, { headers: { accept: 'application/x-ndjson' } });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(ndjson.text).toBe('');
  });

  it('serves the agent log as text by default and as NDJSON on request', async () => {
    const created = await createJob(api);
    const entries = [
      { time: '2026-01-15T10:00:00.000Z', seq: 1, message: 'browser started' },
      {
        time: '2026-01-15T10:00:01.000Z',
        seq: 2,
        level: 'info',
        text: '1. open https://example.com: passed',
      },
      { time: '2026-01-15T10:00:02.000Z', seq: 3, level: 'error', text: '2. click "Nope": failed' },
    ];
    const ndjson = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    // Stands in for the worker, which appends NDJSON lines to the shared artifacts directory.
    await mkdir(join(artifactsDir, 'jobs', created.id), { recursive: true });
    await writeFile(join(artifactsDir, 'jobs', created.id, 'agent-log.ndjson'), ndjson);

    const text = await api.get(`/v1/jobs/${created.id}/log`);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.headers.get('cache-control')).toBe('no-store');
    expect(text.text).toBe(
      '2026-01-15T10:00:00.000Z browser started\n1. open https://example.com: passed\n2. click "Nope": failed\n',
    );

    const structured = await api.get(`/v1/jobs/${created.id}/log`, {
      headers: { accept: 'application/x-ndjson' },
    });
    expect(structured.status).toBe(200);
    expect(structured.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(structured.text).toBe(ndjson);
    expect(
      structured.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(entries);
  });
});

describe('GET /v1/jobs/{job_id}/video', () => {
  let video: Buffer;
  let videoJob: JobRecord;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-api-e2e-video-'));
    try {
      const file = join(dir, 'out.mp4');
      await promisify(execFile)('ffmpeg', [
        ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=320x240:rate=10'],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', file],
      ]);
      video = await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    videoJob = await createJob(api, { query: 'a job with a recording' });
    // Stands in for the worker: it records into the shared artifacts directory, then marks the
    // job finished with the path of the video.
    const path = join(artifactsDir, 'jobs', videoJob.id, 'video.mp4');
    await mkdir(join(artifactsDir, 'jobs', videoJob.id), { recursive: true });
    await writeFile(path, video);
    await sql(
      "UPDATE jobs SET status = 'succeeded', started_at = now(), finished_at = now(), video_path = $2 WHERE id = $1",
      [videoJob.id, path],
    );
  });

  it('is 404 with a clear body while there is none', async () => {
    const created = await createJob(api);
    const res = await api.get(`/v1/jobs/${created.id}/video`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      detail: `No video for job ${created.id}: the job is queued; the video is written when it ends.`,
      code: 'artifact_not_found',
    });
    await api.delete(`/v1/jobs/${created.id}`);
    const cancelled = await api.get(`/v1/jobs/${created.id}/video`);
    expect(cancelled.status).toBe(404);
    expect(cancelled.json).toMatchObject({
      code: 'artifact_not_found',
      detail: expect.stringMatching(/cancelled/),
    });
  });

  it('the job record links the video once it exists', async () => {
    const record = job(await api.get(`/v1/jobs/${videoJob.id}`));
    expect(record.links.video).toBe(`/v1/jobs/${videoJob.id}/video`);
  });

  it('serves the whole file as video/mp4 with its length and byte ranges advertised', async () => {
    const res = await api.get(`/v1/jobs/${videoJob.id}/video`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(res.bytes.equals(video)).toBe(true);
  });

  it.each([
    ['bytes=0-99', () => [0, 99]],
    ['a suffix, bytes=-100', () => [video.length - 100, video.length - 1]],
    ['an open end, bytes=100-', () => [100, video.length - 1]],
    ['an end past the file, bytes=10-999999999', () => [10, video.length - 1]],
  ] as [string, () => [number, number]][])(
    'a Range of %s is 206 with exactly those bytes',
    async (name, span) => {
      const header = name.slice(name.indexOf('bytes='));
      const [start, end] = span();
      const res = await api.get(`/v1/jobs/${videoJob.id}/video`, { headers: { range: header } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${video.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.bytes.equals(video.subarray(start, end + 1))).toBe(true);
    },
  );

  it('an unsatisfiable Range is 416 with content-range bytes */size', async () => {
    for (const range of [`bytes=${video.length}-`, 'bytes=-0']) {
      const res = await api.get(`/v1/jobs/${videoJob.id}/video`, { headers: { range } });
      expect([range, res.status]).toEqual([range, 416]);
      expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
      expect(res.bytes.length).toBe(0);
    }
  });
});

describe('GET /v1/jobs/{job_id}/screenshot', () => {
  // The first bytes of a PNG, then anything: the API serves the stored file as it is.
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a failed page')]);
  let failedJob: JobRecord;

  beforeAll(async () => {
    failedJob = await createJob(api, { query: 'a job whose step failed' });
    // Stands in for the worker: it writes the screenshot into the shared artifacts directory, then
    // marks the job finished with its path.
    const path = join(artifactsDir, 'jobs', failedJob.id, 'failure-screenshot.png');
    await mkdir(join(artifactsDir, 'jobs', failedJob.id), { recursive: true });
    await writeFile(path, png);
    await sql(
      "UPDATE jobs SET status = 'failed', started_at = now(), finished_at = now(), screenshot_path = $2 WHERE id = $1",
      [failedJob.id, path],
    );
  });

  it('is 404 in the error shape while there is none, and the record has no link', async () => {
    const created = await createJob(api);
    expect(job(await api.get(`/v1/jobs/${created.id}`)).links).not.toHaveProperty('screenshot');
    const res = await api.get(`/v1/jobs/${created.id}/screenshot`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      detail: `No screenshot for job ${created.id}: the job is queued; a screenshot is taken only when a step fails.`,
      code: 'artifact_not_found',
    });
  });

  it('the job record links the screenshot once it exists, and it is served as image/png', async () => {
    const record = job(await api.get(`/v1/jobs/${failedJob.id}`));
    expect(record.links).toMatchObject({ screenshot: `/v1/jobs/${failedJob.id}/screenshot` });
    const listed = jobs(await api.get('/v1/jobs?limit=200')).find((j) => j.id === failedJob.id);
    expect(listed?.links).toMatchObject({ screenshot: `/v1/jobs/${failedJob.id}/screenshot` });
    const res = await api.get(`/v1/jobs/${failedJob.id}/screenshot`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(res.bytes.equals(png)).toBe(true);
  });

  it("is another owner's 404", async () => {
    const res = await api.as(ownerB.key).get(`/v1/jobs/${failedJob.id}/screenshot`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ detail: `Job "${failedJob.id}" was not found.`, code: 'job_not_found' });
  });
});

describe('service endpoints', () => {
  it('/health answers 200 without a key, with the queue snapshot', async () => {
    const res = await api.get('/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'ok',
      service: 'jobs-api',
      version: '1.0.0',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
      queue: {
        name: 'browser-jobs',
        waiting: expect.any(Number),
        active: expect.any(Number),
        delayed: expect.any(Number),
        failed: expect.any(Number),
        completed: expect.any(Number),
        workers: 0,
      },
    });
  });

  it('GET /v1/models lists the built-in interpreter as the default', async () => {
    const res = await api.get('/v1/models');
    expect(res.status).toBe(200);
    const { models } = res.json as { models: { id: string; provider: string; default: boolean }[] };
    expect(models).toContainEqual(
      expect.objectContaining({
        id: INTERPRETER,
        provider: 'interpreter',
        default: true,
        description: expect.any(String),
      }),
    );
    expect(models.filter((m) => m.default)).toHaveLength(1);
  });

  describe('/openapi.json', () => {
    let doc: OpenApiDocument;
    const resolve = (schema: OpenApiSchema | undefined): OpenApiSchema => {
      const ref = schema?.$ref;
      if (!ref) return schema ?? {};
      return doc.components.schemas[ref.replace('#/components/schemas/', '')]!;
    };

    beforeAll(async () => {
      const res = await api.get('/openapi.json', { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      doc = res.json as OpenApiDocument;
    });

    it('is an OpenAPI 3 document of version 1.0.0 with every job path', () => {
      expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(doc.info).toMatchObject({ title: expect.any(String), version: '1.0.0' });
      expect(Object.keys(doc.paths['/v1/jobs']!).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths['/v1/jobs/{job_id}']!).sort()).toEqual(['delete', 'get']);
      expect(Object.keys(doc.paths['/v1/jobs/{job_id}/log']!)).toEqual(['get']);
      expect(Object.keys(doc.paths['/v1/jobs/{job_id}/video']!)).toEqual(['get']);
      for (const path of ['/v1/jobs/{job_id}', '/v1/jobs/{job_id}/log', '/v1/jobs/{job_id}/video']) {
        for (const operation of Object.values(doc.paths[path]!)) {
          expect(operation.parameters).toContainEqual(
            expect.objectContaining({
              name: 'job_id',
              in: 'path',
              required: true,
              schema: { type: 'string' },
            }),
          );
        }
      }
      expect(doc.paths['/v1/jobs']!.post!.responses).toHaveProperty('202');
    });

    it('describes the job creation request with the spec’s fields and rules', () => {
      const body = doc.paths['/v1/jobs']!.post!.requestBody!.content['application/json']!.schema;
      expect(body.$ref).toBe('#/components/schemas/CreateJobDto');
      const schema = resolve(body);
      expect(schema.type).toBe('object');
      expect(schema.required).toEqual(['query']);
      const props = schema.properties!;
      expect(Object.keys(props).sort()).toEqual(
        ['env', 'highlight_mouse', 'initial_url', 'metadata', 'model', 'query'].sort(),
      );
      expect(props.query).toMatchObject({ type: 'string', minLength: 1 });
      expect(props.initial_url).toMatchObject({ type: 'string', default: DEFAULT_START_URL });
      expect(props.model).toMatchObject({ type: 'string' });
      expect(props.env).toMatchObject({ type: 'string', pattern: ENV_PATTERN, default: 'local_browser' });
      expect(props.highlight_mouse).toMatchObject({ type: 'boolean', default: true });
      expect(props.metadata).toMatchObject({ type: 'object' });
    });

    it('documents the list query: limit 1..200 default 50, status one of the job statuses', () => {
      const params = doc.paths['/v1/jobs']!.get!.parameters!;
      const limit = params.find((p) => p.name === 'limit')!;
      expect(limit).toMatchObject({
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      });
      expect(limit.required ?? false).toBe(false);
      const status = params.find((p) => p.name === 'status')!;
      expect(status.in).toBe('query');
      expect(resolve(status.schema).enum).toEqual(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
    });

    it('every job operation documents its 422 with the validation error schema', () => {
      for (const [path, operations] of Object.entries(doc.paths)) {
        if (!path.startsWith('/v1/jobs')) continue;
        for (const [method, operation] of Object.entries(operations)) {
          const schema = resolve(operation.responses['422']?.content?.['application/json']?.schema);
          expect([method, path, Object.keys(schema.properties ?? {})]).toEqual([method, path, ['detail']]);
          expect(schema.properties!.detail!.type).toBe('array');
          const entry = resolve(schema.properties!.detail!.items);
          expect(Object.keys(entry.properties!).sort()).toEqual(['ctx', 'input', 'loc', 'msg', 'type']);
          expect([...entry.required!].sort()).toEqual(['loc', 'msg', 'type']);
          expect(entry.properties!.loc!.type).toBe('array');
        }
      }
    });

    // The spec's validation error body marks `detail` as not required, as FastAPI's does.
    it('the validation error body leaves detail optional, as the spec says', () => {
      const schema = resolve(
        doc.paths['/v1/jobs']!.post!.responses['422']!.content!['application/json']!.schema,
      );
      expect(schema.required ?? []).not.toContain('detail');
    });

    it('the video response documents its video/mp4 content', () => {
      const ok = doc.paths['/v1/jobs/{job_id}/video']!.get!.responses['200']!;
      expect(Object.keys(ok.content ?? {})).toContain('video/mp4');
    });

    it('documents both ways of sending the key', () => {
      expect(doc.components.securitySchemes).toMatchObject({
        bearer: { type: 'http', scheme: 'bearer' },
        'api-key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      });
    });
  });

  it('/docs serves the interactive documentation as HTML, with its assets', async () => {
    const res = await api.get('/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
    // Never framed (clickjacking), never sniffed.
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const assets = [...res.text.matchAll(/(?:src|href)="\.\/(docs\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const got = await api.get(`/${asset}`, { key: null });
      expect([asset, got.status]).toEqual([asset, 200]);
    }
  });

  it('/ is the documentation hub, linking /docs and the agent card', async () => {
    const res = await api.get('/', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/i);
    expect(res.text).toContain('href="/docs"');
    expect(res.text).toContain('href="/.well-known/agent-card.json"');
    expect(res.text).toContain('href="/openapi.json"');
  });
});
