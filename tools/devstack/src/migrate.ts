import { mainMigrationsDir, migrateDatabase } from '@suite/db';

/**
 * One-shot migration for container deployments: applies prisma/migrations to DIRECT_DATABASE_URL
 * (Postgres itself, past any transaction pooler: the migrator holds a session advisory lock), else
 * DATABASE_URL.
 */
const url = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('DATABASE_URL is required (a postgres:// URL)\n');
  process.exit(1);
}
migrateDatabase({ url, migrationsDir: mainMigrationsDir() }).then(
  ({ applied }) => {
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'migrations up to date\n');
    process.exit(0);
  },
  (error: Error) => {
    process.stderr.write(`migration failed: ${error.message}\n`);
    process.exit(1);
  },
);
