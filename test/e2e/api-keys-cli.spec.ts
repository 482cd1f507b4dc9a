import { describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../support/app-process.js';
import { sql } from '../support/runner-client.js';

const run = promisify(execFile);
const cli = join(repoRoot, 'apps/jobs-api/dist/cli/api-keys.cli.js');
const env = { PATH: process.env.PATH, DATABASE_URL: process.env.DATABASE_URL };

const keys = async (...args: string[]) => run(process.execPath, [cli, ...args], { env });

// Each call starts a Node process that loads the Prisma client: seconds each on a busy 2-core machine.
jest.setTimeout(180_000);

describe('pnpm api-keys', () => {
  const owner = `cli-${randomBytes(4).toString('hex')}`;

  it('creates a key that is shown once and stored only as a hash', async () => {
    const { stdout, stderr } = await keys('create', '--owner', owner, '--name', 'ci');
    const created = JSON.parse(stdout) as { id: string; key: string; prefix: string; owner: string };
    expect(created).toMatchObject({ owner, name: 'ci', key: expect.stringMatching(/^sk_[\w-]{32}$/) });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(stderr).toMatch(/only its hash is stored/);

    const [row] = await sql<{ hash: string }>('select hash from api_keys where id = $1', [created.id]);
    expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.hash).not.toContain(created.key);

    const listed = JSON.parse((await keys('list', '--owner', owner)).stdout) as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({ id: created.id, prefix: created.prefix, revokedAt: null }),
    ]);
    expect(listed[0]).not.toHaveProperty('hash');
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('revokes by prefix, and says so when nothing matched', async () => {
    const created = JSON.parse((await keys('create', '--owner', owner)).stdout) as {
      prefix: string;
      id: string;
    };
    await expect(keys('revoke', created.prefix)).resolves.toMatchObject({ stdout: 'revoked 1 key(s)\n' });
    const [row] = await sql<{ revoked_at: Date | null }>('select revoked_at from api_keys where id = $1', [
      created.id,
    ]);
    expect(row!.revoked_at).toBeInstanceOf(Date);
    await expect(keys('revoke', created.prefix)).rejects.toMatchObject({
      code: 1,
      stdout: 'no active key matched\n',
    });
  });

  it('explains its usage and refuses a bad owner', async () => {
    await expect(keys()).rejects.toMatchObject({
      code: 2,
      stdout: expect.stringMatching(/api-keys create --owner/),
    });
    await expect(keys('create', '--owner', 'not ok!')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/owner must be/),
    });
  });
});
