/** Messages between the host and a project's sandbox process (plain JSON over the IPC channel). */

/** Request shape the sandbox hands to an API handler. */
export interface SandboxApiRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | undefined>;
  /** Parsed JSON, form fields or text; undefined without a body or when `bodyBase64` carries it. */
  body?: unknown;
  /** A body of any other content type, as base64; the runner hands the handler a Buffer of it. */
  bodyBase64?: string;
}

export interface SandboxUser {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  /** From the access token: whether the user proved the address (absent from custom verifiers). */
  email_verified?: boolean;
}

export type SandboxCall =
  /** Import a bundle and describe its default export (deploy-time validation). */
  | { op: 'inspect'; key: string; code: string }
  /** Run an API handler; `user` is what the host verified ('required'/'optional'); custom verifiers run here. */
  | {
      op: 'api';
      key: string;
      code: string;
      request: SandboxApiRequest;
      user: SandboxUser | null;
      env: Record<string, string>;
    }
  /** Run the auth hook's handlers for a batch, in order. */
  | { op: 'hook'; key: string; code: string; events: unknown[]; env: Record<string, string> }
  /** Run a job (`jobs/<name>.ts`) once. */
  | { op: 'job'; key: string; code: string; job: SandboxJob; env: Record<string, string> }
  /** Run an MCP tool's handler with arguments the host validated; `user` as for 'api'. */
  | {
      op: 'mcp-tool';
      key: string;
      code: string;
      input: Record<string, unknown>;
      user: SandboxUser | null;
      env: Record<string, string>;
    };

/**
 * A call as the sandbox receives it: the host wrote the code into the sandbox's read-only folder
 * and `module` is its path there (code is never evaluated from a string or a data URL).
 */
export type WireCall = SandboxCall extends infer C
  ? C extends SandboxCall
    ? Omit<C, 'code'> & { module: string; hookHandlers: HookHandlerNames }
    : never
  : never;

/**
 * Which handler of the auth hook runs for which event kind: the SDK's HOOK_HANDLERS, sent by the
 * host with every call (the runner imports only Node built-ins, so it cannot import the SDK).
 */
export type HookHandlerNames = Readonly<Record<string, string>>;

/** What a job handler sees as `ctx.job`. */
export interface SandboxJob {
  id: string;
  name: string;
  payload: unknown;
  /** 1 for the first run, 2 for the first retry... */
  attempt: number;
}

export interface InspectResult {
  hasDefault: boolean;
  platform: string | null;
  sdkVersion: string | null;
  /** 'false' | 'required' | 'optional' | 'custom' | 'invalid' for APIs. */
  auth: string | null;
  methods: string[] | null;
  blocking: unknown;
  timeoutMs: unknown;
  handlers: string[];
  /** The fields of a defineMcpTool value, as JSON (schemas that cannot be JSON are null). */
  tool?: {
    name: unknown;
    title: unknown;
    description: unknown;
    inputSchema: unknown;
    outputSchema: unknown;
    /** 'required' (also when absent), 'optional', 'false' or 'invalid'. */
    auth: string;
  };
}

/** What an MCP tool's handler gave: its value as JSON, or the message of what it threw. */
export type McpToolResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HookResult {
  ran: { kind: string; handler: string | null }[];
}

export interface JobResult {
  value: unknown;
}

/** What project code asks the host for through its context (ctx.db, ctx.email, ctx.push, ctx.jobs). */
export type EffectOp = 'db.query' | 'email.send' | 'push.send' | 'jobs.enqueue';

/**
 * A request of project code to the host: the host performs it for the sandbox's project (the
 * sandbox never holds credentials or sockets of its own) and answers with an EffectResponse.
 */
export interface SandboxEffect {
  type: 'effect';
  /** Answer correlation, chosen by the sandbox. */
  rid: number;
  effect: EffectOp;
  payload: unknown;
}

export type SandboxReply =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: string }
  | SandboxEffect;

export type EffectResponse =
  | { type: 'effect-result'; rid: number; ok: true; value: unknown }
  | { type: 'effect-result'; rid: number; ok: false; error: string };

export type SandboxMessage = { type: 'call'; id: number; call: WireCall } | EffectResponse;
