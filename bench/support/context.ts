import type { BenchInfra } from './infra.ts';
import { freePort, startApp, waitForHttp, type AppProcess } from './processes.ts';
import { RunnerApi } from './runner-api.ts';
import { WORKER_NODE_OPTIONS } from '../../tools/devstack/dist/worker-node-options.js';

/** What every benchmark gets from the entry point. */
export interface BenchContext {
  infra: BenchInfra;
  /** App logs of this run (kept when something fails). */
  logDir: string;
  /** ARTIFACTS_DIR of the apps (videos, logs), removed at the end. */
  artifactsDir: string;
  /** Where files worth keeping go (bench/results/). */
  resultsDir: string;
  /** File name stem of this run's results, e.g. 2026-11-22T04-30-00Z. */
  stamp: string;
  apiKey: string;
  /** Shorter runs for a smoke test (`--quick`); the figures are then not comparable. */
  quick: boolean;
  /** Profile jobs-api even when the submission aims are met. */
  profile: boolean;
  /** `--busy-neighbour`: the interpreter benchmark keeps one core busy with a load generator of its own. */
  busyNeighbour?: boolean;
  log(message: string): void;
}

/**
 * The benchmarks submit as one owner (the env key) and measure throughput, not fair share: the
 * per-owner queued limit (default 1000) would refuse most of a submission flood.
 */
export const ONE_OWNER_UNLIMITED = { RUNNER_MAX_QUEUED_PER_OWNER: String(1e9) };

export interface StartedApi {
  app: AppProcess;
  api: RunnerApi;
  url: string;
}

/** One jobs-api process on a free loopback port, with the default log level (info, JSON). */
export async function startJobsApi(
  ctx: BenchContext,
  prefix: string,
  options: { name?: string; nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<StartedApi> {
  const port = await freePort();
  const app = startApp(
    'jobs-api',
    {
      DATABASE_URL: ctx.infra.databaseUrl,
      REDIS_URL: ctx.infra.redisUrl,
      REDIS_PREFIX: prefix,
      API_KEYS: ctx.apiKey,
      ARTIFACTS_DIR: ctx.artifactsDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...ONE_OWNER_UNLIMITED,
      ...options.env,
    },
    {
      name: options.name ?? `jobs-api-${prefix.split('-').at(-1)}`,
      logDir: ctx.logDir,
      nodeArgs: options.nodeArgs,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/health`, app);
  } catch (error) {
    await app.stop(2_000);
    throw error;
  }
  return { app, api: new RunnerApi(url, ctx.apiKey), url };
}

/** One browser worker consuming `prefix`'s queue, with `concurrency` jobs at once. */
export async function startWorker(
  ctx: BenchContext,
  prefix: string,
  concurrency: number,
  name = `browser-worker-c${concurrency}`,
  /** Another built checkout to run the worker from (a baseline to compare with). */
  root?: string,
): Promise<AppProcess> {
  const port = await freePort();
  const app = startApp(
    'browser-worker',
    {
      DATABASE_URL: ctx.infra.databaseUrl,
      REDIS_URL: ctx.infra.redisUrl,
      REDIS_PREFIX: prefix,
      ARTIFACTS_DIR: ctx.artifactsDir,
      HOST: '127.0.0.1',
      HEALTH_PORT: String(port),
      WORKER_ID: name,
      WORKER_CONCURRENCY: String(concurrency),
      REAPER_INTERVAL_MS: '0',
      // The benchmarks' site runs on 127.0.0.1, as an app tested under `make start` does.
      BROWSER_NETWORK_POLICY: 'allow-private',
      // As the image and `make start` run this checkout's worker; a baseline runs as it was run.
      ...(root ? {} : { NODE_OPTIONS: WORKER_NODE_OPTIONS }),
    },
    { name, logDir: ctx.logDir, ...(root ? { root } : {}) },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
  } catch (error) {
    await app.stop(2_000);
    throw error;
  }
  return app;
}
