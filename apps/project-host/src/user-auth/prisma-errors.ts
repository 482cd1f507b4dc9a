import { TenantDb } from '@suite/db';

/** A unique index refused the write (e.g. an email already in use). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof TenantDb.Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
