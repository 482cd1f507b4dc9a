import { describe, expect, it } from '@jest/globals';
import {
  defineApi,
  defineAuthHook,
  defineJob,
  defineMcpTool,
  HOOK_HANDLERS,
  reply,
  SDK_VERSION,
  type PlatformContext,
} from './index.js';

describe('platform SDK', () => {
  it('marks a defined API with its kind and the SDK version, keeping its options', () => {
    const api = defineApi({ auth: 'required', handler: ({ user }) => ({ id: user.id }) });
    expect(api).toMatchObject({ __platform: 'api', sdkVersion: SDK_VERSION, auth: 'required' });
    const platform = {} as PlatformContext;
    expect(api.handler({ ...platform, request: {} as never, user: { id: 'u' } as never, env: {} })).toEqual({
      id: 'u',
    });
  });

  it('keeps auth hook options as given so the host can validate them', () => {
    const hook = defineAuthHook({ blocking: 'yes' as unknown as boolean, timeoutMs: 99_000 });
    expect(hook).toMatchObject({ __platform: 'auth-hook', blocking: 'yes', timeoutMs: 99_000 });
    expect(SDK_VERSION).toBe('0.21.0');
  });

  it('marks a defined job with its kind and the SDK version', () => {
    const job = defineJob<{ n: number }>({ timeoutMs: 5_000, handler: ({ job }) => job.payload.n + 1 });
    expect(job).toMatchObject({ __platform: 'job', sdkVersion: SDK_VERSION, timeoutMs: 5_000 });
    expect(job.handler({ job: { payload: { n: 1 } } } as never)).toBe(2);
  });

  it('marks a defined MCP tool with its kind and the SDK version, keeping its schemas', () => {
    const tool = defineMcpTool({
      name: 'whoami',
      description: 'Who is signed in',
      inputSchema: { type: 'object', properties: {} },
      handler: ({ user }) => ({ email: user.email }),
    });
    expect(tool).toMatchObject({ __platform: 'mcp-tool', sdkVersion: SDK_VERSION, name: 'whoami' });
    expect(tool.handler({ input: {}, user: { email: 'a@b.c' } } as never)).toEqual({ email: 'a@b.c' });
  });

  it('maps every event kind to its handler name and builds replies', () => {
    expect(HOOK_HANDLERS['user.created']).toBe('onUserCreated');
    expect(HOOK_HANDLERS['auth.failed']).toBe('onAuthFailed');
    expect(reply(201, { ok: true })).toMatchObject({ status: 201, body: { ok: true } });
  });
});
