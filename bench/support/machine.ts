import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { redisClient, sql } from './infra.ts';
import { repoRoot } from './processes.ts';

export interface MachineFacts {
  cores: number;
  cpuModel: string;
  memoryMb: number;
  kernel: string;
  node: string;
  chromium?: string;
  ffmpeg?: string;
  postgres?: string;
  redis?: string;
  autocannon?: string;
  puppeteer?: string;
  gitCommit?: string;
  gitDirty?: boolean;
  loadAverageAtStart: number[];
}

function quiet(run: () => string): string | undefined {
  try {
    return run().trim();
  } catch {
    return undefined;
  }
}

function packageVersion(name: string): string | undefined {
  return quiet(
    () =>
      (
        JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version,
  );
}

export async function machineFacts(databaseUrl: string, redisUrl: string): Promise<MachineFacts> {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
  const redis = redisClient(redisUrl);
  const redisVersion = await redis
    .info('server')
    .then((info) => /redis_version:(\S+)/.exec(info)?.[1])
    .catch(() => undefined)
    .finally(() => redis.disconnect());
  const postgres = await sql<{ v: string }>(databaseUrl, "select current_setting('server_version') as v")
    .then((rows) => rows[0]?.v)
    .catch(() => undefined);
  const status = quiet(() =>
    execFileSync('git', ['status', '--porcelain'], { cwd: repoRoot, encoding: 'utf8' }),
  );
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    kernel: release(),
    node: process.version,
    chromium: quiet(() => execFileSync(chromiumPath, ['--version'], { encoding: 'utf8', timeout: 10_000 })),
    ffmpeg: quiet(
      () => /ffmpeg version (\S+)/.exec(execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }))![1]!,
    ),
    postgres,
    redis: redisVersion,
    autocannon: packageVersion('autocannon'),
    puppeteer: packageVersion('puppeteer-core'),
    gitCommit: quiet(() =>
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }),
    ),
    gitDirty: status === undefined ? undefined : status !== '',
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}
