import { MainDb, TenantDb } from '@suite/db';

/** A unique index refused the write (an email or slug already in use, a provider account already linked). */
export class DuplicateRecord extends Error {
  constructor(cause?: unknown) {
    super('a unique index refused the write', { cause });
    this.name = 'DuplicateRecord';
  }
}

/** `write`, with a unique-index refusal (Prisma P2002, main or tenant database) turned into DuplicateRecord. */
export async function refusingDuplicates<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const known =
      error instanceof MainDb.Prisma.PrismaClientKnownRequestError ||
      error instanceof TenantDb.Prisma.PrismaClientKnownRequestError;
    if (known && error.code === 'P2002') throw new DuplicateRecord(error);
    throw error;
  }
}
