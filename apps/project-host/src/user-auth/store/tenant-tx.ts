import type { TenantDb } from '@suite/db';

/** The tenant client, or an interactive transaction on it. */
export type TenantTx = TenantDb.Prisma.TransactionClient;
