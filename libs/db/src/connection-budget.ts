/**
 * Which database a connection is for: the main database has slots of its own (see
 * ConnectionBudget), so a request that holds a tenant connection and needs a main one never waits
 * for itself.
 */
export type ConnectionKind = 'main' | 'tenant';

export interface ConnectionBudgetOptions {
  /** Connections this process may hold open to Postgres at once, every pool together (≥ 2). */
  size: number;
  /** Longest a caller waits for a connection before ConnectionBudgetError. */
  waitMs: number;
  /**
   * Slots only the main database may use. Default: a quarter of `size`, at least 1 and at most 5
   * (the main pool's share is what keeps the host answering when every tenant is busy).
   */
  reservedForMain?: number;
  /** What the 503's Retry-After says. Default: 2 seconds. */
  retryAfterSeconds?: number;
  /** application_name of the connections opened in this budget (pg_stat_activity shows it). */
  applicationName?: string;
}

/** A pool whose connections the budget may close when it needs room (LRU first). */
export interface BudgetedConnections {
  readonly kind: ConnectionKind;
  /** When a caller last asked the pool for a connection (performance.now()). */
  readonly lastUsedAt: number;
  /** Idle connections the pool holds now. */
  readonly idleCount: number;
  /** Closes up to `max` idle connections (their slots come back as they end); returns how many. */
  closeIdle(max: number): number;
}

/** Thrown when no connection could be had within the wait: the caller should answer 503 and retry later. */
export class ConnectionBudgetError extends Error {
  /** Read by @suite/errors (which does not depend on this package) to answer 503 temporarily_unavailable. */
  readonly code = CONNECTION_BUDGET_EXHAUSTED;

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConnectionBudgetError';
  }
}

export const CONNECTION_BUDGET_EXHAUSTED = 'CONNECTION_BUDGET_EXHAUSTED';

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  kind: ConnectionKind;
  grant: (release: ReleaseSlot) => void;
}

const DEFAULT_RETRY_AFTER_SECONDS = 2;
/** Pause before asking Postgres again after it refused a connection, doubling up to the maximum. */
export const FIRST_PAUSE_MS = 50;
export const MAX_PAUSE_MS = 500;

/** SQLSTATE too_many_connections: Postgres (or a role's or database's CONNECTION LIMIT) refused a session. */
export function isTooManyConnections(error: unknown): boolean {
  return codesOf(error).includes('53300');
}

/** A ConnectionBudgetError, also as Prisma rethrows it (another class, the same code). */
export function isConnectionBudgetError(error: unknown): boolean {
  return codesOf(error).includes(CONNECTION_BUDGET_EXHAUSTED);
}

/** Codes of the error and of its causes. */
function codesOf(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    codes.push((current as { code?: unknown }).code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}
const MAX_RESERVED_FOR_MAIN = 5;

/**
 * The Postgres connections one process may hold, shared by the main database's pool and every
 * tenant pool: a slot is taken before a connection opens and given back when it ends. Tenant
 * connections may use all but `reservedForMain` slots; the main database may use any. A caller
 * that finds no slot free first makes the least recently used pools close idle connections, then
 * waits up to `waitMs`, then gets a ConnectionBudgetError.
 */
export class ConnectionBudget {
  readonly size: number;
  readonly reservedForMain: number;
  readonly waitMs: number;
  readonly retryAfterSeconds: number;
  readonly applicationName: string | undefined;
  private readonly inUse: Record<ConnectionKind, number> = { main: 0, tenant: 0 };
  private readonly waiters: Waiter[] = [];
  /** Pools that hold at least one connection (only those have anything to close). */
  private readonly pools = new Set<BudgetedConnections>();
  private peakInUse = 0;
  private timedOut = 0;

  constructor(options: ConnectionBudgetOptions) {
    if (!Number.isInteger(options.size) || options.size < 2) {
      throw new Error(`ConnectionBudget: size must be a whole number ≥ 2 (got ${options.size})`);
    }
    this.size = options.size;
    this.reservedForMain =
      options.reservedForMain ?? Math.max(1, Math.min(MAX_RESERVED_FOR_MAIN, Math.floor(options.size / 4)));
    if (this.reservedForMain < 1 || this.reservedForMain >= this.size) {
      throw new Error('ConnectionBudget: reservedForMain must leave at least one slot for tenants');
    }
    this.waitMs = options.waitMs;
    this.retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    this.applicationName = options.applicationName;
  }

  /** Slots tenant connections may hold together. */
  get tenantLimit(): number {
    return this.size - this.reservedForMain;
  }

  /**
   * What the budget holds now, the most it ever held, and how many waits ran out (a caller's
   * 503 has at least one; an abandoned connection attempt may add one more).
   */
  stats(): { size: number; main: number; tenant: number; waiting: number; peak: number; timedOut: number } {
    return {
      size: this.size,
      ...this.inUse,
      waiting: this.waiters.length,
      peak: this.peakInUse,
      timedOut: this.timedOut,
    };
  }

  /**
   * A slot for one connection: at once when one is free, otherwise after idle connections of
   * other pools closed or a connection ended, within `waitMs`.
   */
  acquire(kind: ConnectionKind): Promise<ReleaseSlot> {
    if (this.fits(kind)) return Promise.resolve(this.take(kind));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        this.timedOut += 1;
        reject(this.exhausted());
      }, this.waitMs);
      const waiter: Waiter = {
        kind,
        grant: (release) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      this.waiters.push(waiter);
      this.relieve(kind);
    });
  }

  /**
   * Runs `work`, which opens connections of its own one at a time (an admin connection that creates
   * a database, a migrator's), inside one slot. Postgres's too_many_connections is retried (the work
   * must be safe to repeat) like a pool's, within the wait; then ConnectionBudgetError.
   */
  async withSlot<T>(kind: ConnectionKind, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    const release = await this.acquire(kind);
    try {
      let pause = FIRST_PAUSE_MS;
      for (;;) {
        try {
          return await work();
        } catch (error) {
          if (!isTooManyConnections(error)) throw error;
          const left = deadline - Date.now();
          if (left <= 0) throw this.refused(error);
          this.relieve(kind);
          await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
          pause = Math.min(pause * 2, MAX_PAUSE_MS);
        }
      }
    } finally {
      release();
    }
  }

  /**
   * Makes room for a connection of `kind`: closes one idle connection of the least recently used
   * pool that helps (tenant pools first). Returns false when there was none to close. Also what a
   * pool does when Postgres itself refuses with too_many_connections.
   */
  relieve(kind: ConnectionKind): boolean {
    // A main connection closed frees a slot a tenant may use only when the tenants' share is not full.
    const mainHelps = kind === 'main' || this.inUse.tenant < this.tenantLimit;
    const candidates = [...this.pools]
      .filter((pool) => pool.idleCount > 0 && (pool.kind === 'tenant' || mainHelps))
      .sort((a, b) => rank(a) - rank(b) || a.lastUsedAt - b.lastUsedAt);
    for (const pool of candidates) {
      if (pool.closeIdle(1) > 0) return true;
    }
    return false;
  }

  /**
   * A pool's connection went idle: when callers wait, it (or an older idle one) closes for them,
   * since an idle connection holds its slot until the pool's idle timeout.
   */
  connectionIdle(): void {
    for (const kind of new Set(this.waiters.map((waiter) => waiter.kind))) {
      if (this.relieve(kind)) return;
    }
  }

  /** Postgres kept refusing connections (53300) for the whole wait: counted, and the caller's error. */
  refused(cause: unknown): ConnectionBudgetError {
    this.timedOut += 1;
    return this.exhausted(cause);
  }

  /** The error a caller gets when the wait is over. */
  exhausted(cause?: unknown): ConnectionBudgetError {
    return new ConnectionBudgetError(
      `No database connection was free within ${this.waitMs} ms (connection budget ${this.size}); try again shortly`,
      this.retryAfterSeconds,
      cause === undefined ? undefined : { cause },
    );
  }

  /** A pool holds connections (true) or none any more (false): only the former are asked to close some. */
  track(pool: BudgetedConnections, holdsConnections: boolean): void {
    if (holdsConnections) this.pools.add(pool);
    else this.pools.delete(pool);
  }

  private fits(kind: ConnectionKind): boolean {
    const total = this.inUse.main + this.inUse.tenant;
    return total < this.size && (kind === 'main' || this.inUse.tenant < this.tenantLimit);
  }

  private take(kind: ConnectionKind): ReleaseSlot {
    this.inUse[kind] += 1;
    this.peakInUse = Math.max(this.peakInUse, this.inUse.main + this.inUse.tenant);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse[kind] -= 1;
      this.grantWaiting();
    };
  }

  /** First come, first served, except that a main waiter passes tenants stuck on their share. */
  private grantWaiting(): void {
    for (let i = 0; i < this.waiters.length;) {
      const waiter = this.waiters[i]!;
      if (this.fits(waiter.kind)) {
        this.waiters.splice(i, 1);
        waiter.grant(this.take(waiter.kind));
      } else {
        i += 1;
      }
    }
  }
}

/** Tenant pools are closed before the main database's. */
function rank(pool: BudgetedConnections): number {
  return pool.kind === 'tenant' ? 0 : 1;
}
