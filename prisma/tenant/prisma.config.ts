import type { PrismaConfig } from 'prisma';

// Prisma CLI config of a tenant database (schema `platform_auth`). Type-only import: this folder
// has no node_modules, and `prisma generate` needs no URL. The suite provisions and migrates
// tenants with @suite/db; for `prisma migrate deploy` by hand, set TENANT_DATABASE_URL. The URL's
// `schema` parameter puts `_prisma_migrations` in platform_auth, where the suite's migrator keeps it.
function tenantUrl(url: string | undefined): string {
  if (!url) return '';
  const parsed = new URL(url);
  if (!parsed.searchParams.has('schema')) parsed.searchParams.set('schema', 'platform_auth');
  return parsed.toString();
}

export default {
  schema: './schema.prisma',
  migrations: { path: './migrations' },
  datasource: { url: tenantUrl(process.env.TENANT_DATABASE_URL) },
} satisfies PrismaConfig;
