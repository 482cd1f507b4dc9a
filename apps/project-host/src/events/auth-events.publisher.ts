import { Injectable, Logger } from '@nestjs/common';
import type { AuthEventKind, HookUser as UserSnapshot } from '@suite/platform-sdk';
import { injectTraceContext } from '@suite/telemetry';
import { Clock } from '../platform/clock.js';
import { AuthHookQueue, type QueuedBatch } from './auth-hook.queue.js';
import { AuthStateCache } from './auth-state.cache.js';
import { HookSettingsRepository, type HookSettings } from './hook-settings.repository.js';

/**
 * The hook contract is the SDK's: its event kinds, and what a hook may see of a user (never
 * passwords, tokens, codes or identity-provider subjects).
 */
export type { AuthEventKind, HookUser as UserSnapshot } from '@suite/platform-sdk';

export interface AuthEvent {
  kind: AuthEventKind;
  user: UserSnapshot | null;
  provider: 'email' | 'magic_link' | 'idp' | 'dashboard';
  /** auth.failed only: invalid_credentials, identity_already_exists, signup_disabled, nonce_invalid, refresh_rejected, idp_oauth_failed */
  reason?: string;
  /**
   * user.updated only: true when the account was claimed by whoever just proved its address (it had
   * never been proven; password, sessions and linked identities were dropped). Same id, new owner.
   */
  claimed?: boolean;
  at: string;
}

/** Kinds whose batches a blocking hook awaits before the auth response. */
const BLOCKING_KINDS: ReadonlySet<AuthEventKind> = new Set(['user.created', 'user.signed_in']);
const HOOK_SETTINGS_TTL_MS = 2_000;

/**
 * The internal event stream the project's auth hooks consume (BullMQ queue `auth-hooks`, one job per
 * batch, in order). Publish only after the auth mutation committed. Publishing never fails the
 * request. When the project's active deployment has a blocking hook (`blocking: true`) and the batch
 * holds user.created or user.signed_in, the returned promise also waits for the batch to run (at
 * most its timeoutMs; a throw or timeout is logged), so every caller that awaits `publish` before
 * answering (register, login, the magic-link and identity-provider callbacks) answers after it.
 */
@Injectable()
export class AuthEventsPublisher {
  private readonly logger = new Logger('auth-events');
  private readonly settings = new Map<string, { value: HookSettings | null; until: number }>();

  constructor(
    private readonly queue: AuthHookQueue,
    private readonly state: AuthStateCache,
    private readonly hooks: HookSettingsRepository,
    private readonly clock: Clock,
  ) {}

  async publish(projectId: string, events: Omit<AuthEvent, 'at'>[]): Promise<string | undefined> {
    if (events.length === 0) return undefined;
    // Whatever happened to these users, what any process cached about them is void.
    const userIds = [...new Set(events.flatMap((event) => (event.user ? [event.user.id] : [])))];
    await this.state.invalidate(projectId, userIds);
    const at = this.clock.now().toISOString();
    const hook = events.some((event) => BLOCKING_KINDS.has(event.kind))
      ? await this.hookSettings(projectId)
      : null;
    const blocking = hook?.blocking === true;
    let job: QueuedBatch;
    try {
      job = await this.queue.add(
        { projectId, events: events.map((event) => ({ ...event, at })), trace: injectTraceContext() },
        blocking,
      );
    } catch (error) {
      this.logger.error(
        { err: error, projectId, kinds: events.map((e) => e.kind) },
        'could not publish auth events',
      );
      return undefined;
    }
    if (blocking) {
      try {
        await job.finished(hook.timeoutMs);
      } catch (error) {
        this.logger.warn(
          { projectId, jobId: job.id, err: (error as Error).message },
          'blocking auth hook failed or timed out; answering anyway',
        );
      }
    }
    return job.id;
  }

  /** The active deployment's hook options, read briefly cached (null: no hook, or no deployment). */
  private async hookSettings(projectId: string): Promise<HookSettings | null> {
    const cached = this.settings.get(projectId);
    const now = this.clock.now().getTime();
    if (cached && cached.until > now) return cached.value;
    try {
      const value = await this.hooks.activeHookSettings(projectId);
      this.settings.set(projectId, { value, until: now + HOOK_SETTINGS_TTL_MS });
      if (this.settings.size > 5_000) this.settings.delete(this.settings.keys().next().value!);
      return value;
    } catch (error) {
      this.logger.warn({ err: error, projectId }, 'could not read the hook settings; not blocking');
      return null;
    }
  }
}
