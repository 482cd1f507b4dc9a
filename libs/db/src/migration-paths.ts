import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * prisma/migrations of the main database. MIGRATIONS_DIR overrides it for container images that
 * ship the migrations without the repository around them.
 */
export function mainMigrationsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MIGRATIONS_DIR) return resolve(env.MIGRATIONS_DIR);
  return join(repoRoot(), 'prisma', 'migrations');
}

/**
 * prisma/tenant/migrations (schema platform_auth). TENANT_MIGRATIONS_DIR overrides it; with only
 * MIGRATIONS_DIR set, the tenant folder sits where it does in the repository: ../tenant/migrations.
 */
export function tenantMigrationsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TENANT_MIGRATIONS_DIR) return resolve(env.TENANT_MIGRATIONS_DIR);
  if (env.MIGRATIONS_DIR) return resolve(env.MIGRATIONS_DIR, '..', 'tenant', 'migrations');
  return join(repoRoot(), 'prisma', 'tenant', 'migrations');
}

// Walks up from this file, so the answer is the same from src/ (Jest) and from dist/ (run time).
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        'cannot find the prisma folder: no pnpm-workspace.yaml above @suite/db; set MIGRATIONS_DIR (and TENANT_MIGRATIONS_DIR)',
      );
    }
    dir = parent;
  }
  return dir;
}
