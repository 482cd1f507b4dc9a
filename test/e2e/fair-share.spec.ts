import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { rawRpc } from '../support/a2a-client.js';
import { A2aStack } from '../support/a2a-stack.js';
import { insertApiKey, RunnerClient, sql, type StoredApiKey } from '../support/runner-client.js';

// Fair share, as clients see it: past the per-owner queued limit, /v1 answers 429 with Retry-After,
// A2A a JSON-RPC error and MCP an isError result, and nothing of the refused job is stored. No
// worker runs, so accepted jobs stay queued; jobs-api and the gateway share one Redis prefix.

const LIMIT = 2;

describe('per-owner queued limit', () => {
  const stack = new A2aStack('fair-share', 'fair-share-env-key', {
    RUNNER_MAX_QUEUED_PER_OWNER: String(LIMIT),
    RUNNER_DISPATCH_AHEAD: '1',
  });
  let api = '';
  const keys: StoredApiKey[] = [];
  const key = async (name: string) => {
    const stored = await insertApiKey(`e2e-fair-${name}-${randomBytes(4).toString('hex')}`);
    keys.push(stored);
    return stored;
  };
  const jobCount = async (owner: string) =>
    Number((await sql<{ n: string }>('SELECT count(*) AS n FROM jobs WHERE owner = $1', [owner]))[0]!.n);

  beforeAll(async () => {
    await stack.start();
    api = await stack.startJobsApi();
  }, 300_000);

  afterAll(async () => {
    await stack.stop();
    const owners = keys.map((k) => k.owner);
    if (owners.length) {
      await sql('DELETE FROM jobs WHERE owner = ANY($1)', [owners]);
      await sql('DELETE FROM api_keys WHERE owner = ANY($1)', [owners]);
    }
  });

  it('/v1/jobs answers 429 with Retry-After and a {detail, code} body past the limit; other owners go on', async () => {
    const flooder = await key('v1');
    const client = new RunnerClient(api, flooder.key);
    for (let i = 0; i < LIMIT; i++) {
      expect((await client.post('/v1/jobs', { query: `Open https://example.com/${i}` })).status).toBe(202);
    }
    const refused = await client.post('/v1/jobs', { query: 'Open https://example.com/over' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.json).toEqual({
      detail: expect.stringContaining(`RUNNER_MAX_QUEUED_PER_OWNER=${LIMIT}`),
      code: 'rate_limited',
    });
    // Nothing of the refused job is left behind.
    expect(await jobCount(flooder.owner)).toBe(LIMIT);

    const other = await key('v1-other');
    expect((await new RunnerClient(api, other.key).post('/v1/jobs', { query: 'Open /' })).status).toBe(202);

    // Cancelling one of the flooder's jobs frees a place.
    const { jobs } = (await client.get('/v1/jobs')).json as { jobs: { id: string }[] };
    expect((await client.delete(`/v1/jobs/${jobs[0]!.id}`)).status).toBe(200);
    expect((await client.post('/v1/jobs', { query: 'Open https://example.com/again' })).status).toBe(202);
  });

  it('A2A SendMessage answers a JSON-RPC error with reason RATE_LIMITED and retryAfterSeconds', async () => {
    const owner = await key('a2a');
    const send = (text: string) =>
      rawRpc(
        `${stack.gatewayUrl}/a2a`,
        {
          jsonrpc: '2.0',
          id: randomUUID(),
          method: 'SendMessage',
          params: {
            message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
            configuration: { returnImmediately: true },
          },
        },
        { key: owner.key },
      );
    for (let i = 0; i < LIMIT; i++) expect((await send(`Open /${i}`)).body.result).toBeDefined();
    const refused = await send('Open /over');
    expect(refused.body.error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('RUNNER_MAX_QUEUED_PER_OWNER'),
      data: [{ reason: 'RATE_LIMITED', metadata: { retryAfterSeconds: '30' } }],
    });
    expect(await jobCount(owner.owner)).toBe(LIMIT);
  });

  it('the MCP tool run_browser_test answers an isError result with the code and when to retry', async () => {
    const owner = await key('mcp');
    const mcp = new Client({ name: 'fair-share-spec', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${owner.key}` } },
      }),
    );
    try {
      const run = async (query: string) =>
        (await mcp.callTool({ name: 'run_browser_test', arguments: { query, wait: false } })) as {
          isError?: boolean;
          content: { text: string }[];
          structuredContent: Record<string, unknown>;
        };
      for (let i = 0; i < LIMIT; i++) expect((await run(`Open /${i}`)).isError).toBeFalsy();
      const refused = await run('Open /over');
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({
        error: { code: 'rate_limited', retryAfterSeconds: 30 },
      });
      expect(refused.content[0]!.text).toMatch(/RUNNER_MAX_QUEUED_PER_OWNER[\s\S]*Try again in 30 seconds/);
      expect(await jobCount(owner.owner)).toBe(LIMIT);
    } finally {
      await mcp.close();
    }
  });
});
