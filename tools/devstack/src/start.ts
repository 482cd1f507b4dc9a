import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prepareInfrastructure } from './infrastructure.js';
import { devLog, prefixer } from './log.js';
import { dataDir, repoRoot } from './paths.js';
import { loadOrCreateSecrets } from './secrets.js';
import { WORKER_NODE_OPTIONS } from './worker-node-options.js';

/**
 * `make start`: Postgres, Redis, migrations, then every app of the suite in the foreground.
 * Ctrl-C (SIGINT) or SIGTERM stops the apps gracefully, then whatever this command started.
 */
const root = repoRoot();
const data = dataDir();
const children: ChildProcess[] = [];
let stopping = false;

async function main(): Promise<void> {
  const infra = await prepareInfrastructure(data);
  const secrets = loadOrCreateSecrets(data);
  const apiKeys = process.env.API_KEYS || secrets.apiKey;
  const adminToken = process.env.PLATFORM_ADMIN_TOKEN || secrets.adminToken;
  const runnerPort = Number(process.env.RUNNER_PORT ?? process.env.PORT ?? 8080);
  const gatewayPort = Number(process.env.GATEWAY_PORT ?? 8081);
  const hostPort = Number(process.env.PROJECT_HOST_PORT ?? 8082);
  const workers = Math.max(1, Number(process.env.WORKERS ?? 1));

  const common: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    API_KEYS: apiKeys,
    PLATFORM_ADMIN_TOKEN: adminToken,
    AUTH_SECRET: process.env.AUTH_SECRET || secrets.authSecret,
    TENANT_ADMIN_DATABASE_URL: process.env.TENANT_ADMIN_DATABASE_URL || infra.adminUrl,
    ARTIFACTS_DIR: process.env.ARTIFACTS_DIR || join(data, 'artifacts'),
    LOG_FORMAT: process.env.LOG_FORMAT || 'pretty',
    NODE_ENV: process.env.NODE_ENV || 'development',
    // Testing an app on this machine is the point here; images and manifests say public-only.
    BROWSER_NETWORK_POLICY: process.env.BROWSER_NETWORK_POLICY || 'allow-private',
  };
  const apps: { name: string; app: string; env: NodeJS.ProcessEnv }[] = [
    {
      name: 'agent-gateway',
      app: 'agent-gateway',
      env: {
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        PUBLIC_RUNNER_URL: `http://127.0.0.1:${runnerPort}`,
      },
    },
    {
      name: 'jobs-api',
      app: 'jobs-api',
      env: { PORT: String(runnerPort), GATEWAY_URL: `http://127.0.0.1:${gatewayPort}` },
    },
    { name: 'project-host', app: 'project-host', env: { PORT: String(hostPort) } },
    ...Array.from({ length: workers }, (_, i) => ({
      name: workers > 1 ? `browser-worker-${i + 1}` : 'browser-worker',
      app: 'browser-worker',
      // As the image runs it (deploy/Dockerfile): a small young generation.
      env: { HEALTH_PORT: String(8083 + i), WORKER_ID: `worker-${i + 1}`, NODE_OPTIONS: WORKER_NODE_OPTIONS },
    })),
    // The consumers of the host's queues (mail, auth hooks, project jobs) and of the gateway's
    // push notifications; health and metrics on the ports after the browser workers'.
    { name: 'project-worker', app: 'project-worker', env: { HEALTH_PORT: String(8083 + workers) } },
    { name: 'push-worker', app: 'push-worker', env: { HEALTH_PORT: String(8084 + workers) } },
  ];

  apps.forEach(({ name, app, env }, index) => {
    const child = spawn(
      process.execPath,
      ['--enable-source-maps', join(root, 'apps', app, 'dist', 'main.js')],
      {
        env: { ...common, ...env, OTEL_SERVICE_NAME: name },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const tag = prefixer(name, index);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${tag(line)}\n`));
    }
    child.on('exit', (code, signal) => {
      if (stopping) return;
      devLog(`${name} exited (${signal ?? `code ${code}`}); stopping the suite`);
      void shutdown(1, infra.stop);
    });
    children.push(child);
  });

  const signal = (): void => void shutdown(0, infra.stop);
  process.on('SIGINT', signal);
  process.on('SIGTERM', signal);

  devLog('');
  devLog(`runner        http://127.0.0.1:${runnerPort}  (docs /docs, health /health)`);
  devLog(`control plane http://localhost:${hostPort}  (projects at http://<project>.localhost:${hostPort})`);
  devLog(`API key       ${apiKeys.split(',')[0]}`);
  devLog(`admin token   ${adminToken}`);
  devLog('Ctrl-C stops everything');
  devLog('');
}

async function shutdown(code: number, stopInfra: () => Promise<void>): Promise<void> {
  if (stopping) return;
  stopping = true;
  devLog('stopping…');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await stopInfra();
  devLog('stopped');
  process.exit(code);
}

main().catch((error: Error) => {
  devLog(`start failed: ${error.message}`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
});
