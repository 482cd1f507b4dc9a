import { describe, expect, it } from '@jest/globals';
import { AuthSecrets, randomToken } from '@suite/project-runtime';
import { FakeClock, MemoryEphemeralStore } from '../testing/fakes.js';
import { IDP_STATE_TTL_SECONDS, IdpStateStore, type PendingSignIn } from './idp-state.store.js';

// Identity-provider sign-in state over an in-memory store and a clock the spec moves.

const PENDING: PendingSignIn = {
  projectId: '0190c1a2-0000-7000-8000-000000000001',
  projectHost: 'acme.localhost',
  redirectUri: 'http://acme.localhost/done',
  codeVerifier: 'verifier',
  nonce: 'nonce',
};

function setup() {
  const clock = new FakeClock();
  const store = new MemoryEphemeralStore(clock);
  return {
    clock,
    store,
    states: new IdpStateStore(store, new AuthSecrets('idp-state-unit-test-secret-0123456789')),
  };
}

describe('IdpStateStore', () => {
  it('gives a saved state back once, and never in clear to the store', async () => {
    const { states, store } = setup();
    const state = randomToken();
    await states.save(state, PENDING);
    expect(store.held().join(' ')).not.toContain(PENDING.redirectUri);
    await expect(states.consume(state)).resolves.toEqual(PENDING);
    await expect(states.consume(state)).resolves.toBeUndefined();
  });

  it('forgets a state after its lifetime, and refuses what is not a state', async () => {
    const { states, clock } = setup();
    const state = randomToken();
    await states.save(state, PENDING);
    clock.advance(IDP_STATE_TTL_SECONDS * 1000 + 1);
    await expect(states.consume(state)).resolves.toBeUndefined();
    for (const garbage of [undefined, 42, '', 'x'.repeat(300)]) {
      await expect(states.consume(garbage)).resolves.toBeUndefined();
    }
  });

  it('binds a state to one browser, checked once', async () => {
    const { states } = setup();
    const state = randomToken();
    const browser = randomToken();
    await states.bind(state, browser);
    await expect(states.takeBinding(state, randomToken())).resolves.toBe(false);
    await states.bind(state, browser);
    await expect(states.takeBinding(state, browser)).resolves.toBe(true);
    await expect(states.takeBinding(state, browser)).resolves.toBe(false);
  });
});
