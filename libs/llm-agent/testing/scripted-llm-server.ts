import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type WireApi = 'openai' | 'anthropic';

export interface RecordedRequest {
  api: WireApi;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body exactly as received. */
  raw: string;
  body: Record<string, unknown>;
}

export interface ScriptedToolCall {
  name: string;
  args?: Record<string, unknown>;
  /** Sent verbatim instead of `args` (to send malformed JSON). */
  rawArguments?: string;
}

export type ScriptedReply =
  | { toolCalls: ScriptedToolCall[]; text?: string; usage?: { input: number; output: number } }
  | { text: string; usage?: { input: number; output: number } }
  | { status: number; headers?: Record<string, string>; message?: string }
  | { delayMs: number; reply: ScriptedReply };

export interface ScriptTurn {
  /** 0-based number of this request. */
  index: number;
  request: RecordedRequest;
  /** The newest observation (text the agent sent after its last tool results, or the task). */
  observation: string;
  /** The tool results the agent sent back for the previous turn, in order. */
  toolResults: string[];
  /** The ref of the element listed as `role "name"` in the newest observation; throws when absent. */
  ref(role: string, name: string): string;
}

export type Script = (turn: ScriptTurn) => ScriptedReply;

export interface ScriptedLlmServer {
  /** For the OpenAI SDK's baseURL. */
  openaiBaseUrl: string;
  /** For the Anthropic SDK's baseURL. */
  anthropicBaseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A local stand-in for the OpenAI chat-completions and Anthropic messages APIs: each request is
 * recorded and answered by the test's script, in the wire format of the endpoint it came to.
 */
export async function serveScriptedLlm(script: Script): Promise<ScriptedLlmServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const api: WireApi | undefined = path.endsWith('/chat/completions')
        ? 'openai'
        : path.endsWith('/messages')
          ? 'anthropic'
          : undefined;
      if (!api) {
        response.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        api,
        path,
        headers: request.headers,
        raw,
        body: JSON.parse(raw) as Record<string, unknown>,
      };
      requests.push(recorded);
      const turn = describeTurn(recorded, requests.length - 1);
      let reply: ScriptedReply;
      try {
        reply = script(turn);
      } catch (error) {
        reply = {
          status: 400,
          message: `script error: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      void answer(response, api, recorded, reply, requests.length, timers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    openaiBaseUrl: `${base}/v1`,
    anthropicBaseUrl: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  response: ServerResponse,
  api: WireApi,
  request: RecordedRequest,
  reply: ScriptedReply,
  n: number,
  timers: Set<NodeJS.Timeout>,
): Promise<void> {
  if ('delayMs' in reply) {
    // Tracked so closing the server cancels a delayed answer instead of leaving a timer behind.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, reply.delayMs);
      timers.add(timer);
    });
    if (response.destroyed || response.writableEnded) return;
    return answer(response, api, request, reply.reply, n, timers);
  }
  if (response.destroyed) return;
  if ('status' in reply) {
    const message = reply.message ?? `scripted HTTP ${reply.status}`;
    const type = reply.status === 429 ? 'rate_limit_error' : 'api_error';
    const body =
      api === 'openai' ? { error: { message, type } } : { type: 'error', error: { type, message } };
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(body));
    return;
  }
  const usage = reply.usage ?? { input: 1000, output: 50 };
  const calls = 'toolCalls' in reply ? reply.toolCalls : [];
  const model = String(request.body.model);
  let body: unknown;
  if (api === 'openai') {
    body = {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text ?? null,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call, i) => ({
                    id: `call_${n}_${i}`,
                    type: 'function',
                    function: {
                      name: call.name,
                      arguments: call.rawArguments ?? JSON.stringify(call.args ?? {}),
                    },
                  })),
                }
              : {}),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    };
  } else {
    body = {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [
        ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
        ...calls.map((call, i) => ({
          type: 'tool_use',
          id: `toolu_${n}_${i}`,
          name: call.name,
          input: call.rawArguments ?? call.args ?? {},
        })),
      ],
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

interface WireBlock {
  type?: string;
  text?: string;
  content?: unknown;
}
interface WireMessage {
  role: string;
  content: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return (content as WireBlock[])
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('\n');
  return '';
}

function describeTurn(request: RecordedRequest, index: number): ScriptTurn {
  const messages = (request.body.messages ?? []) as WireMessage[];
  let observation = '';
  const toolResults: string[] = [];
  if (request.api === 'openai') {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    observation = textOf(lastUser?.content);
    const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
    for (const m of messages.slice(lastAssistant + 1))
      if (m.role === 'tool') toolResults.push(textOf(m.content));
  } else {
    const last = messages[messages.length - 1];
    observation = textOf(last?.content);
    if (Array.isArray(last?.content))
      for (const block of last.content as WireBlock[])
        if (block.type === 'tool_result')
          toolResults.push(typeof block.content === 'string' ? block.content : textOf(block.content));
  }
  return {
    index,
    request,
    observation,
    toolResults,
    ref(role: string, name: string) {
      const line = observation
        .split('\n')
        .find((l) => new RegExp(`^\\[e\\d+\\] ${role} ${escapeRegExp(JSON.stringify(name))}`).test(l));
      const ref = line ? /^\[(e\d+)\]/.exec(line)?.[1] : undefined;
      if (!ref) throw new Error(`no ${role} "${name}" in the observation:\n${observation}`);
      return ref;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A script that plays the given replies in order (the function form sees the turn). */
export function inOrder(...replies: Array<ScriptedReply | Script>): Script {
  return (turn) => {
    const next = replies[Math.min(turn.index, replies.length - 1)];
    if (next === undefined) throw new Error('the script is empty');
    return typeof next === 'function' ? next(turn) : next;
  };
}
