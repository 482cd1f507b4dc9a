import type { NonceKind } from '@suite/db';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { ProjectContext } from '../../projects/project-context.js';
import {
  AuthStores,
  DuplicateRecord,
  type AuthStore,
  type CodeRecord,
  type CodeRepository,
  type IdentityRepository,
  type LinkedIdentity,
  type LockedSession,
  type NewCode,
  type NewSession,
  type NewUser,
  type SessionRepository,
  type UserChanges,
  type UserRecord,
  type UserRepository,
} from '../store/auth-store.js';
import type { TokenUser } from '../user-snapshot.js';

// In-memory fakes of the end-user data repositories, for the services' unit specs. They keep the
// rules the database enforces (unique emails, tokens and provider accounts; one winner of a code or
// of a rotation) and roll a failed transaction back; transactions do not isolate from each other
// (a spec runs one request at a time). auth-store.contract.spec.ts holds them to the database.

export interface SessionRow extends NewSession {
  id: string;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  replacedById: string | null;
}

export interface IdentityRow {
  id: string;
  userId: string;
  issuer: string;
  subject: string;
  email: string | null;
}

type TableRows = Pick<AuthTables, 'users' | 'sessions' | 'codes' | 'identities'>;

/** One project's tables. */
export class AuthTables {
  users = new Map<string, UserRecord>();
  sessions = new Map<string, SessionRow>();
  codes = new Map<string, CodeRecord>();
  identities = new Map<string, IdentityRow>();

  snapshot(): TableRows {
    const { users, sessions, codes, identities } = this;
    return structuredClone({ users, sessions, codes, identities });
  }

  restore(from: TableRows): void {
    this.users = from.users;
    this.sessions = from.sessions;
    this.codes = from.codes;
    this.identities = from.identities;
  }

  sessionsOf(userId: string): SessionRow[] {
    return [...this.sessions.values()].filter((row) => row.userId === userId);
  }

  userByEmail(email: string): UserRecord | undefined {
    return [...this.users.values()].find((user) => user.email === email);
  }
}

class MemoryUsers implements UserRepository {
  constructor(
    private readonly tables: AuthTables,
    private readonly clock: Clock,
  ) {}

  async findById(id: string): Promise<UserRecord | null> {
    return copy(this.tables.users.get(id));
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    return copy(this.tables.userByEmail(email));
  }

  async emailTaken(email: string): Promise<boolean> {
    return this.tables.userByEmail(email) !== undefined;
  }

  async create({ identity, ...user }: NewUser): Promise<UserRecord> {
    if (this.tables.userByEmail(user.email)) throw new DuplicateRecord();
    const now = this.clock.now();
    const row: UserRecord = {
      id: randomUUID(),
      email: user.email,
      name: user.name,
      picture: user.picture ?? null,
      passwordHash: user.passwordHash ?? null,
      emailVerified: user.emailVerified ?? false,
      pendingEmail: null,
      createdAt: now,
      updatedAt: now,
    };
    if (identity) new MemoryIdentities(this.tables).insert({ userId: row.id, ...identity });
    this.tables.users.set(row.id, row);
    return { ...row };
  }

  async update(id: string, changes: UserChanges): Promise<UserRecord> {
    const row = this.tables.users.get(id);
    if (!row) throw new Error(`no user ${id}`);
    const other = changes.email === undefined ? undefined : this.tables.userByEmail(changes.email);
    if (other && other.id !== id) throw new DuplicateRecord();
    Object.assign(row, changes, { updatedAt: this.clock.now() });
    return { ...row };
  }
}

class MemorySessions implements SessionRepository {
  constructor(
    private readonly tables: AuthTables,
    private readonly clock: Clock,
  ) {}

  async create(session: NewSession): Promise<{ id: string }> {
    if ([...this.tables.sessions.values()].some((row) => row.tokenHash === session.tokenHash))
      throw new DuplicateRecord();
    const id = session.id ?? randomUUID();
    this.tables.sessions.set(id, { ...session, id, rotatedAt: null, revokedAt: null, replacedById: null });
    return { id };
  }

  async rotateCurrent(
    tokenHash: string,
    successor: Omit<NewSession, 'userId' | 'familyId' | 'clientId'> & { id: string },
    clientId: string | null,
  ): Promise<{ familyId: string; user: TokenUser } | undefined> {
    const now = this.clock.now();
    const current = this.byHash(tokenHash);
    if (!current || current.rotatedAt || current.revokedAt || current.expiresAt <= now) return undefined;
    if ((current.clientId ?? null) !== clientId) return undefined;
    // Checked and marked with no await between: of two racing presentations one wins (the row lock).
    Object.assign(current, { rotatedAt: now, replacedById: successor.id });
    const user = this.tables.users.get(current.userId)!;
    await this.create({
      ...successor,
      userId: current.userId,
      familyId: current.familyId,
      clientId: current.clientId ?? null,
    });
    const { id, email, name, picture, emailVerified } = user;
    return { familyId: current.familyId, user: { id, email, name, picture, emailVerified } };
  }

  async lockByTokenHash(tokenHash: string): Promise<LockedSession | undefined> {
    const row = this.byHash(tokenHash);
    if (!row) return undefined;
    const { id, userId, familyId, rotatedAt, revokedAt, expiresAt } = row;
    return { id, userId, familyId, rotatedAt, revokedAt, expiresAt, clientId: row.clientId ?? null };
  }

  async markRotated(id: string, rotatedAt: Date, replacedById: string): Promise<void> {
    Object.assign(this.tables.sessions.get(id)!, { rotatedAt, replacedById });
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    for (const row of this.tables.sessions.values())
      if (row.familyId === familyId && !row.revokedAt) row.revokedAt = at;
  }

  async revokeAllOf(userId: string, at: Date): Promise<void> {
    for (const row of this.tables.sessionsOf(userId)) if (!row.revokedAt) row.revokedAt = at;
  }

  async openedFrom(userId: string, ip: string): Promise<boolean> {
    return this.tables.sessionsOf(userId).some((row) => row.ip === ip);
  }

  async familyLive(userId: string, familyId: string, now: Date): Promise<boolean> {
    return this.tables
      .sessionsOf(userId)
      .some((row) => row.familyId === familyId && !row.revokedAt && row.expiresAt > now);
  }

  private byHash(tokenHash: string): SessionRow | undefined {
    return [...this.tables.sessions.values()].find((row) => row.tokenHash === tokenHash);
  }
}

class MemoryCodes implements CodeRepository {
  constructor(private readonly tables: AuthTables) {}

  async replace(code: NewCode, now: Date): Promise<void> {
    const dayAgo = now.getTime() - 24 * 3600_000;
    for (const [id, row] of this.tables.codes) {
      if (row.userId !== code.userId) continue;
      if ((row.kind === code.kind && !row.consumedAt) || row.expiresAt.getTime() < dayAgo)
        this.tables.codes.delete(id);
    }
    const id = randomUUID();
    this.tables.codes.set(id, { ...code, id, consumedAt: null, createdAt: now });
  }

  async consume(codeHash: string, kind: NonceKind, now: Date): Promise<CodeRecord | null> {
    const row = [...this.tables.codes.values()].find((candidate) => candidate.codeHash === codeHash);
    if (!row || row.kind !== kind || row.consumedAt || row.expiresAt <= now) return null;
    row.consumedAt = now;
    return { ...row };
  }

  async findByHash(codeHash: string): Promise<CodeRecord | null> {
    return copy([...this.tables.codes.values()].find((row) => row.codeHash === codeHash));
  }

  async voidLive(userId: string, kind: NonceKind): Promise<void> {
    for (const [id, row] of this.tables.codes)
      if (row.userId === userId && row.kind === kind && !row.consumedAt) this.tables.codes.delete(id);
  }
}

class MemoryIdentities implements IdentityRepository {
  constructor(private readonly tables: AuthTables) {}

  async findLinked(issuer: string, subject: string): Promise<LinkedIdentity | null> {
    const row = this.find(issuer, subject);
    if (!row) return null;
    return {
      id: row.id,
      userId: row.userId,
      email: row.email,
      user: { ...this.tables.users.get(row.userId)! },
    };
  }

  async link(identity: { userId: string; issuer: string; subject: string; email: string }): Promise<void> {
    this.insert(identity);
  }

  insert(identity: { userId: string; issuer: string; subject: string; email: string }): void {
    if (this.find(identity.issuer, identity.subject)) throw new DuplicateRecord();
    const id = randomUUID();
    this.tables.identities.set(id, { id, ...identity });
  }

  async updateEmail(id: string, email: string): Promise<void> {
    this.tables.identities.get(id)!.email = email;
  }

  async unlinkAllOf(userId: string): Promise<void> {
    for (const [id, row] of this.tables.identities)
      if (row.userId === userId) this.tables.identities.delete(id);
  }

  private find(issuer: string, subject: string): IdentityRow | undefined {
    return [...this.tables.identities.values()].find(
      (row) => row.issuer === issuer && row.subject === subject,
    );
  }
}

class InMemoryAuthStore implements AuthStore {
  readonly users;
  readonly sessions;
  readonly codes;
  readonly identities;
  private inTransaction = false;

  constructor(
    readonly tables: AuthTables,
    clock: Clock,
  ) {
    this.users = new MemoryUsers(tables, clock);
    this.sessions = new MemorySessions(tables, clock);
    this.codes = new MemoryCodes(tables);
    this.identities = new MemoryIdentities(tables);
  }

  async transaction<T>(work: (tx: AuthStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    const before = this.tables.snapshot();
    this.inTransaction = true;
    try {
      return await work(this);
    } catch (error) {
      this.tables.restore(before);
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }
}

/** Every project's tables, in memory. */
export class InMemoryAuthStores extends AuthStores {
  private readonly stores = new Map<string, InMemoryAuthStore>();

  constructor(private readonly clock: Clock) {
    super();
  }

  of(ctx: Pick<ProjectContext, 'project'>): InMemoryAuthStore {
    let store = this.stores.get(ctx.project.id);
    if (!store) {
      store = new InMemoryAuthStore(new AuthTables(), this.clock);
      this.stores.set(ctx.project.id, store);
    }
    return store;
  }

  tables(ctx: Pick<ProjectContext, 'project'>): AuthTables {
    return this.of(ctx).tables;
  }
}

function copy<T extends object>(row: T | undefined): T | null {
  return row ? { ...row } : null;
}
