import { TenantDb } from '@suite/db';
import { DuplicateRecord } from './auth-store.js';

/** The tenant client, or an interactive transaction on it. */
export type TenantTx = TenantDb.Prisma.TransactionClient;

/** `write`, with a unique-index refusal (Prisma P2002) turned into DuplicateRecord. */
export async function refusingDuplicates<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof TenantDb.Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DuplicateRecord(error);
    }
    throw error;
  }
}
