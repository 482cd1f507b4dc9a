import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection, queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

export interface AuthStateListener {
  message(text: string): void;
  /** Subscribed (again): messages flow from now on. */
  live(): void;
  /** The subscription dropped: messages sent meanwhile are lost. */
  down(): void;
}

/** How the processes of a deployment tell each other that a user's auth state changed. */
export abstract class AuthStateChannel {
  abstract publish(text: string): Promise<void>;
  abstract subscribe(listener: AuthStateListener): void;
}

/** Redis pub/sub on `<REDIS_PREFIX>:auth-state`, with a subscriber connection of its own. */
export class RedisAuthStateChannel extends AuthStateChannel implements OnApplicationShutdown {
  private readonly logger = new Logger('auth-state-cache');
  private readonly channel = `${queuePrefix()}:auth-state`;
  private subscriber?: Redis;

  constructor(
    /** The producer connection (publish). */
    private readonly redis: Redis,
    /** The subscriber's own connection. */
    private readonly redisUrl: string,
  ) {
    super();
  }

  async publish(text: string): Promise<void> {
    await this.redis.publish(this.channel, text);
  }

  subscribe(listener: AuthStateListener): void {
    const subscriber = createRedisConnection(this.redisUrl, {
      connectionName: 'project-host-auth-state',
    });
    subscriber.on('error', () => undefined);
    subscriber.on('close', () => listener.down());
    subscriber.on('message', (_channel: string, text: string) => listener.message(text));
    subscriber.on('ready', () => {
      // ioredis re-subscribes on reconnect before 'ready'; messages sent meanwhile are lost, so the
      // listener hears `live` only once this subscription is confirmed.
      subscriber.subscribe(this.channel).then(
        () => listener.live(),
        (error: unknown) => this.logger.warn({ err: error }, 'could not subscribe to auth-state changes'),
      );
    });
    this.subscriber = subscriber;
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }
}
