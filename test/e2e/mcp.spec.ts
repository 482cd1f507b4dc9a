import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { A2aStack } from '../support/a2a-stack.js';
import { insertApiKey } from '../support/runner-client.js';

// The MCP endpoint of the agent gateway (Streamable HTTP, stateless) with the official MCP client,
// against real gateway and browser worker processes.

const KEY = 'mcp-spec-key';

interface JobView {
  id: string;
  status: string;
  summary: string | null;
  links: { log: string; video: string | null; screenshot?: string };
}

describe('MCP tools', () => {
  const stack = new A2aStack('mcp', KEY);
  let client: Client;

  const connect = async (key: string): Promise<Client> => {
    const mcp = new Client({ name: 'mcp-spec', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gatewayUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return mcp;
  };

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
      structuredContent: Record<string, unknown>;
    };

  beforeAll(async () => {
    await stack.start();
    await stack.startWorker();
    client = await connect(KEY);
  }, 300_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await stack.stop();
  });

  it('lists five described tools with titles, annotations and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['cancel_job', 'get_job', 'get_job_log', 'list_jobs', 'run_browser_test'].sort(),
    );
    for (const tool of tools) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.description).toEqual(expect.any(String));
      expect(tool.annotations).toBeDefined();
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      for (const property of Object.values(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description).toEqual(expect.any(String));
      }
    }
    const run = tools.find((t) => t.name === 'run_browser_test')!;
    expect(run.inputSchema.required).toEqual(['query']);
    expect(run.outputSchema!.properties).toHaveProperty('job');
    expect(tools.find((t) => t.name === 'get_job')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('refuses calls without a valid key (401) and from foreign origins (403)', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.gatewayUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    const evil = await post({ authorization: `Bearer ${KEY}`, origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({
      error: { message: 'Invalid Origin header: http://evil.example' },
    });
    expect(
      (await post({ authorization: `Bearer ${KEY}`, origin: 'http://localhost.evil.example' })).status,
    ).toBe(403);
    expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${KEY}` })).status).toBe(200);
    // The gateway listens on loopback here: pages on this machine (an MCP inspector) may call it.
    for (const origin of [
      'http://localhost:8080',
      'http://127.0.0.1:6274',
      'http://[::1]:3000',
      stack.gatewayUrl,
    ])
      expect((await post({ authorization: `Bearer ${KEY}`, origin })).status).toBe(200);
  });

  it('answers a body of another media type with a JSON-RPC error, never a 5xx', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/xml',
      'application/octet-stream',
      '*/*',
      'application/jsonx',
      'garbage',
    ]) {
      for (const accept of [undefined, 'application/json, text/event-stream']) {
        const res = await fetch(`${stack.gatewayUrl}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': type, ...(accept ? { accept } : {}) },
          body: JSON.stringify(init),
        });
        const text = await res.text();
        expect({ type, accept, status: res.status < 500 }).toEqual({ type, accept, status: true });
        expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      }
    }
  });

  it('run_browser_test returns the job at once; get_job, list_jobs and get_job_log follow it', async () => {
    const started = await call('run_browser_test', {
      query: 'Open /thanks. The page contains "Thanks for signing up"',
      initial_url: stack.siteUrl,
    });
    expect(started.isError).toBeFalsy();
    const job = started.structuredContent.job as JobView;
    expect(['queued', 'running']).toContain(job.status);
    expect(started.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(job.id) });

    const deadline = Date.now() + 45_000;
    let current = job;
    while (!['succeeded', 'failed'].includes(current.status)) {
      if (Date.now() > deadline) throw new Error(`job still ${current.status}`);
      await new Promise((r) => setTimeout(r, 250));
      current = (await call('get_job', { job_id: job.id })).structuredContent.job as JobView;
    }
    expect(current.status).toBe('succeeded');
    expect(current.links.log).toBe(`${stack.gatewayUrl}/v1/jobs/${job.id}/log`);

    const listed = await call('list_jobs', { limit: 5 });
    expect((listed.structuredContent.jobs as JobView[]).map((j) => j.id)).toContain(job.id);
    const log = await call('get_job_log', { job_id: job.id });
    expect(log.structuredContent).toMatchObject({ job_id: job.id, log: expect.stringContaining(job.id) });
    const cancel = await call('cancel_job', { job_id: job.id });
    expect(cancel.structuredContent).toMatchObject({ id: job.id, cancelled: false, status: 'succeeded' });
  });

  it('run_browser_test with wait reports progress and answers with the verdict', async () => {
    const progress: string[] = [];
    const result = (await client.callTool(
      {
        name: 'run_browser_test',
        arguments: {
          query: 'Open /thanks. The page contains "Thanks"',
          initial_url: stack.siteUrl,
          wait: true,
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? ''), timeout: 60_000 },
    )) as unknown as { structuredContent: { job: JobView } };
    expect(result.structuredContent.job.status).toBe('succeeded');
    expect(result.structuredContent.job.summary).toEqual(expect.any(String));
    const steps = progress.filter((message) => message.startsWith('Step '));
    expect(steps).toEqual([
      'Step 1/2 started: Open /thanks',
      'Step 1/2 passed: Open /thanks',
      'Step 2/2 started: The page contains "Thanks"',
      'Step 2/2 passed: The page contains "Thanks"',
    ]);
  });

  it('declares resources: the recent jobs\u2019 logs and videos, their templates, and reads them', async () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const result = (await client.callTool({
      name: 'run_browser_test',
      arguments: { query: 'Open /thanks', initial_url: stack.siteUrl, wait: true },
    })) as unknown as { structuredContent: { job: JobView } };
    const job = result.structuredContent.job;
    expect(job.links.video).toEqual(expect.any(String));
    // The result links them as resources.
    const links = (result as unknown as { content: { type: string; uri?: string }[] }).content
      .filter((item) => item.type === 'resource_link')
      .map((item) => item.uri);
    expect(links).toEqual([job.links.log, job.links.video]);

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([job.links.log, job.links.video]));
    expect(resources.find((r) => r.uri === job.links.video)).toMatchObject({ mimeType: 'video/mp4' });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      `${stack.gatewayUrl}/v1/jobs/{job_id}/log`,
      `${stack.gatewayUrl}/v1/jobs/{job_id}/screenshot`,
      `${stack.gatewayUrl}/v1/jobs/{job_id}/video`,
    ]);

    const log = await client.readResource({ uri: job.links.log });
    expect(log.contents[0]).toMatchObject({ uri: job.links.log, mimeType: 'text/plain' });
    expect((log.contents[0] as { text: string }).text).toContain(job.id);
    const video = await client.readResource({ uri: job.links.video! });
    expect(video.contents[0]).toMatchObject({ uri: job.links.video, mimeType: 'video/mp4' });
    const bytes = Buffer.from((video.contents[0] as { blob: string }).blob, 'base64');
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const missing = `${stack.gatewayUrl}/v1/jobs/00000000-0000-4000-8000-000000000000/log`;
    await expect(client.readResource({ uri: missing })).rejects.toMatchObject({ code: -32002 });
    // Another owner's job reads as missing too.
    const other = await connect((await insertApiKey(`mcp-other-${Date.now()}`)).key);
    try {
      await expect(other.readResource({ uri: job.links.log })).rejects.toMatchObject({ code: -32002 });
      expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(job.links.log);
    } finally {
      await other.close();
    }
  });

  it('a failed job links the screenshot of its failed step as a resource, read as a PNG blob', async () => {
    const result = (await client.callTool({
      name: 'run_browser_test',
      arguments: { query: 'Open /thanks. Click "Nowhere"', initial_url: stack.siteUrl, wait: true },
    })) as unknown as { structuredContent: { job: JobView }; content: { type: string; uri?: string }[] };
    const job = result.structuredContent.job;
    expect(job.status).toBe('failed');
    expect(job.links.screenshot).toBe(`${stack.gatewayUrl}/v1/jobs/${job.id}/screenshot`);
    const links = result.content.filter((item) => item.type === 'resource_link').map((item) => item.uri);
    expect(links).toContain(job.links.screenshot);
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === job.links.screenshot)).toMatchObject({ mimeType: 'image/png' });
    const shot = await client.readResource({ uri: job.links.screenshot! });
    expect(shot.contents[0]).toMatchObject({ uri: job.links.screenshot, mimeType: 'image/png' });
    const bytes = Buffer.from((shot.contents[0] as { blob: string }).blob, 'base64');
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('failures are isError results with a readable text and a code', async () => {
    const missing = await call('get_job', { job_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ error: { code: 'job_not_found' } });
    expect(missing.content[0]!.text).toEqual(expect.any(String));
    const hosted = await call('run_browser_test', { query: 'Open /', env: 'hosted_browser' });
    expect(hosted.isError).toBe(true);
  });
});
