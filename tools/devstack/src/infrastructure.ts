import { mainMigrationsDir, migrateDatabase } from '@suite/db';
import { mkdirSync } from 'node:fs';
import { devLog } from './log.js';
import { createDatabase, ensurePostgres, ensureRedis, type RunningService } from './services.js';

export interface Infrastructure {
  adminUrl: string;
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * Postgres and Redis ready for the suite: found or started, the database created and migrated.
 * `database` is the main database name; tests pass their own and `recreate` for a clean slate.
 */
export async function prepareInfrastructure(
  dataDir: string,
  options: { database?: string; recreate?: boolean } = {},
): Promise<Infrastructure> {
  mkdirSync(dataDir, { recursive: true });
  const started: RunningService[] = [];
  const stop = async (): Promise<void> => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
  };
  try {
    const postgres = await ensurePostgres(dataDir);
    started.push(postgres);
    const redis = await ensureRedis(dataDir);
    started.push(redis);

    // DATABASE_URL names the database to use; otherwise the suite gets its own on the server.
    const databaseUrl =
      postgres.origin === 'env' && !options.database
        ? process.env.DATABASE_URL!
        : await createDatabase(postgres.url, options.database ?? 'suite', options.recreate);
    const { applied } = await migrateDatabase({ url: databaseUrl, migrationsDir: mainMigrationsDir() });
    devLog(
      `postgres (${postgres.origin}) and redis (${redis.origin}) ready; ${applied.length ? `applied ${applied.join(', ')}` : 'migrations up to date'}`,
    );
    return { adminUrl: postgres.url, databaseUrl, redisUrl: redis.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
