import { Injectable } from '@nestjs/common';
import { PlatformResources } from './platform-resources.js';

/**
 * Short-lived values shared by every process of the deployment (Redis): kept for a while, read, or
 * taken (read and deleted atomically, so of two racing takers one gets the value).
 */
export abstract class EphemeralStore {
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
  abstract get(key: string): Promise<string | null>;
  abstract take(key: string): Promise<string | null>;
}

@Injectable()
export class RedisEphemeralStore extends EphemeralStore {
  constructor(private readonly resources: PlatformResources) {
    super();
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.resources.redis.set(key, value, 'PX', ttlMs);
  }

  get(key: string): Promise<string | null> {
    return this.resources.redis.get(key);
  }

  take(key: string): Promise<string | null> {
    return this.resources.redis.getdel(key);
  }
}
