/**
 * What project code sees on a project host: `defineApi` (files under `api/`) and `defineAuthHook`
 * (the default export of `hooks/auth.ts`). Types and `define*` helpers only: nothing of the host.
 */

/** The SDK version the host reads from a defined value (the `blocking` option needs 0.19.0+). */
export const SDK_VERSION = '0.19.0';

// ---------------------------------------------------------------------------------------------
// defineApi
// ---------------------------------------------------------------------------------------------

/** The project user a valid access token speaks for. */
export interface AuthUser {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
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
  /** The parsed JSON body (or the text of a non-JSON body); undefined without a body. */
  body: unknown;
}

export interface ApiContext<User extends AuthUser | null = AuthUser | null> {
  request: ApiRequest;
  user: User;
  /** The deployment's `.env`. */
  env: Record<string, string>;
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

export interface HookContext<K extends AuthEventKind = AuthEventKind> {
  event: AuthEvent<K>;
  /** The deployment's `.env`. */
  env: Record<string, string>;
  /** Project database access (a stand-in in this host version: `query` rejects). */
  db: { query(sql: string, params?: unknown[]): Promise<unknown[]> };
  /** Project mail (a stand-in in this host version: the send is logged by the host). */
  email: { send(mail: { to: string; subject: string; text: string; html?: string }): Promise<void> };
  /** Push notifications (a stand-in in this host version: logged by the host). */
  push: { send(message: { userId: string; title: string; body?: string }): Promise<void> };
  /** Slow work: enqueued on the host's queue and logged (project jobs run in a later host version). */
  jobs: { enqueue(name: string, payload?: unknown): Promise<void> };
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
