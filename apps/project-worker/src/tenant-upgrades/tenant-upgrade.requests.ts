import { latestTenantMigration } from '@suite/db';
import { QueueName, type TypedQueue } from '@suite/queue';

/** The worker's side of the tenant-upgrades queue: one sweep at a time, and a sweep asked for at boot. */
export class TenantUpgradeRequests {
  constructor(private readonly queue: TypedQueue<typeof QueueName.TenantUpgrades>) {}

  /**
   * Lets the queue run one sweep at a time across replicas and, `atBoot`, asks for a sweep to
   * this build's latest migration: replicas of one release booting together add one job (its
   * deduplication id names the migration), and one still waiting or running answers for them.
   */
  async prepare(atBoot: boolean): Promise<void> {
    await this.queue.setGlobalConcurrency(1);
    if (!atBoot) return;
    await this.queue.add(
      'sweep',
      { requestedBy: 'boot' },
      {
        attempts: 1,
        deduplication: { id: `boot:${latestTenantMigration()}` },
        removeOnComplete: { count: 20 },
        removeOnFail: { count: 20 },
      },
    );
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
