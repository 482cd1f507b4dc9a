import type { NonceKind, TenantDb } from '@suite/db';
import type { ProjectContext } from '../../projects/project-context.js';
import type { TokenUser } from '../user-snapshot.js';

export type UserRecord = TenantDb.User;
export type CodeRecord = TenantDb.Nonce;

export { DuplicateRecord } from '../../platform/duplicate-record.js';

/** The fields of a user a service may change. */
export type UserChanges = Partial<
  Pick<UserRecord, 'email' | 'name' | 'picture' | 'passwordHash' | 'emailVerified' | 'pendingEmail'>
>;

export interface NewUser {
  email: string;
  name: string | null;
  passwordHash?: string | null;
  picture?: string | null;
  emailVerified?: boolean;
  /** The provider account the user signs up with, linked in the same write. */
  identity?: { issuer: string; subject: string; email: string };
}

/** End users (`platform_auth.users`). Writes throw DuplicateRecord when the email is taken. */
export interface UserRepository {
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  emailTaken(email: string): Promise<boolean>;
  create(user: NewUser): Promise<UserRecord>;
  update(id: string, changes: UserChanges): Promise<UserRecord>;
}

export interface NewSession {
  /** Set by the caller when it must know the id before the row exists (the one-statement rotation). */
  id?: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** The MCP client whose grant the row belongs to; null or absent for an /api/user sign-in. */
  clientId?: string | null;
}

/** A refresh token's row, locked (FOR UPDATE) until the transaction ends. */
export interface LockedSession {
  id: string;
  userId: string;
  familyId: string;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
  clientId: string | null;
}

/**
 * Refresh-token rows (`platform_auth.sessions`): one per token, stored by its hash; a sign-in starts
 * a family and each rotation adds the successor to it. How a refresh rotates is RefreshSessions'.
 */
export interface SessionRepository {
  create(session: NewSession): Promise<{ id: string }>;
  /**
   * The common rotation, atomic in one round trip: when `tokenHash` is a current token (not
   * rotated, revoked or expired), its row is locked, `successor` inserted into its family and the
   * row marked rotated. Undefined when the token is not current or belongs to another client
   * (`clientId`: null for /api/user, an MCP client's id for its grant). Runs in a transaction of
   * its own (never inside `transaction`).
   */
  rotateCurrent(
    tokenHash: string,
    successor: Omit<NewSession, 'userId' | 'familyId' | 'clientId'> & { id: string },
    clientId: string | null,
  ): Promise<{ familyId: string; user: TokenUser } | undefined>;
  /** The row of `tokenHash` whatever its state, locked until the transaction ends. */
  lockByTokenHash(tokenHash: string): Promise<LockedSession | undefined>;
  markRotated(id: string, rotatedAt: Date, replacedById: string): Promise<void>;
  /** Revokes the family's live rows (a sign-out, a detected reuse). */
  revokeFamily(familyId: string, at: Date): Promise<void>;
  /** Revokes every live row of the user (signed out everywhere). */
  revokeAllOf(userId: string, at: Date): Promise<void>;
  /** Whether the user ever opened a session from `ip`. */
  openedFrom(userId: string, ip: string): Promise<boolean>;
  /** Whether the family has a row that is neither revoked nor expired at `now`. */
  familyLive(userId: string, familyId: string, now: Date): Promise<boolean>;
}

export interface NewCode {
  userId: string;
  kind: NonceKind;
  codeHash: string;
  email: string;
  expiresAt: Date;
  redirectUri: string | null;
}

/** Mailed single-use codes (`platform_auth.nonces`), stored by their HMAC. */
export interface CodeRepository {
  /**
   * Stores `code` as the user's only live code of its kind (older live ones of that kind go) and
   * drops the user's codes that expired more than a day before `now`, atomically.
   */
  replace(code: NewCode, now: Date): Promise<void>;
  /** Marks the live, unexpired code used (of two concurrent uses exactly one wins); its row, or null. */
  consume(codeHash: string, kind: NonceKind, now: Date): Promise<CodeRecord | null>;
  /** The row of a code whatever its state. */
  findByHash(codeHash: string): Promise<CodeRecord | null>;
  /** Voids a user's live codes of one kind. */
  voidLive(userId: string, kind: NonceKind): Promise<void>;
}

export interface LinkedIdentity {
  id: string;
  userId: string;
  email: string | null;
  user: UserRecord;
}

/** Identity-provider accounts linked to users (`platform_auth.identities`), keyed by issuer and subject. */
export interface IdentityRepository {
  findLinked(issuer: string, subject: string): Promise<LinkedIdentity | null>;
  /** Throws DuplicateRecord when the provider account is linked already. */
  link(identity: { userId: string; issuer: string; subject: string; email: string }): Promise<void>;
  updateEmail(id: string, email: string): Promise<void>;
  unlinkAllOf(userId: string): Promise<void>;
}

/** One project's end-user data. Every write is its own unless made inside `transaction`. */
export interface AuthStore {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly codes: CodeRepository;
  readonly identities: IdentityRepository;
  /**
   * Runs `work` in one transaction (all its writes or none); `work` gets the store to use inside.
   * Inside a transaction, `transaction` runs `work` in the same one.
   */
  transaction<T>(work: (tx: AuthStore) => Promise<T>): Promise<T>;
}

/** The end-user data of the project a request is for (its tenant database). */
export abstract class AuthStores {
  abstract of(ctx: ProjectContext): AuthStore;
}
