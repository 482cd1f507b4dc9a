import pg from 'pg';
import {
  ConnectionBudgetError,
  FIRST_PAUSE_MS,
  isTooManyConnections,
  MAX_PAUSE_MS,
  type BudgetedConnections,
  type ConnectionBudget,
  type ConnectionKind,
} from './connection-budget.js';

type Callback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/** What pg-pool keeps of its idle connections (not typed by @types/pg). */
interface PoolInternals {
  _idle?: { client: pg.Client }[];
  _remove?: (client: pg.Client) => void;
}

/**
 * A node-postgres pool inside a ConnectionBudget: each of its connections holds a slot of the
 * budget from before it opens until it ends, a checkout waits at most the budget's waitMs (then
 * ConnectionBudgetError), and "too many clients" from Postgres makes the process close an idle
 * connection and try again within that wait instead of failing.
 */
export class BudgetedPool extends pg.Pool implements BudgetedConnections {
  lastUsedAt = performance.now();
  private open = 0;

  constructor(
    config: pg.PoolConfig,
    private readonly budget: ConnectionBudget,
    readonly kind: ConnectionKind,
  ) {
    super(config);
    // pg-pool constructs clients with `new this.Client(options)`: ours take a slot before connecting.
    (this as unknown as { Client: typeof pg.Client }).Client = budgetedClient(budget, kind, this);
    // pg-pool announces a release before it files the connection as idle (or hands it on).
    this.on('release', () => process.nextTick(() => budget.connectionIdle()));
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Callback): void;
  override connect(callback?: Callback): Promise<pg.PoolClient> | void {
    const checkout = this.checkout();
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  closeIdle(max: number): number {
    const internals = this as unknown as PoolInternals;
    if (!Array.isArray(internals._idle) || typeof internals._remove !== 'function') return 0;
    // The front of the list has waited longest (pg-pool hands out the last one first).
    const idle = internals._idle.slice(0, max).map((item) => item.client);
    for (const client of idle) internals._remove.call(this, client);
    return idle.length;
  }

  /** A connection opened (+1) or ended (-1): the budget only asks pools that hold some to close one. */
  connectionCount(change: 1 | -1): void {
    this.open += change;
    this.budget.track(this, this.open > 0);
  }

  private async checkout(): Promise<pg.PoolClient> {
    this.lastUsedAt = performance.now();
    const deadline = Date.now() + this.budget.waitMs;
    let pause = FIRST_PAUSE_MS;
    let refusal: unknown;
    for (;;) {
      try {
        return await this.checkoutBefore(deadline);
      } catch (error) {
        if (error instanceof ConnectionBudgetError && refusal) throw this.budget.refused(refusal);
        if (!isTooManyConnections(error)) throw error;
        // Postgres is full (other processes, or a role's connection limit): make room here and retry.
        refusal = error;
        const left = deadline - Date.now();
        if (left <= 0) throw this.budget.refused(error);
        this.budget.relieve(this.kind);
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  /** pg-pool's checkout, abandoned at the deadline (a connection that comes later goes back to the pool). */
  private checkoutBefore(deadline: number): Promise<pg.PoolClient> {
    const connecting = super.connect();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.budget.exhausted()), Math.max(0, deadline - Date.now()));
    });
    return Promise.race([connecting, late]).then(
      (client) => {
        clearTimeout(timer);
        return client;
      },
      (error: unknown) => {
        clearTimeout(timer);
        connecting.then(
          (client) => client.release(),
          () => undefined,
        );
        throw error;
      },
    );
  }
}

/** The client class of a budgeted pool: a slot before connecting, given back when the connection ends. */
function budgetedClient(
  budget: ConnectionBudget,
  kind: ConnectionKind,
  pool: BudgetedPool,
): typeof pg.Client {
  class BudgetedClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connecting = this.connectWithSlot();
      if (!callback) return connecting;
      // pg-pool's callback takes a falsy error for success.
      const done = callback as (err: Error | null) => void;
      connecting.then(
        () => done(null),
        (error: Error) => done(error),
      );
    }

    private async connectWithSlot(): Promise<pg.Client> {
      const release = await budget.acquire(kind);
      pool.connectionCount(1);
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        pool.connectionCount(-1);
        release();
      };
      this.once('end', end);
      try {
        return await super.connect();
      } catch (error) {
        end();
        throw error;
      }
    }
  }
  return BudgetedClient;
}
