import type { IdentityRepository, LinkedIdentity } from './auth-store.js';
import { refusingDuplicates } from '../../platform/duplicate-record.js';
import type { TenantTx } from './tenant-tx.js';

export class PrismaIdentityRepository implements IdentityRepository {
  constructor(private readonly db: TenantTx) {}

  findLinked(issuer: string, subject: string): Promise<LinkedIdentity | null> {
    return this.db.identity.findUnique({
      where: { issuer_subject: { issuer, subject } },
      include: { user: true },
    });
  }

  async link(identity: { userId: string; issuer: string; subject: string; email: string }): Promise<void> {
    await refusingDuplicates(this.db.identity.create({ data: identity }));
  }

  async updateEmail(id: string, email: string): Promise<void> {
    await this.db.identity.update({ where: { id }, data: { email } });
  }

  async unlinkAllOf(userId: string): Promise<void> {
    await this.db.identity.deleteMany({ where: { userId } });
  }
}
