import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection, queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { EffectError, isRecord } from './effect-error.js';
import { EffectRateLimit } from './effect-rate-limit.js';

const MAX_TITLE = 200;
const MAX_BODY = 4_096;
const MAX_DATA_BYTES = 4_096;

/** What a signed-in user's push stream receives (`event: push`, this as `data`). */
export interface PushMessage {
  title: string;
  body: string | null;
  data: unknown;
  /** When project code sent it (ISO 8601). */
  at: string;
}

type Listener = (message: PushMessage) => void;

/**
 * ctx.push.send: realtime messages to one signed-in user of the project, delivered to the user's
 * open push streams (`GET /api/_platform/push`, server-sent events) on every replica through Redis
 * pub/sub. Nothing is stored: a user with no open stream misses the message (like Supabase
 * Realtime broadcast or Pusher private channels; not OS notifications).
 */
export class ProjectPush implements OnApplicationShutdown {
  private readonly logger = new Logger('project-push');
  private readonly listeners = new Map<string, Set<Listener>>();
  private subscriber?: Redis;
  private readonly prefix = `${queuePrefix()}:push`;
  private readonly rate: EffectRateLimit;

  constructor(
    /** The producer connection (publish); subscribers open their own from REDIS_URL. */
    private readonly redis: Redis,
    private readonly config: ProjectRuntimeConfig,
  ) {
    this.rate = new EffectRateLimit(redis, {
      key: 'push',
      call: 'ctx.push.send',
      unit: 'messages',
      perMinute: config.PROJECT_PUSH_PER_MINUTE,
    });
  }

  /**
   * Publishes to the user's streams (at most PROJECT_PUSH_PER_MINUTE per project); resolves with
   * how many host connections listen for them.
   */
  async send(projectId: string, input: unknown): Promise<{ listeners: number }> {
    const { userId, message } = parse(input);
    await this.rate.take(projectId);
    try {
      const listeners = await this.redis.publish(this.channel(projectId, userId), JSON.stringify(message));
      return { listeners };
    } catch {
      throw new EffectError('ctx.push.send: the message could not be sent; try again');
    }
  }

  /** Starts delivering the user's messages to `listener`; resolves once subscribed, with the way to stop. */
  async subscribe(projectId: string, userId: string, listener: Listener): Promise<() => void> {
    const channel = this.channel(projectId, userId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    if (set.size === 1) await this.connection().subscribe(channel);
    return () => {
      const current = this.listeners.get(channel);
      current?.delete(listener);
      if (current?.size === 0) {
        this.listeners.delete(channel);
        void this.subscriber?.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  private channel(projectId: string, userId: string): string {
    return `${this.prefix}:${projectId}:${userId}`;
  }

  /** One subscriber connection per host, shared by every stream it serves. */
  private connection(): Redis {
    if (!this.subscriber) {
      this.subscriber = createRedisConnection(this.config.REDIS_URL, { connectionName: 'project-host-push' });
      this.subscriber.on('error', () => undefined);
      this.subscriber.on('message', (channel: string, text: string) => {
        let message: PushMessage;
        try {
          message = JSON.parse(text) as PushMessage;
        } catch {
          return;
        }
        for (const listener of this.listeners.get(channel) ?? []) {
          try {
            listener(message);
          } catch (error) {
            this.logger.warn({ err: (error as Error).message }, 'push listener failed');
          }
        }
      });
    }
    return this.subscriber;
  }
}

function parse(input: unknown): { userId: string; message: PushMessage } {
  if (!isRecord(input)) throw new EffectError('ctx.push.send: pass { userId, title, body?, data? }');
  const { userId, title, body, data } = input;
  if (typeof userId !== 'string' || userId === '' || userId.length > 100) {
    throw new EffectError('ctx.push.send: userId must be the id of a user of the project');
  }
  if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE) {
    throw new EffectError(
      `ctx.push.send: title must be a non-empty string of at most ${MAX_TITLE} characters`,
    );
  }
  if (body !== undefined && (typeof body !== 'string' || body.length > MAX_BODY)) {
    throw new EffectError(`ctx.push.send: body must be a string of at most ${MAX_BODY} characters`);
  }
  if (data !== undefined && Buffer.byteLength(JSON.stringify(data)) > MAX_DATA_BYTES) {
    throw new EffectError(`ctx.push.send: data is limited to ${MAX_DATA_BYTES} bytes of JSON`);
  }
  return {
    userId,
    message: { title, body: body ?? null, data: data ?? null, at: new Date().toISOString() },
  };
}
