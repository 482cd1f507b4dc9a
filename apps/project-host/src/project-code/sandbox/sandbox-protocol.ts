/** Messages between the host and a project's sandbox process (plain JSON over the IPC channel). */

/** Request shape the sandbox hands to an API handler. */
export interface SandboxApiRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

export interface SandboxUser {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
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
  | { op: 'hook'; key: string; code: string; events: unknown[]; env: Record<string, string> };

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
}

export interface ApiResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HookResult {
  ran: { kind: string; handler: string | null }[];
}

/** Effects a hook asks the host for (email, push, jobs): the host logs or performs them. */
export interface SandboxEffect {
  type: 'effect';
  effect: 'email.send' | 'push.send' | 'jobs.enqueue';
  payload: unknown;
}

export type SandboxReply =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: string }
  | SandboxEffect;

export type SandboxMessage = { id: number; call: SandboxCall };
