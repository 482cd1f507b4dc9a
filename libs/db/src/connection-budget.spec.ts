import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ConnectionBudget, ConnectionBudgetError } from './connection-budget.js';
import { databaseUrl } from './connection-url.js';
import {
  createMainClient,
  createTenantClient,
  sqlPool,
  TenantClientCache,
  type MainClient,
  type TenantClient,
} from './prisma-clients.js';
import { quoteIdent } from './sql-identifiers.js';
import {
  adminQuery,
  adminUrl,
  createThrowawayDatabase,
  type ThrowawayDatabase,
} from './testing/throwaway-database.js';

// The budget over real node-postgres pools on the real server: what pg_stat_activity shows of
// this process's connections is what Postgres pays for.

const TENANTS = 6;
let main: ThrowawayDatabase;
const tenants: ThrowawayDatabase[] = [];
const opened: { $disconnect(): Promise<void> }[] = [];

beforeAll(async () => {
  main = await createThrowawayDatabase('budget_main');
  for (let i = 0; i < TENANTS; i++) tenants.push(await createThrowawayDatabase('budget_tenant'));
});

afterAll(async () => {
  await Promise.all([main, ...tenants].map((database) => database?.drop()));
});

afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((client) => client.$disconnect()));
});

function appName(): string {
  return `budget-spec-${randomBytes(4).toString('hex')}`;
}

/** Connections Postgres holds for this application_name now. */
async function connectionsOf(applicationName: string): Promise<number> {
  const { rows } = await adminQuery(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  return (rows[0] as { n: number }).n;
}

function mainClient(budget: ConnectionBudget, applicationName: string): MainClient {
  const client = createMainClient(main.url, { budget, applicationName });
  opened.push(client);
  return client;
}

function tenantClient(i: number, budget: ConnectionBudget, applicationName: string): TenantClient {
  const client = createTenantClient(tenants[i]!.url, { budget, applicationName });
  opened.push(client);
  return client;
}

/** A connection checked out of a client's pool and kept until released (a request mid-transaction). */
async function hold(client: MainClient | TenantClient): Promise<pg.PoolClient> {
  return sqlPool(client).connect();
}

describe('ConnectionBudget slots', () => {
  it('lets the main database past tenants that wait on their share, and a freed slot goes to the waiting tenant', async () => {
    const budget = new ConnectionBudget({ size: 3, reservedForMain: 1, waitMs: 10_000 });
    const tenantSlots = [await budget.acquire('tenant'), await budget.acquire('tenant')];
    const order: string[] = [];
    const tenantWaiting = budget.acquire('tenant').then((release) => (order.push('tenant'), release));
    // The tenants' share (3 - 1) is full, the main database's slot is free: no waiting.
    const main = await budget.acquire('main');
    expect(budget.stats()).toMatchObject({ main: 1, tenant: 2, waiting: 1 });
    main();
    tenantSlots[0]!();
    (await tenantWaiting)();
    expect(order).toEqual(['tenant']);
    tenantSlots[1]!();
    expect(budget.stats()).toMatchObject({ main: 0, tenant: 0, waiting: 0, peak: 3 });
  });

  it('refuses sizes that leave no slot for tenants, and counts the waits that ran out', async () => {
    expect(() => new ConnectionBudget({ size: 1, waitMs: 100 })).toThrow(/size/);
    expect(() => new ConnectionBudget({ size: 2, reservedForMain: 2, waitMs: 100 })).toThrow(/tenants/);
    const budget = new ConnectionBudget({ size: 2, reservedForMain: 1, waitMs: 50 });
    const held = await budget.acquire('tenant');
    await expect(budget.acquire('tenant')).rejects.toBeInstanceOf(ConnectionBudgetError);
    expect(budget.stats()).toMatchObject({ tenant: 1, waiting: 0, timedOut: 1 });
    held();
    held(); // a second release changes nothing
    expect(budget.stats().tenant).toBe(0);
  });
});

describe('ConnectionBudget over real pools', () => {
  it('keeps every pool of the process together within the budget, however many tenants are busy', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 4, waitMs: 10_000 });
    const clients = tenants.map((_, i) => tenantClient(i, budget, name));
    const db = mainClient(budget, name);
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await connectionsOf(name));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const work = [];
    for (let round = 0; round < 4; round++) {
      for (const client of clients) work.push(client.$queryRawUnsafe('SELECT 1 FROM pg_sleep(0.02)'));
      work.push(db.$queryRawUnsafe('SELECT 1'));
    }
    const results = await Promise.allSettled(work);
    sampling = false;
    await sampler;

    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(4);
    expect(budget.stats().peak).toBeLessThanOrEqual(4);
  });

  it('closes an idle connection of the least recently used tenant to serve another one', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 3, reservedForMain: 1, waitMs: 10_000 });
    const oldest = tenantClient(0, budget, name);
    const recent = tenantClient(1, budget, name);
    const next = tenantClient(2, budget, name);
    await oldest.$queryRawUnsafe('SELECT 1');
    await recent.$queryRawUnsafe('SELECT 1');
    expect(budget.stats().tenant).toBe(2); // both idle, the tenants' share (3 - 1) full

    await next.$queryRawUnsafe('SELECT 1');

    const { rows } = await adminQuery(
      'SELECT datname FROM pg_stat_activity WHERE application_name = $1 ORDER BY datname',
      [name],
    );
    expect(rows.map((row) => (row as { datname: string }).datname).sort()).toEqual(
      [tenants[1]!.name, tenants[2]!.name].sort(),
    );
    // The closed tenant still works: it opens a connection again.
    await expect(oldest.$queryRawUnsafe('SELECT 1')).resolves.toBeDefined();
  });

  it('fails with ConnectionBudgetError after the wait when every connection is checked out', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 3, reservedForMain: 1, waitMs: 300 });
    const held = [await hold(tenantClient(0, budget, name)), await hold(tenantClient(1, budget, name))];
    try {
      const waiting = sqlPool(tenantClient(2, budget, name)).query('SELECT 1');
      await expect(waiting).rejects.toBeInstanceOf(ConnectionBudgetError);
      await expect(waiting).rejects.toMatchObject({ retryAfterSeconds: 2 });
      // Through Prisma the error keeps its identity somewhere in the chain the mappers search.
      const viaPrisma = await tenantClient(3, budget, name)
        .$queryRawUnsafe('SELECT 1')
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(chainHasBudgetError(viaPrisma)).toBe(true);
    } finally {
      for (const client of held) client.release();
    }
    expect(await connectionsOf(name)).toBeLessThanOrEqual(3);
  });

  it('keeps slots for the main database: a request holding every tenant slot still reaches it', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 3, reservedForMain: 1, waitMs: 5_000 });
    const held = [await hold(tenantClient(0, budget, name)), await hold(tenantClient(1, budget, name))];
    try {
      // The holders need the main database before they let go: it must not wait for them.
      await expect(mainClient(budget, name).$queryRawUnsafe('SELECT 1')).resolves.toBeDefined();
    } finally {
      for (const client of held) client.release();
    }
  });

  it('a request that holds a main connection and needs a tenant one gets it once a tenant frees up', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 3, reservedForMain: 1, waitMs: 10_000 });
    const db = mainClient(budget, name);
    const busy = [await hold(tenantClient(0, budget, name)), await hold(tenantClient(1, budget, name))];
    const holdingMain = await hold(db);
    const needsTenant = tenantClient(2, budget, name).$queryRawUnsafe('SELECT 1');
    // Another request finishes its tenant work: the waiting one proceeds while still holding main.
    busy[0]!.release();
    await expect(needsTenant).resolves.toBeDefined();
    holdingMain.release();
    busy[1]!.release();
  });

  it('treats "too many clients" from Postgres like a full budget: closes an idle connection and retries', async () => {
    const role = `budget_spec_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${quoteIdent(role)} LOGIN CONNECTION LIMIT 1`);
    try {
      const name = appName();
      const asRole = (database: ThrowawayDatabase) => {
        const url = new URL(databaseUrl(adminUrl(), database.name));
        url.username = role;
        return url.toString();
      };
      // The budget has room; Postgres (the role's limit) does not.
      const budget = new ConnectionBudget({ size: 10, waitMs: 1_500 });
      const first = createTenantClient(asRole(tenants[0]!), { budget, applicationName: name });
      const second = createTenantClient(asRole(tenants[1]!), { budget, applicationName: name });
      opened.push(first, second);
      await first.$queryRawUnsafe('SELECT 1');
      await expect(second.$queryRawUnsafe('SELECT 1')).resolves.toBeDefined();

      // When nothing of this process can be closed, the caller gets the budget's error, not 53300.
      const held = await hold(second);
      try {
        const refused = await sqlPool(first)
          .query('SELECT 1')
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(refused).toBeInstanceOf(ConnectionBudgetError);
        expect(((refused as Error).cause as { code?: string }).code).toBe('53300');
      } finally {
        held.release();
      }
    } finally {
      await Promise.allSettled(opened.splice(0).map((client) => client.$disconnect()));
      await adminQuery(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
    }
  });

  it('withSlot runs work that opens its own connections inside one slot, retrying it while Postgres refuses', async () => {
    const role = `budget_spec_${randomBytes(4).toString('hex')}`;
    await adminQuery(`CREATE ROLE ${quoteIdent(role)} LOGIN CONNECTION LIMIT 1`);
    const url = new URL(tenants[0]!.url);
    url.username = role;
    const outsider = new pg.Client({ connectionString: url.toString() });
    try {
      await outsider.connect();
      const budget = new ConnectionBudget({ size: 2, reservedForMain: 1, waitMs: 10_000 });
      let attempts = 0;
      const during: number[] = [];
      const work = budget.withSlot('tenant', async () => {
        attempts += 1;
        during.push(budget.stats().tenant);
        const client = new pg.Client({ connectionString: url.toString() });
        try {
          await client.connect();
          return (await client.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]!.ok;
        } finally {
          await client.end().catch(() => undefined);
        }
      });
      // Refused while the outsider holds the role's only connection; served once it leaves.
      while (attempts < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      await outsider.end();
      await expect(work).resolves.toBe(1);
      expect(during.every((held) => held === 1)).toBe(true);
      expect(budget.stats().tenant).toBe(0);
    } finally {
      await outsider.end().catch(() => undefined);
      await adminQuery(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
    }
  });

  it('TenantClientCache forgets least recently used clients that hold no connection, and keeps working', async () => {
    const name = appName();
    const budget = new ConnectionBudget({ size: 4, waitMs: 5_000 });
    const cache = new TenantClientCache({ budget, applicationName: name });
    try {
      const first = cache.get(tenants[0]!.url);
      expect(cache.get(tenants[0]!.url)).toBe(first);
      await first.$queryRawUnsafe('SELECT 1');
      // Many other URLs (the same database under other options), none of them used.
      const other = (i: number) => `${tenants[1]!.url}?application_name=other-${i}`;
      const unused = cache.get(other(0));
      for (let i = 1; i < 60; i++) cache.get(other(i));
      // The first one holds a connection, so it is still the cached one; the unused one was forgotten.
      expect(cache.get(tenants[0]!.url)).toBe(first);
      expect(cache.get(other(0))).not.toBe(unused);
      await cache.delete(tenants[0]!.url);
      expect(await connectionsOf(name)).toBe(0);
      const again = cache.get(tenants[0]!.url);
      expect(again).not.toBe(first);
      await expect(again.$queryRawUnsafe('SELECT 1')).resolves.toBeDefined();
    } finally {
      await cache.disconnectAll();
    }
  });
});

function chainHasBudgetError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length) {
    const current = queue.shift() as
      | { name?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown; cause?: unknown } }
      | undefined;
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (
      current.name === 'ConnectionBudgetError' ||
      (current as { code?: unknown }).code === 'CONNECTION_BUDGET_EXHAUSTED'
    )
      return true;
    queue.push(current.cause, current.meta?.driverAdapterError, current.meta?.cause);
  }
  return false;
}
