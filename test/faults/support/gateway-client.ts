import { expect } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { API_KEY, sleep } from './fault-stack.js';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A caller of the agent gateway's three transports: /a2a (JSON-RPC), /a2a/rest and /mcp. */
export class GatewayClient {
  constructor(
    readonly url: string,
    private readonly siteUrl: string,
  ) {}

  /** One JSON-RPC call on /a2a. */
  async rpc(method: string, params: Record<string, unknown>): Promise<Answer> {
    const res = await fetch(`${this.url}/a2a`, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** One call on A2A's HTTP+JSON binding (/a2a/rest). */
  async rest(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.url}/a2a/rest${path}`, {
      method,
      headers: this.headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** One MCP tool call with the official client (a new stateless connection each time). */
  async tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const client = new Client({ name: 'faults', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${this.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
      }),
    );
    try {
      return (await client.callTool({ name, arguments: args })) as Record<string, unknown>;
    } finally {
      await client.close();
    }
  }

  /** A message that starts a job (answered at once, without waiting for a worker). */
  message(): Record<string, unknown> {
    return {
      message: {
        messageId: randomUUID(),
        parts: [{ text: 'Open /' }, { data: { initial_url: this.siteUrl } }],
      },
      configuration: { returnImmediately: true },
    };
  }

  private headers(): Record<string, string> {
    return {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      'a2a-version': '1.0',
    };
  }
}

/** /a2a's answer to a lost dependency: a 503 carrying a JSON-RPC error, reason SERVICE_UNAVAILABLE. */
export function expectRpcUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32000, data: [expect.objectContaining({ reason: 'SERVICE_UNAVAILABLE' })] },
  });
}

/** /a2a/rest's answer to a lost dependency: a 503 google.rpc.Status UNAVAILABLE. */
export function expectRestUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({
    error: {
      code: 503,
      status: 'UNAVAILABLE',
      details: [expect.objectContaining({ reason: 'SERVICE_UNAVAILABLE' })],
    },
  });
}

/** /mcp's answer to a lost dependency in a tool call: an isError result, code service_unavailable. */
export function expectToolUnavailable(result: Record<string, unknown>): void {
  expect(result).toMatchObject({
    isError: true,
    structuredContent: { error: { code: 'service_unavailable', message: expect.stringMatching(/\S/) } },
  });
}

/** Polls `ready` until it holds: the first answers after a restart may still meet a dead connection. */
export async function until(ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready().catch(() => false))) await sleep(250);
}
