import { describe, expect, it } from '@jest/globals';
import { behindPooler, databasePooler, directDatabaseUrl, hotStatement } from './database-pooler.js';

const pooled = {
  DATABASE_POOLER: 'pgbouncer',
  DATABASE_URL: 'postgresql://suite:pw@pgbouncer:6432/suite',
  DIRECT_DATABASE_URL: 'postgresql://suite:pw@postgres:5432/suite',
};

describe('database pooler settings', () => {
  it('sends hot statements named without a pooler and unnamed behind one', () => {
    const query = { name: 'insert-job-v1', text: 'SELECT 1', values: [] };
    expect(hotStatement(query, {})).toBe(query);
    expect(hotStatement(query, pooled)).toEqual({ text: 'SELECT 1', values: [] });
    expect(query.name).toBe('insert-job-v1');
  });

  it('points URLs of the pooler at Postgres itself for session work, keeping database, role and options', () => {
    expect(
      directDatabaseUrl('postgresql://suite:pw@pgbouncer:6432/tenant_x?schema=platform_auth', pooled),
    ).toBe('postgresql://suite:pw@postgres:5432/tenant_x?schema=platform_auth');
    expect(directDatabaseUrl('postgresql://admin:pw@pgbouncer:6432/postgres', pooled)).toBe(
      'postgresql://admin:pw@postgres:5432/postgres',
    );
    // Another server, or no pooler: as it is.
    expect(directDatabaseUrl('postgresql://suite:pw@tenants-2:5432/postgres', pooled)).toBe(
      'postgresql://suite:pw@tenants-2:5432/postgres',
    );
    expect(directDatabaseUrl(pooled.DATABASE_URL, { DATABASE_URL: pooled.DATABASE_URL })).toBe(
      pooled.DATABASE_URL,
    );
  });

  it('tells which URLs go through the pooler', () => {
    expect(behindPooler('postgresql://x@pgbouncer:6432/tenant_y', pooled)).toBe(true);
    expect(behindPooler('postgresql://x@postgres:5432/tenant_y', pooled)).toBe(false);
    expect(behindPooler(pooled.DATABASE_URL, { DATABASE_URL: pooled.DATABASE_URL })).toBe(false);
  });

  it('refuses session work behind a pooler when no direct URL is set', () => {
    const env = { DATABASE_POOLER: 'pgbouncer', DATABASE_URL: pooled.DATABASE_URL };
    expect(() => directDatabaseUrl(pooled.DATABASE_URL, env)).toThrow(/needs DIRECT_DATABASE_URL/);
  });

  it('refuses an unknown pooler by name', () => {
    expect(() => databasePooler({ DATABASE_POOLER: 'pgpool' })).toThrow(
      /DATABASE_POOLER must be one of none, pgbouncer/,
    );
  });
});
