import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from '../connection-url.js';
import { quoteIdent } from '../sql-identifiers.js';

// Test support only (not exported by the package): a database of its own for each test, on the
// server that TEST_PG_ADMIN_URL names, so tests never touch the suite's data or each other's.

export interface ThrowawayDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export function adminUrl(): string {
  return process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export async function createThrowawayDatabase(prefix = 'db_test'): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${quoteIdent(name)}`);
  return {
    name,
    url: databaseUrl(adminUrl(), name),
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    },
  };
}

/** One query on the admin database. */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return withClient(adminUrl(), (client) => client.query(sql, params));
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
