import { describe, expect, it } from '@jest/globals';
import { defineApi, defineAuthHook, HOOK_HANDLERS, reply, SDK_VERSION } from './index.js';

describe('platform SDK', () => {
  it('marks a defined API with its kind and the SDK version, keeping its options', () => {
    const api = defineApi({ auth: 'required', handler: ({ user }) => ({ id: user.id }) });
    expect(api).toMatchObject({ __platform: 'api', sdkVersion: SDK_VERSION, auth: 'required' });
    expect(api.handler({ request: {} as never, user: { id: 'u' } as never, env: {} })).toEqual({ id: 'u' });
  });

  it('keeps auth hook options as given so the host can validate them', () => {
    const hook = defineAuthHook({ blocking: 'yes' as unknown as boolean, timeoutMs: 99_000 });
    expect(hook).toMatchObject({ __platform: 'auth-hook', blocking: 'yes', timeoutMs: 99_000 });
    expect(SDK_VERSION).toBe('0.19.0');
  });

  it('maps every event kind to its handler name and builds replies', () => {
    expect(HOOK_HANDLERS['user.created']).toBe('onUserCreated');
    expect(HOOK_HANDLERS['auth.failed']).toBe('onAuthFailed');
    expect(reply(201, { ok: true })).toMatchObject({ status: 201, body: { ok: true } });
  });
});
