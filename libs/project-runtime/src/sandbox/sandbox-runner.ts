/**
 * The entry of a project's sandbox process (copied into the sandbox's folder as runner.mjs, so it
 * imports only Node built-ins). It runs inside the OS sandbox (@suite/sandbox) with Node's
 * permission model as a second layer (reads of its own folder and /tmp, writes to /tmp only, no
 * child processes, workers or addons), an empty environment, and a small heap. Bundles are files
 * in its read-only folder; it holds no host handles, and reaches the host only over its IPC channel.
 */
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import type {
  ApiResult,
  EffectOp,
  HookHandlerNames,
  HookResult,
  JobResult,
  InspectResult,
  McpToolResult,
  SandboxApiRequest,
  SandboxJob,
  SandboxMessage,
  SandboxReply,
  SandboxUser,
  WireCall,
} from './sandbox-protocol.js';

type Loaded = Record<string, unknown> & { default?: unknown };
const modules = new Map<string, Promise<Loaded>>();

/** The channel to the host: fd 3, one JSON message a line (see @suite/sandbox). */
const channel = new Socket({ fd: 3, readable: true, writable: true });

function send(message: SandboxReply): void {
  let line: string;
  try {
    line = JSON.stringify(message);
  } catch (error) {
    if (message.type !== 'result') throw error;
    const problem = `the result cannot be sent as JSON (${String(error)})`;
    line = JSON.stringify({ type: 'result', id: message.id, ok: false, error: problem });
  }
  channel.write(`${line}\n`);
}

let pending = '';
channel.setEncoding('utf8');
channel.on('data', (chunk: string) => {
  pending += chunk;
  for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    receive(JSON.parse(line) as SandboxMessage);
  }
});
// The host went away: nothing is left to answer to.
channel.on('end', () => process.exit(0));

/** Imports a bundle by its path (named after its content's hash, so a path never changes meaning). */
function load(module: string): Promise<Loaded> {
  let loaded = modules.get(module);
  if (!loaded) {
    loaded = import(pathToFileURL(module).href) as Promise<Loaded>;
    modules.set(module, loaded);
  }
  return loaded;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

async function inspect(module: string, hookHandlers: HookHandlerNames): Promise<InspectResult> {
  const mod = await load(module);
  const value = mod.default;
  const def = isObject(value) ? value : undefined;
  const auth = def?.auth;
  return {
    hasDefault: value !== undefined,
    platform: typeof def?.__platform === 'string' ? def.__platform : null,
    sdkVersion: typeof def?.sdkVersion === 'string' ? def.sdkVersion : null,
    auth:
      auth === undefined || auth === false
        ? 'false'
        : auth === 'required' || auth === 'optional'
          ? auth
          : typeof auth === 'function'
            ? 'custom'
            : 'invalid',
    methods: Array.isArray(def?.methods) ? def.methods.map((m) => String(m).toUpperCase()) : null,
    blocking: def?.blocking,
    timeoutMs: def?.timeoutMs,
    handlers: def ? Object.values(hookHandlers).filter((name) => typeof def[name] === 'function') : [],
    ...(def?.__platform === 'mcp-tool' ? { tool: toolInfo(def) } : {}),
  };
}

/** A JSON copy of a value (undefined stays undefined; what JSON cannot carry becomes null). */
function asJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return null;
  }
}

function toolInfo(def: Record<string, unknown>): NonNullable<InspectResult['tool']> {
  const auth = def.auth;
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: asJson(def.inputSchema),
    outputSchema: asJson(def.outputSchema),
    auth:
      auth === undefined || auth === 'required'
        ? 'required'
        : auth === 'optional'
          ? 'optional'
          : auth === false
            ? 'false'
            : 'invalid',
  };
}

/** An MCP tool call: a throw is the tool's error (an isError result), not a failure of the sandbox. */
async function runMcpTool(
  module: string,
  input: Record<string, unknown>,
  user: SandboxUser | null,
  env: Record<string, string>,
): Promise<McpToolResult> {
  const def = (await load(module)).default;
  if (!isObject(def) || typeof def.handler !== 'function')
    return { ok: false, error: 'The tool has no handler' };
  try {
    const value: unknown = await (def.handler as (ctx: unknown) => unknown)({
      input,
      user,
      env,
      ...effectContext(),
    });
    return { ok: true, value: value === undefined ? null : asJson(value) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const json = (status: number, body: unknown): ApiResult => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body ?? null),
});

async function toResult(value: unknown): Promise<ApiResult> {
  if (value instanceof Response) {
    const headers: Record<string, string> = {};
    value.headers.forEach((v, k) => (headers[k] = v));
    return { status: value.status, headers, body: await value.text() };
  }
  if (isObject(value) && value.__reply === true) {
    const status = typeof value.status === 'number' ? value.status : 200;
    const headers = isObject(value.headers) ? (value.headers as Record<string, string>) : {};
    if (typeof value.body === 'string')
      return {
        status,
        headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
        body: value.body,
      };
    return { ...json(status, value.body), headers: { ...json(status, null).headers, ...headers } };
  }
  return json(200, value);
}

async function runApi(
  module: string,
  request: SandboxApiRequest,
  user: SandboxUser | null,
  env: Record<string, string>,
): Promise<ApiResult> {
  const def = (await load(module)).default;
  if (!isObject(def) || typeof def.handler !== 'function')
    return json(500, { code: 'internal', message: 'The API has no handler' });
  let caller = user;
  if (typeof def.auth === 'function') {
    const verified: unknown = await (def.auth as (input: unknown) => unknown)({
      headers: { ...request.headers },
    });
    if (!isObject(verified)) return json(401, { code: 'unauthorized', message: 'Authentication required' });
    caller = {
      id: String(verified.id),
      email: String(verified.email),
      name: typeof verified.name === 'string' ? verified.name : null,
      picture: typeof verified.picture === 'string' ? verified.picture : null,
    };
  }
  const { bodyBase64, ...fields } = request;
  const result: unknown = await (def.handler as (ctx: unknown) => unknown)({
    request: bodyBase64 === undefined ? fields : { ...fields, body: Buffer.from(bodyBase64, 'base64') },
    user: caller,
    env,
    ...effectContext(),
  });
  return toResult(result);
}

const effects = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextEffect = 1;

/** Asks the host to perform an effect for this project and waits for its answer. */
function request(effect: EffectOp, payload: unknown): Promise<unknown> {
  let plain: unknown;
  try {
    plain = JSON.parse(JSON.stringify(payload ?? null));
  } catch (error) {
    return Promise.reject(new TypeError(`${effect}: arguments must be JSON-serialisable (${String(error)})`));
  }
  const rid = nextEffect++;
  return new Promise((resolve, reject) => {
    effects.set(rid, { resolve, reject });
    send({ type: 'effect', rid, effect, payload: plain });
  });
}

/** ctx.db, ctx.email, ctx.push and ctx.jobs: each call is performed by the host, over IPC. */
function effectContext() {
  return {
    db: {
      query: (sql: string, params?: unknown[]) => request('db.query', { sql, params: params ?? [] }),
    },
    email: { send: async (mail: unknown) => void (await request('email.send', mail)) },
    push: { send: async (message: unknown) => void (await request('push.send', message)) },
    jobs: {
      enqueue: async (name: string, payload?: unknown, options?: unknown) =>
        (await request('jobs.enqueue', { name, payload: payload ?? null, options: options ?? {} })) as {
          id: string;
        },
    },
  };
}

async function runHook(
  module: string,
  events: unknown[],
  env: Record<string, string>,
  hookHandlers: HookHandlerNames,
): Promise<HookResult> {
  const def = (await load(module)).default;
  const ran: HookResult['ran'] = [];
  for (const event of events) {
    const kind = isObject(event) ? String(event.kind) : '';
    const name = Object.hasOwn(hookHandlers, kind) ? hookHandlers[kind] : undefined;
    const handler = name && isObject(def) ? def[name] : undefined;
    if (typeof handler !== 'function') {
      ran.push({ kind, handler: null });
      continue;
    }
    const ctx = { event, env, ...effectContext() };
    await (handler as (ctx: unknown) => unknown)(ctx);
    ran.push({ kind, handler: name! });
  }
  return { ran };
}

async function runJob(module: string, job: SandboxJob, env: Record<string, string>): Promise<JobResult> {
  const def = (await load(module)).default;
  if (!isObject(def) || typeof def.handler !== 'function') throw new Error('The job has no handler');
  const value: unknown = await (def.handler as (ctx: unknown) => unknown)({ job, env, ...effectContext() });
  return { value: value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown) };
}

function run(call: WireCall): Promise<unknown> {
  switch (call.op) {
    case 'inspect':
      return inspect(call.module, call.hookHandlers);
    case 'api':
      return runApi(call.module, call.request, call.user, call.env);
    case 'hook':
      return runHook(call.module, call.events, call.env, call.hookHandlers);
    case 'job':
      return runJob(call.module, call.job, call.env);
    case 'mcp-tool':
      return runMcpTool(call.module, call.input, call.user, call.env);
  }
}

function receive(message: SandboxMessage): void {
  if (message.type === 'effect-result') {
    const waiting = effects.get(message.rid);
    effects.delete(message.rid);
    if (message.ok) waiting?.resolve(message.value);
    else waiting?.reject(new Error(message.error));
    return;
  }
  run(message.call).then(
    (value) => send({ type: 'result', id: message.id, ok: true, value }),
    (error: unknown) =>
      send({
        type: 'result',
        id: message.id,
        ok: false,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
  );
}
// A rejected promise nobody awaited must not end the sandbox with the other calls in flight.
process.on('unhandledRejection', () => undefined);
process.on('uncaughtException', () => undefined);
