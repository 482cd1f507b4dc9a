import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// The code's shape, read from the source tree: each of these tables has one writer, and the
// connection bags reach only the provider factories that build repositories and adapters. Paths are
// relative to the repository, found from this file's own location.

const root = join(import.meta.dirname, '..', '..');

/** Non-test TypeScript under apps/<app>/src and libs/<lib>/src, as repository paths with `/`. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (['node_modules', 'dist', 'generated', 'testing'].includes(entry.name)) continue;
        walk(path);
      } else if (
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.spec.ts') &&
        !entry.name.endsWith('.d.ts')
      ) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  for (const group of ['apps', 'libs']) {
    for (const pkg of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const src = join(root, group, pkg.name, 'src');
      try {
        walk(src);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return files.sort();
}

const files = sourceFiles();
const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

const PRISMA_WRITES =
  'create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany';

/** Files that write `table`: through the Prisma model's write calls, or in SQL. */
function writersOf(table: string, model: string): string[] {
  const prisma = new RegExp(`\\.${model}\\s*\\.\\s*(?:${PRISMA_WRITES})\\s*\\(`);
  const sql = new RegExp(
    `\\b(?:INSERT\\s+INTO|DELETE\\s+FROM)\\s+"?${table}"?\\b|\\bUPDATE\\s+"?${table}"?\\s+SET\\b`,
    'i',
  );
  return files.filter((file) => prisma.test(text.get(file)!) || sql.test(text.get(file)!));
}

const A2A_WRITERS = [
  'libs/jobs/src/a2a-conversation.repository.ts',
  // A new task's context and first message go in with its job, in one statement (one round trip).
  'libs/jobs/src/job-insert.repository.ts',
];

const TABLES = [
  {
    table: 'projects',
    model: 'project',
    writers: ['libs/project-runtime/src/tenants/project-record.repository.ts'],
  },
  {
    table: 'custom_domains',
    model: 'customDomain',
    writers: ['libs/project-runtime/src/tenants/custom-domain-record.repository.ts'],
  },
  { table: 'mail_log', model: 'mailLog', writers: ['libs/project-runtime/src/mail/mail-log.repository.ts'] },
  { table: 'a2a_contexts', model: 'a2aContext', writers: A2A_WRITERS },
  { table: 'a2a_messages', model: 'a2aMessage', writers: A2A_WRITERS },
];

describe('one writer per table', () => {
  it('reads the whole source tree', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files).toContain('libs/jobs/src/runner-jobs.providers.ts');
  });

  for (const { table, model, writers } of TABLES) {
    it(`${table} is written only by ${writers.join(' and ')}`, () => {
      expect(writersOf(table, model)).toEqual([...writers].sort());
    });
  }
});

const BAGS = /\b(?:PlatformResources|RuntimeResources|WorkerResources)\b/;

/** Where a connection bag may be named: where it is defined, and provider factories and module wiring. */
const mayNameBags = (file: string): boolean =>
  file.endsWith('.providers.ts') ||
  file.endsWith('.module.ts') ||
  [
    'apps/project-host/src/platform/platform-resources.ts',
    'apps/project-worker/src/worker-resources.ts',
    'libs/project-runtime/src/runtime.ports.ts',
    'libs/project-runtime/src/index.ts',
  ].includes(file);

describe('connection bags', () => {
  it('are seen only by provider factories and module wiring, never by a service, resolver, check or repository', () => {
    const named = files.filter((file) => BAGS.test(text.get(file)!));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((file) => !mayNameBags(file))).toEqual([]);
  });
});
