import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { AuthEventKind, HookUser as UserSnapshot } from '@suite/platform-sdk';
import { createRedisConnection, queuePrefix, QueueName } from '@suite/queue';
import { injectTraceContext } from '@suite/telemetry';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import type { ProjectHostConfig } from '../project-host.config.js';
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
export class AuthEventsPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger('auth-events');
  private readonly settings = new Map<string, { value: HookSettings | null; until: number }>();
  private queueEvents?: { events: QueueEvents; connection: Redis; ready: Promise<unknown> };

  constructor(
    private readonly resources: PlatformResources,
    private readonly state: AuthStateCache,
    private readonly hooks: HookSettingsRepository,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  async publish(projectId: string, events: Omit<AuthEvent, 'at'>[]): Promise<string | undefined> {
    if (events.length === 0) return undefined;
    // Whatever happened to these users, what any process cached about them is void.
    const userIds = [...new Set(events.flatMap((event) => (event.user ? [event.user.id] : [])))];
    await this.state.invalidate(projectId, userIds);
    const at = new Date().toISOString();
    const hook = events.some((event) => BLOCKING_KINDS.has(event.kind))
      ? await this.hookSettings(projectId)
      : null;
    const blocking = hook?.blocking === true;
    let job;
    try {
      if (blocking) await this.listener().ready;
      job = await this.resources.hookQueue.add(
        'batch',
        { projectId, events: events.map((event) => ({ ...event, at })), trace: injectTraceContext() },
        // A blocking batch runs once: the response is waiting for it, a retry would come too late.
        blocking ? { attempts: 1 } : undefined,
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
        await job.waitUntilFinished(this.listener().events, hook.timeoutMs);
      } catch (error) {
        this.logger.warn(
          { projectId, jobId: job.id, err: (error as Error).message },
          'blocking auth hook failed or timed out; answering anyway',
        );
      }
    }
    return job.id;
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.queueEvents) return;
    await this.queueEvents.events.close().catch(() => undefined);
    this.queueEvents.connection.disconnect();
  }

  /** The active deployment's hook options, read briefly cached (null: no hook, or no deployment). */
  private async hookSettings(projectId: string): Promise<HookSettings | null> {
    const cached = this.settings.get(projectId);
    if (cached && cached.until > Date.now()) return cached.value;
    try {
      const value = await this.hooks.activeHookSettings(projectId);
      this.settings.set(projectId, { value, until: Date.now() + HOOK_SETTINGS_TTL_MS });
      if (this.settings.size > 5_000) this.settings.delete(this.settings.keys().next().value!);
      return value;
    } catch (error) {
      this.logger.warn({ err: error, projectId }, 'could not read the hook settings; not blocking');
      return null;
    }
  }

  private listener(): { events: QueueEvents; connection: Redis; ready: Promise<unknown> } {
    if (!this.queueEvents) {
      const connection = createRedisConnection(this.config.REDIS_URL, { connectionName: 'auth-events' });
      connection.on('error', () => undefined);
      const events = new QueueEvents(QueueName.AuthHooks, { connection, prefix: queuePrefix() });
      events.on('error', () => undefined);
      this.queueEvents = { events, connection, ready: events.waitUntilReady().catch(() => undefined) };
    }
    return this.queueEvents;
  }
}
