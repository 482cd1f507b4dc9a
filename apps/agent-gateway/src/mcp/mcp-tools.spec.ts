import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { dtoJsonSchema, JobIdArgsDto, ListJobsArgsDto, RunBrowserTestArgsDto } from '@suite/contracts';
import type { JobEventsHub, JobService } from '@suite/jobs';
import { registerRunnerTools } from './mcp-tools.js';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: { error?: { code: string; issues?: { loc: unknown[]; type: string }[] } };
}

/** The tools over an in-memory MCP connection; bad arguments must never reach the job service. */
async function connect(): Promise<Client> {
  const untouched = new Proxy({} as JobService & JobEventsHub, {
    get: (_target, name) => {
      throw new Error(`the job service was called (${String(name)})`);
    },
  });
  const server = new McpServer({ name: 'test', version: '1.0.0' });
  registerRunnerTools(
    server,
    { owner: 'ada', keyId: 'k1' },
    {
      jobs: untouched,
      events: untouched,
      publicUrl: 'http://runner.test',
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('MCP runner tools: arguments are the runner’s DTOs', () => {
  it('tools/list gives each tool the JSON Schema of its DTO', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const inputOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
    const expected = (schema: ReturnType<typeof dtoJsonSchema>) =>
      expect.objectContaining({
        type: 'object',
        properties: schema.properties,
        ...(schema.required ? { required: schema.required } : {}),
      });
    expect(inputOf('run_browser_test')).toEqual(expected(dtoJsonSchema(RunBrowserTestArgsDto)));
    expect(inputOf('list_jobs')).toEqual(expected(dtoJsonSchema(ListJobsArgsDto)));
    for (const name of ['get_job', 'get_job_log', 'cancel_job']) {
      expect(inputOf(name)).toEqual(expected(dtoJsonSchema(JobIdArgsDto)));
    }
    await client.close();
  });

  it.each<[string, string, Record<string, unknown>, [string, string][]]>([
    ['run_browser_test', 'no query', {}, [['missing', 'query']]],
    ['run_browser_test', 'an empty query', { query: '' }, [['string_too_short', 'query']]],
    [
      'run_browser_test',
      'a query over the limit',
      { query: 'x'.repeat(20_001) },
      [['string_too_long', 'query']],
    ],
    [
      'run_browser_test',
      'wrong types',
      { query: 5, env: 'desktop', highlight_mouse: 'yes' },
      [
        ['string_type', 'query'],
        ['string_pattern_mismatch', 'env'],
        ['bool_type', 'highlight_mouse'],
      ],
    ],
    [
      'run_browser_test',
      'a NUL in metadata',
      { query: 'x', metadata: { a: '\u0000' } },
      [['value_error', 'metadata.a']],
    ],
    [
      'run_browser_test',
      'a wait over 600 s',
      { query: 'x', wait: true, timeout_seconds: 601 },
      [['less_than_equal', 'timeout_seconds']],
    ],
    ['get_job', 'no job_id', {}, [['missing', 'job_id']]],
    ['cancel_job', 'a number for job_id', { job_id: 7 }, [['string_type', 'job_id']]],
    ['list_jobs', 'limit 0', { limit: 0 }, [['greater_than_equal', 'limit']]],
    ['list_jobs', 'limit 2.5', { limit: 2.5 }, [['int_from_float', 'limit']]],
    ['list_jobs', 'an unknown status', { status: 'nope' }, [['enum', 'status']]],
  ])('%s with %s is an isError result listing the problems', async (tool, _what, args, problems) => {
    const client = await connect();
    const result = (await client.callTool({ name: tool, arguments: args })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error?.code).toBe('validation_failed');
    expect(result.structuredContent?.error?.issues?.map((i) => [i.type, i.loc.join('.')])).toEqual(
      problems.map(([type, field]) => [type, `arguments.${field}`]),
    );
    expect(result.content[0]!.text).toMatch(/^Invalid arguments \(validation_failed\):\n- arguments\./);
    await client.close();
  });
});
