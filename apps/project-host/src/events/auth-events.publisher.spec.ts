import { describe, expect, it } from '@jest/globals';
import type { AuthHookPayload } from '@suite/queue';
import { FakeClock, RecordingAuthState, testConfig } from '../user-auth/testing/fakes.js';
import { AuthEventsPublisher } from './auth-events.publisher.js';
import { AuthHookQueue, type QueuedBatch } from './auth-hook.queue.js';
import { HookSettingsRepository, type HookSettings } from './hook-settings.repository.js';

// Publishing auth events over a recording queue and hook settings the spec sets.

const PROJECT = 'project-1';
const ADA = { id: 'user-1', email: 'ada@example.com', name: 'Ada', picture: null };

class RecordingQueue extends AuthHookQueue {
  readonly added: { batch: AuthHookPayload; blocking: boolean }[] = [];
  readonly waited: number[] = [];
  failing = false;

  async add(batch: AuthHookPayload, blocking: boolean): Promise<QueuedBatch> {
    if (this.failing) throw new Error('Redis is away');
    this.added.push({ batch, blocking });
    return { id: String(this.added.length), finished: async (timeoutMs) => void this.waited.push(timeoutMs) };
  }
}

class SetHookSettings extends HookSettingsRepository {
  value: HookSettings | null | Error = null;
  reads = 0;

  async activeHookSettings(): Promise<HookSettings | null> {
    this.reads++;
    if (this.value instanceof Error) throw this.value;
    return this.value;
  }
}

function setup() {
  const queue = new RecordingQueue();
  const settings = new SetHookSettings();
  const state = new RecordingAuthState(testConfig());
  const clock = new FakeClock();
  return { queue, settings, state, clock, events: new AuthEventsPublisher(queue, state, settings, clock) };
}

describe('AuthEventsPublisher', () => {
  it('queues one batch, stamped with the time, and makes every process forget its users', async () => {
    const { events, queue, state, clock } = setup();
    await expect(
      events.publish(PROJECT, [
        { kind: 'user.created', user: ADA, provider: 'email' },
        { kind: 'user.signed_in', user: ADA, provider: 'email' },
      ]),
    ).resolves.toBe('1');
    expect(queue.added).toHaveLength(1);
    expect(queue.added[0]).toMatchObject({
      blocking: false,
      batch: { projectId: PROJECT, events: [{ kind: 'user.created', at: clock.now().toISOString() }, {}] },
    });
    expect(state.forgotten).toEqual(['user-1']);
  });

  it('waits for a blocking hook at most its timeout, for sign-ups and sign-ins only', async () => {
    const { events, queue, settings } = setup();
    settings.value = { blocking: true, timeoutMs: 1_500 };
    await events.publish(PROJECT, [{ kind: 'user.signed_in', user: ADA, provider: 'email' }]);
    await events.publish(PROJECT, [{ kind: 'user.signed_out', user: ADA, provider: 'email' }]);
    expect(queue.added.map((added) => added.blocking)).toEqual([true, false]);
    expect(queue.waited).toEqual([1_500]);
  });

  it('reads the hook settings at most every two seconds', async () => {
    const { events, settings, clock } = setup();
    const signIn = () => events.publish(PROJECT, [{ kind: 'user.signed_in', user: ADA, provider: 'email' }]);
    await signIn();
    await signIn();
    clock.advance(2_001);
    await signIn();
    expect(settings.reads).toBe(2);
  });

  it('never fails the request: a queue or settings failure is logged and answered with no job', async () => {
    const { events, queue, settings } = setup();
    settings.value = new Error('database is away');
    await expect(
      events.publish(PROJECT, [{ kind: 'user.signed_in', user: ADA, provider: 'email' }]),
    ).resolves.toBe('1');
    expect(queue.added[0]!.blocking).toBe(false);
    queue.failing = true;
    await expect(
      events.publish(PROJECT, [
        { kind: 'auth.failed', reason: 'invalid_credentials', user: null, provider: 'email' },
      ]),
    ).resolves.toBeUndefined();
  });
});
