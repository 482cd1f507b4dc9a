import type { NewUser, UserChanges, UserRecord, UserRepository } from './auth-store.js';
import { refusingDuplicates } from '../../platform/duplicate-record.js';
import type { TenantTx } from './tenant-tx.js';

export class PrismaUserRepository implements UserRepository {
  constructor(private readonly db: TenantTx) {}

  findById(id: string): Promise<UserRecord | null> {
    return this.db.user.findUnique({ where: { id } });
  }

  findByEmail(email: string): Promise<UserRecord | null> {
    return this.db.user.findUnique({ where: { email } });
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db.user.findUnique({ where: { email }, select: { id: true } })) !== null;
  }

  create({ identity, ...user }: NewUser): Promise<UserRecord> {
    return refusingDuplicates(
      this.db.user.create({
        data: { ...user, ...(identity ? { identities: { create: identity } } : {}) },
      }),
    );
  }

  update(id: string, changes: UserChanges): Promise<UserRecord> {
    return refusingDuplicates(this.db.user.update({ where: { id }, data: changes }));
  }
}
