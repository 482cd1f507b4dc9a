import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { prepareInfrastructure } from './infrastructure.js';
import { devLog } from './log.js';
import { dataDir, repoRoot } from './paths.js';

/**
 * `make test` / `pnpm test`: real Postgres and Redis (found or started), a freshly migrated test
 * database and a Redis key prefix of this run's own, then Jest. A running suite's data is never
 * touched. Extra arguments go to Jest (e.g. a path filter).
 */
async function main(): Promise<number> {
  const root = repoRoot();
  // TEST_DATABASE lets two test runs share one Postgres server without dropping each other's data.
  const database = process.env.TEST_DATABASE ?? 'suite_test';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database))
    throw new Error(`TEST_DATABASE must be a plain database name (got "${database}")`);
  const infra = await prepareInfrastructure(dataDir(), { database, recreate: true });
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  const report = join(mkdtempSync(join(tmpdir(), 'suite-jest-')), 'report.json');
  try {
    const code = await new Promise<number>((resolve) => {
      const jest = spawn(
        process.execPath,
        [
          '--experimental-vm-modules',
          '--no-warnings=ExperimentalWarning',
          join(root, 'node_modules/jest/bin/jest.js'),
          '--json',
          `--outputFile=${report}`,
          ...process.argv.slice(2),
        ],
        {
          cwd: root,
          stdio: 'inherit',
          env: {
            ...process.env,
            DATABASE_URL: infra.databaseUrl,
            TEST_PG_ADMIN_URL: infra.adminUrl,
            REDIS_URL: infra.redisUrl,
            REDIS_PREFIX: prefix,
            // Node's compile cache for the built apps the specs start (about 100 boots, each loading
            // thousands of modules; test/support/app-process.ts passes it on): a boot after the
            // first skips compiling them again.
            NODE_COMPILE_CACHE:
              process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules', '.cache', 'node-compile-cache'),
          },
        },
      );
      jest.on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    // TEST_REPORT keeps a copy of Jest's JSON report (per-suite and per-test times), e.g. for
    // scripts/suite-durations.js; the report itself goes with this run's temporary directory.
    if (process.env.TEST_REPORT && existsSync(report)) copyFileSync(report, process.env.TEST_REPORT);
    try {
      const result = JSON.parse(readFileSync(report, 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
      };
      // The plain closing line CI reads, whatever the runner.
      process.stdout.write(
        `\n${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests} skipped\n`,
      );
    } catch {
      devLog('jest wrote no report');
    }
    return code;
  } finally {
    await clearPrefix(infra.redisUrl, prefix);
    rmSync(join(report, '..'), { recursive: true, force: true });
    await infra.stop();
  }
}

async function clearPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    devLog(`test setup failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
