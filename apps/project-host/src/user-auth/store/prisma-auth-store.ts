import { Injectable } from '@nestjs/common';
import type { TenantClient } from '@suite/db';
import type { ProjectContext } from '../../projects/project-context.js';
import { TX_OPTIONS } from '../user-auth.constants.js';
import { AuthStores, type AuthStore } from './auth-store.js';
import { PrismaCodeRepository } from './prisma-codes.repository.js';
import type { TenantTx } from './tenant-tx.js';
import { PrismaIdentityRepository } from './prisma-identities.repository.js';
import { PrismaSessionRepository } from './prisma-sessions.repository.js';
import { PrismaUserRepository } from './prisma-users.repository.js';

class PrismaAuthStore implements AuthStore {
  readonly users;
  readonly sessions;
  readonly codes;
  readonly identities;

  /** `tx` is set inside a transaction. */
  constructor(
    private readonly root: TenantClient,
    private readonly tx?: TenantTx,
  ) {
    const db = tx ?? root;
    this.users = new PrismaUserRepository(db);
    this.sessions = new PrismaSessionRepository(db, root);
    this.codes = new PrismaCodeRepository(db, tx ? undefined : root, TX_OPTIONS);
    this.identities = new PrismaIdentityRepository(db);
  }

  transaction<T>(work: (tx: AuthStore) => Promise<T>): Promise<T> {
    if (this.tx) return work(this);
    return this.root.$transaction((tx) => work(new PrismaAuthStore(this.root, tx)), TX_OPTIONS);
  }
}

/** The tenant database of the request's project (`ctx.tenant`), through Prisma and node-postgres. */
@Injectable()
export class PrismaAuthStores extends AuthStores {
  private readonly stores = new WeakMap<TenantClient, AuthStore>();

  of(ctx: ProjectContext): AuthStore {
    let store = this.stores.get(ctx.tenant);
    if (!store) {
      store = new PrismaAuthStore(ctx.tenant);
      this.stores.set(ctx.tenant, store);
    }
    return store;
  }
}
