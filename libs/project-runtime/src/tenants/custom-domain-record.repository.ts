import type { MainClient, MainDb } from '@suite/db';

/** A custom domain as the control plane adds it. */
export type NewCustomDomainRecord = Pick<
  MainDb.CustomDomain,
  'projectId' | 'domain' | 'verified' | 'verifiedAt' | 'verificationToken'
>;

/**
 * The one writer of the `custom_domains` table, in every process: the control plane adds domains
 * and marks them when an admin or a check verifies one; the project worker's domain checks mark
 * them verified or not. Reads stay with their readers (the control plane, the checks,
 * readProjectRecord).
 */
export class CustomDomainRecordRepository {
  constructor(private readonly db: MainClient) {}

  /** Throws Prisma's unique-constraint error (P2002) when another project has the domain. */
  add(domain: NewCustomDomainRecord): Promise<MainDb.CustomDomain> {
    return this.db.customDomain.create({ data: domain });
  }

  /** Throws Prisma's record-not-found error (P2025) when the domain is gone. */
  mark(
    id: string,
    changes: Pick<MainDb.CustomDomain, 'verified' | 'verifiedAt'>,
  ): Promise<MainDb.CustomDomain> {
    return this.db.customDomain.update({ where: { id }, data: changes });
  }
}
