/**
 * What project code sees on a project host: `defineApi` (files under `api/`), `defineAuthHook`
 * (the default export of `hooks/auth.ts`), `defineJob` (files under `jobs/`) and `defineMcpTool`
 * (files under `mcp/`, served as tools on the project's `/mcp`). Types and
 * `define*` helpers only: nothing of the host.
 */

/** The SDK version the host reads from a defined value (the `blocking` option needs 0.19.0+). */
export const SDK_VERSION = '0.21.0';

// ---------------------------------------------------------------------------------------------
// The context's services: ctx.db, ctx.email, ctx.push, ctx.jobs (in APIs, hooks and jobs alike)
// ---------------------------------------------------------------------------------------------

/** A row as JSON carries it: int8 as a number when exact (else a string), numeric as a string, timestamps ISO. */
export type DbRow = Record<string, unknown>;

export interface DbResult<Row extends object = DbRow> {
  /** Rows of a statement that returns rows (SELECT, WITH, VALUES, ... RETURNING); [] otherwise. */
  rows: Row[];
  /** Rows returned, or rows affected by INSERT / UPDATE / DELETE without RETURNING. */
  rowCount: number;
}

/**
 * The project's own tables: one SQL statement on the project's database, in its schema `app`,
 * as a role that cannot use the platform's `platform_auth` schema. Values only as parameters
 * (`$1`, `$2`...; objects and arrays are sent as JSON text). At most 1 000 rows per statement and
 * 10 s per statement; an error rejects with Postgres's message.
 */
export interface ProjectDb {
  query<Row extends object = DbRow>(sql: string, params?: unknown[]): Promise<DbResult<Row>>;
}

export interface EmailMessage {
  /** One address. */
  to: string;
  subject: string;
  /** At least one of text and html. */
  text?: string;
  html?: string;
}

/**
 * Mail through the project's SMTP settings: queued (kind `custom` in the mail log) and delivered
 * with retries; resolves once queued. Counts against the project's hourly mail budget.
 */
export interface ProjectEmail {
  send(mail: EmailMessage): Promise<void>;
}

export interface PushMessage {
  /** The project user to reach (ctx.user.id, ctx.event.user.id). */
  userId: string;
  /** At most 200 characters. */
  title: string;
  /** At most 4 096 characters. */
  body?: string;
  /** Anything JSON for the app (at most 4 KB). */
  data?: unknown;
}

/**
 * Realtime messages to one signed-in user: delivered at once to the user's open push streams
 * (`GET /api/_platform/push` with the user's access token or a push ticket, server-sent events
 * `push`; a stream ends with its session). Nothing is
 * stored: a user without an open stream misses the message.
 */
export interface ProjectPush {
  send(message: PushMessage): Promise<void>;
}

export interface EnqueueOptions {
  /** Run no sooner than this many ms from now (at most 7 days). */
  delayMs?: number;
}

/**
 * Slow work: runs `jobs/<name>.ts` of the active deployment later, in the project's sandbox, with
 * 3 attempts. `payload` must be JSON (at most 64 KB). Rejects when the deployment has no such job.
 */
export interface ProjectJobs {
  enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<{ id: string }>;
}

/** What every piece of project code gets from the host. */
export interface PlatformContext {
  /** The deployment's `.env`. */
  env: Record<string, string>;
  db: ProjectDb;
  email: ProjectEmail;
  push: ProjectPush;
  jobs: ProjectJobs;
}

// ---------------------------------------------------------------------------------------------
// defineApi
// ---------------------------------------------------------------------------------------------

/** The project user a valid access token speaks for. */
export interface AuthUser {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  /**
   * Whether the user proved the address (a mailed code, or a provider that verified it); set by
   * the host for `auth: 'required' | 'optional'`, absent when a custom verifier leaves it out.
   */
  email_verified?: boolean;
}

export type Headers = Record<string, string | undefined>;

/** Decides who calls: an AuthUser, or null for 401. */
export type AuthVerifier = (input: { headers: Headers }) => Promise<AuthUser | null> | AuthUser | null;

/** false (default): public; 'required': 401 without a valid Bearer; 'optional': user or null. */
export type ApiAuth = false | 'required' | 'optional' | AuthVerifier;

export interface ApiRequest {
  method: string;
  /** The path as requested, e.g. `/api/boards/list`. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Headers;
  /**
   * The body: parsed JSON (application/json), the fields of a form
   * (application/x-www-form-urlencoded), the text (text/*), or a Buffer of the bytes (any other
   * type: application/octet-stream, images...); undefined without a body. At most
   * PROJECT_API_BODY_KB (1 MB by default) whatever the type: a larger one is refused with 413
   * before the handler runs.
   */
  body: unknown;
}

export interface ApiContext<User extends AuthUser | null = AuthUser | null> extends PlatformContext {
  request: ApiRequest;
  user: User;
}

/** A handler returns a JSON-serialisable value (200), a `Response`, or `{ status, headers, body }` via `reply`. */
export type ApiResult = unknown;

export interface ApiReply {
  readonly __reply: true;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer with a status and headers; `body` is sent as JSON unless it is a string. */
export function reply(status: number, body?: unknown, headers: Record<string, string> = {}): ApiReply {
  return { __reply: true, status, headers, body };
}

type UserOf<A extends ApiAuth | undefined> = A extends 'required'
  ? AuthUser
  : A extends 'optional'
    ? AuthUser | null
    : A extends AuthVerifier
      ? AuthUser
      : null;

export interface ApiDefinition<A extends ApiAuth | undefined = ApiAuth | undefined> {
  auth?: A;
  /** Methods answered; all when absent. Other methods get 405. */
  methods?: string[];
  /** Budget of one call in ms: default 10 000, at most 30 000; past it the call answers 504. */
  timeoutMs?: number;
  handler: (ctx: ApiContext<UserOf<A>>) => Promise<ApiResult> | ApiResult;
}

export interface DefinedApi<A extends ApiAuth | undefined = ApiAuth | undefined> extends ApiDefinition<A> {
  readonly __platform: 'api';
  readonly sdkVersion: string;
}

/** One project API: the default export of a file under `api/` (`api/boards/list.ts` → `/api/boards/list`). */
export function defineApi<A extends ApiAuth | undefined = undefined>(
  definition: ApiDefinition<A>,
): DefinedApi<A> {
  return { ...definition, __platform: 'api', sdkVersion: SDK_VERSION };
}

// ---------------------------------------------------------------------------------------------
// defineAuthHook
// ---------------------------------------------------------------------------------------------

export type AuthEventKind =
  | 'user.created'
  | 'user.signed_in'
  | 'user.signed_out'
  | 'user.updated'
  | 'user.password_updated'
  | 'user.deleted'
  | 'magic_link_requested'
  | 'password_reset_requested'
  | 'auth.failed';

export type AuthFailureReason =
  | 'invalid_credentials'
  | 'identity_already_exists'
  | 'signup_disabled'
  | 'nonce_invalid'
  | 'refresh_rejected'
  | 'idp_oauth_failed';

/** A user as hooks see it: never passwords, tokens, codes or identity-provider subjects. */
export interface HookUser {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
}

export interface AuthEvent<K extends AuthEventKind = AuthEventKind> {
  kind: K;
  /** Present when a user row is known (also after deletion). */
  user: HookUser | null;
  provider: 'email' | 'magic_link' | 'idp' | 'dashboard';
  /** auth.failed only. */
  reason?: AuthFailureReason;
  /** When the auth mutation committed (ISO 8601). */
  at: string;
}

export interface HookContext<K extends AuthEventKind = AuthEventKind> extends PlatformContext {
  event: AuthEvent<K>;
}

type Handler<K extends AuthEventKind> = (ctx: HookContext<K>) => Promise<void> | void;

export interface AuthHookHandlers {
  onUserCreated?: Handler<'user.created'>;
  onUserSignedIn?: Handler<'user.signed_in'>;
  onUserSignedOut?: Handler<'user.signed_out'>;
  onUserUpdated?: Handler<'user.updated'>;
  onUserPasswordUpdated?: Handler<'user.password_updated'>;
  onUserDeleted?: Handler<'user.deleted'>;
  onMagicLinkRequested?: Handler<'magic_link_requested'>;
  onPasswordResetRequested?: Handler<'password_reset_requested'>;
  onAuthFailed?: Handler<'auth.failed'>;
}

export interface AuthHookOptions extends AuthHookHandlers {
  /** Await user.created / user.signed_in batches before the auth response (default false). */
  blocking?: boolean;
  /** Budget of one batch in ms: default 10 000, at most 30 000. */
  timeoutMs?: number;
}

export interface DefinedAuthHook extends AuthHookOptions {
  readonly __platform: 'auth-hook';
  readonly sdkVersion: string;
}

/** Which handler runs for which event kind. */
export const HOOK_HANDLERS: Record<AuthEventKind, keyof AuthHookHandlers> = {
  'user.created': 'onUserCreated',
  'user.signed_in': 'onUserSignedIn',
  'user.signed_out': 'onUserSignedOut',
  'user.updated': 'onUserUpdated',
  'user.password_updated': 'onUserPasswordUpdated',
  'user.deleted': 'onUserDeleted',
  magic_link_requested: 'onMagicLinkRequested',
  password_reset_requested: 'onPasswordResetRequested',
  'auth.failed': 'onAuthFailed',
};

/**
 * The auth hook: the default export of `hooks/auth.ts`. Options are kept as given (the host
 * validates `blocking` at deploy and refuses a non-boolean with invalid_auth_hook).
 */
export function defineAuthHook(options: AuthHookOptions): DefinedAuthHook {
  return { ...options, __platform: 'auth-hook', sdkVersion: SDK_VERSION };
}

// ---------------------------------------------------------------------------------------------
// defineJob
// ---------------------------------------------------------------------------------------------

export interface JobInfo<Payload = unknown> {
  id: string;
  /** `welcome` for jobs/welcome.ts. */
  name: string;
  payload: Payload;
  /** 1 on the first run, 2 on the first retry, ... (a job may run more than once: make it idempotent). */
  attempt: number;
}

export interface JobContext<Payload = unknown> extends PlatformContext {
  job: JobInfo<Payload>;
}

export interface JobDefinition<Payload = unknown> {
  /** Budget of one run in ms: default 10 000, at most 30 000. A throw or a timeout is retried. */
  timeoutMs?: number;
  handler: (ctx: JobContext<Payload>) => Promise<unknown> | unknown;
}

export interface DefinedJob<Payload = unknown> extends JobDefinition<Payload> {
  readonly __platform: 'job';
  readonly sdkVersion: string;
}

/** A job: the default export of a file under `jobs/`, run by `ctx.jobs.enqueue('<name>', payload)`. */
export function defineJob<Payload = unknown>(definition: JobDefinition<Payload>): DefinedJob<Payload> {
  return { ...definition, __platform: 'job', sdkVersion: SDK_VERSION };
}

// ---------------------------------------------------------------------------------------------
// defineMcpTool
// ---------------------------------------------------------------------------------------------

/** A JSON Schema object (draft 2020-12), as MCP clients read it: `{ type: 'object', properties, required }`. */
export type JsonSchemaObject = {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
} & Record<string, unknown>;

/**
 * Who may call a tool: 'required' (default): a signed-in user (the MCP client's access token);
 * 'optional': ctx.user or null; false: anyone, ctx.user null. Custom verifiers do not apply: the
 * project host is the MCP client's authorization server.
 */
export type McpToolAuth = 'required' | 'optional' | false;

export interface McpToolContext<User extends AuthUser | null = AuthUser | null> extends PlatformContext {
  /** The arguments, validated against `inputSchema` by the host before the handler runs. */
  input: Record<string, unknown>;
  user: User;
}

type McpUserOf<A extends McpToolAuth | undefined> = A extends false
  ? null
  : A extends 'optional'
    ? AuthUser | null
    : AuthUser;

export interface McpToolDefinition<A extends McpToolAuth | undefined = McpToolAuth | undefined> {
  /** Unique in the deployment: letters, digits, `_`, `-` and `.`, 1 to 64 characters. */
  name: string;
  /** Shown to people by MCP clients. */
  title?: string;
  /** What the tool does, for the model that decides to call it. */
  description: string;
  /** A JSON Schema of the arguments; its top level is `{ type: 'object' }`. */
  inputSchema: JsonSchemaObject;
  /**
   * A JSON Schema of the result (top level `{ type: 'object' }`): the handler's value is then sent
   * as `structuredContent` (and as JSON text for older clients).
   */
  outputSchema?: JsonSchemaObject;
  auth?: A;
  /** Budget of one call in ms: default 10 000, at most 30 000. */
  timeoutMs?: number;
  /**
   * Returns a string (text content) or a JSON value (an object when `outputSchema` is given). A
   * throw becomes an `isError` result carrying the error's message.
   */
  handler: (ctx: McpToolContext<McpUserOf<A>>) => Promise<unknown> | unknown;
}

export interface DefinedMcpTool<
  A extends McpToolAuth | undefined = McpToolAuth | undefined,
> extends McpToolDefinition<A> {
  readonly __platform: 'mcp-tool';
  readonly sdkVersion: string;
}

/** One MCP tool: the default export of a file under `mcp/` (`mcp/add-note.ts`), served on `/mcp`. */
export function defineMcpTool<A extends McpToolAuth | undefined = undefined>(
  definition: McpToolDefinition<A>,
): DefinedMcpTool<A> {
  return { ...definition, __platform: 'mcp-tool', sdkVersion: SDK_VERSION };
}
