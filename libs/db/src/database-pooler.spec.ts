import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

const repoRoot = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'generated'].includes(entry.name) ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('named statements in the services', () => {
  it('every query object with a name is sent through hotStatement (unnamed behind a pooler)', () => {
    const files = ['apps', 'libs'].flatMap((top) =>
      readdirSync(join(repoRoot, top)).flatMap((pkg) => {
        try {
          return sources(join(repoRoot, top, pkg, 'src'));
        } catch {
          return [];
        }
      }),
    );
    const named: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // `const X = { name: '…', text: … }`: a statement named for node-postgres.
      for (const [, constant] of text.matchAll(/const ([A-Z][A-Z0-9_]*) = \{\s*name: '[^']+',\s*text:/g)) {
        named.push(`${relative(repoRoot, file)} ${constant}`);
        expect({
          file: relative(repoRoot, file),
          constant,
          throughHotStatement: new RegExp(`hotStatement\\(\\{\\s*\\.\\.\\.${constant}\\b`).test(text),
        }).toEqual({
          file: relative(repoRoot, file),
          constant,
          throughHotStatement: true,
        });
      }
    }
    // The check is live: it finds the three hot statements there are today.
    expect(named.length).toBeGreaterThanOrEqual(3);
  });
});
