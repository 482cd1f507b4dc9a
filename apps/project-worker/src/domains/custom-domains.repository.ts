import type { MainClient, MainDb } from '@suite/db';
import type { CustomDomainRecordRepository } from '@suite/project-runtime';
import { queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

/**
 * The custom domains the checks read and mark (the main database); marks go through
 * CustomDomainRecordRepository (@suite/project-runtime), the one writer of `custom_domains`.
 */
export abstract class CustomDomainsRepository {
  abstract find(id: string): Promise<MainDb.CustomDomain | null>;
  abstract all(): Promise<MainDb.CustomDomain[]>;
  abstract mark(id: string, verified: boolean): Promise<MainDb.CustomDomain>;
}

export class PrismaCustomDomainsRepository extends CustomDomainsRepository {
  constructor(
    private readonly db: MainClient,
    private readonly records: CustomDomainRecordRepository,
  ) {
    super();
  }

  find(id: string): Promise<MainDb.CustomDomain | null> {
    return this.db.customDomain.findUnique({ where: { id } });
  }

  all(): Promise<MainDb.CustomDomain[]> {
    return this.db.customDomain.findMany({ orderBy: { createdAt: 'asc' } });
  }

  mark(id: string, verified: boolean): Promise<MainDb.CustomDomain> {
    return this.records.mark(id, { verified, verifiedAt: verified ? new Date() : null });
  }
}

/**
 * Re-checks in a row that found a verified domain's record missing. Kept in Redis, not in a
 * process: consecutive ticks of the re-check may run on different worker replicas.
 */
export abstract class DomainMisses {
  /** One more miss; the count so far. */
  abstract add(domainId: string): Promise<number>;
  abstract clear(domainId: string): Promise<void>;
}

export class RedisDomainMisses extends DomainMisses {
  private readonly key = `${queuePrefix()}:domain-recheck:misses`;

  constructor(private readonly redis: Redis) {
    super();
  }

  add(domainId: string): Promise<number> {
    return this.redis.hincrby(this.key, domainId, 1);
  }

  async clear(domainId: string): Promise<void> {
    await this.redis.hdel(this.key, domainId);
  }
}
