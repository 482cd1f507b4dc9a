import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mainMigrationsDir, tenantMigrationsDir } from './migration-paths.js';

describe('migration folders', () => {
  it('are found in the repository from the package sources', () => {
    expect(existsSync(join(mainMigrationsDir({}), 'migration_lock.toml'))).toBe(true);
    expect(existsSync(join(tenantMigrationsDir({}), 'migration_lock.toml'))).toBe(true);
    expect(tenantMigrationsDir({})).toBe(join(mainMigrationsDir({}), '..', 'tenant', 'migrations'));
  });

  it('can be moved by environment variables, as in a container image', () => {
    expect(mainMigrationsDir({ MIGRATIONS_DIR: '/app/prisma/migrations' })).toBe('/app/prisma/migrations');
    expect(tenantMigrationsDir({ MIGRATIONS_DIR: '/app/prisma/migrations' })).toBe(
      '/app/prisma/tenant/migrations',
    );
    expect(
      tenantMigrationsDir({ MIGRATIONS_DIR: '/app/prisma/migrations', TENANT_MIGRATIONS_DIR: '/app/tenant' }),
    ).toBe('/app/tenant');
  });
});
