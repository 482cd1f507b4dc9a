import type { PrismaConfig } from 'prisma';

// Prisma CLI config of the main database. Type-only import: this folder has no node_modules, and
// `prisma generate` (run from libs/db with --config) needs no URL. The suite itself migrates with
// @suite/db's offline migrator; `prisma migrate deploy --config prisma/prisma.config.ts` works too
// where the native schema engine is installed.
export default {
  schema: './schema.prisma',
  migrations: { path: './migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
} satisfies PrismaConfig;
