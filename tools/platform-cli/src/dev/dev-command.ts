import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { dataDir, loadOrCreateSecrets, prepareInfrastructure, repoRoot } from '@suite/devstack';
import { CliError, USAGE_EXIT_CODE } from '../cli-error.js';
import { ControlPlaneClient, type Project } from './control-plane.client.js';
import { CLIENT_PATH, startDevProxy } from './dev-proxy.server.js';
import type { DevOptions } from './dev-options.js';
import { customIdpOf, readEnvFile, smtpOf, type SmtpSettings } from './env-file.js';
import { startHost } from './host.process.js';
import { startMailSink, type MailSink } from './mail-sink.js';
import { ProjectDeployer } from './project-deployer.js';
import { linkProject } from './project-link.js';
import { watchProject } from './project-watcher.js';
import { say, warn } from './terminal.js';

/**
 * The developer's own code: the OS sandbox of deployed hosts when bubblewrap works here (so code
 * that needs what production forbids fails here too), else a plain process, said once.
 */
function devSandboxMode(): string {
  const chosen = process.env.PROJECT_CODE_SANDBOX;
  if (chosen) return chosen;
  const probe = spawnSync(
    process.env.BWRAP_PATH || 'bwrap',
    ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', 'true'],
    {
      stdio: 'ignore',
      timeout: 10_000,
    },
  );
  if (probe.status === 0) return 'bubblewrap';
  warn(
    'platform',
    'bubblewrap is not available here: your project code runs in a plain process (PROJECT_CODE_SANDBOX=process); deployed hosts run it in the OS sandbox (no network, no files outside the bundle)',
  );
  return 'process';
}

/** Redis keys (queues, rate limits) of the local host, apart from `make start`'s. */
const DEFAULT_REDIS_PREFIX = 'platform-dev';

/**
 * `platform dev <dir>`: Postgres and Redis (devstack), the built project host on a free port with
 * its own database, a project for the directory, a deploy on every change, a mail sink, and the
 * local address in front. Runs until SIGINT/SIGTERM, then stops all it started and exits 0.
 */
export async function runDev(options: DevOptions): Promise<void> {
  const { dir, port } = options;
  if (!['api', 'hooks', 'jobs', 'mcp', 'public'].some((folder) => existsSync(join(dir, folder)))) {
    throw new CliError(
      `${dir} has none of api/, hooks/, jobs/, mcp/ or public/: nothing to serve (see platform dev --help)`,
      USAGE_EXIT_CODE,
    );
  }
  const env = readEnvFile(dir);
  const smtp = smtpOf(env);
  const customIdp = customIdpOf(env);
  const root = repoRoot();
  const clientFile = join(root, 'libs', 'platform-client', 'dist', 'index.js');

  const cleanups: (() => Promise<void> | void)[] = [];
  let stopping = false;
  const shutdown = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      say('platform', 'stopping…');
      for (const cleanup of cleanups.reverse()) {
        await Promise.resolve()
          .then(cleanup)
          .catch((error: Error) => warn('platform', `while stopping: ${error.message}`));
      }
      say('platform', 'stopped');
      process.exit(code);
    }
    return new Promise<never>(() => undefined);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const hostPort = await freePort();
    const proxy = await startDevProxy({ port, hostPort, publicDir: join(dir, 'public'), clientFile });
    cleanups.push(() => proxy.close());
    if (!existsSync(clientFile)) {
      warn('platform', `${clientFile} is missing (run pnpm run build): ${CLIENT_PATH} answers 404`);
    }

    const data = dataDir();
    const infra = await prepareInfrastructure(data, { database: options.database });
    cleanups.push(() => infra.stop());
    const secrets = loadOrCreateSecrets(data);
    const adminToken = process.env.PLATFORM_ADMIN_TOKEN || secrets.adminToken;

    let sink: MailSink | null = null;
    if (!smtp) {
      sink = await startMailSink();
      const started = sink;
      cleanups.push(() => started.close());
    }

    const host = await startHost({
      repoRoot: root,
      port: hostPort,
      verbose: options.verbose,
      env: {
        ...process.env,
        DATABASE_URL: infra.databaseUrl,
        REDIS_URL: infra.redisUrl,
        // Queues and rate limits of this run only: two runs never take each other's jobs.
        REDIS_PREFIX: `${process.env.REDIS_PREFIX || DEFAULT_REDIS_PREFIX}-${port}`,
        TENANT_ADMIN_DATABASE_URL: process.env.TENANT_ADMIN_DATABASE_URL || infra.adminUrl,
        PLATFORM_ADMIN_TOKEN: adminToken,
        AUTH_SECRET: process.env.AUTH_SECRET || secrets.authSecret,
        HOST: '127.0.0.1',
        PORT: String(hostPort),
        // The local address is the platform's public one: the identity-provider callback and the
        // links in mails (http://<slug>.localhost:<port>) come back through the proxy.
        PUBLIC_URL: `http://localhost:${port}`,
        PROJECT_HOST_DOMAIN: 'localhost',
        TRUSTED_PROXY_HOPS: '1',
        PLATFORM_DEV_MODE: 'true',
        PROJECT_CODE_SANDBOX: devSandboxMode(),
        ...(customIdp?.issuerUrl ? { IDP_ISSUER_URL: customIdp.issuerUrl } : {}),
        LOG_FORMAT: 'json',
        LOG_LEVEL: options.verbose ? 'debug' : 'info',
        NODE_ENV: 'development',
        OTEL_SERVICE_NAME: 'platform-dev-host',
      },
    });
    cleanups.push(() => host.stop());
    void host.exited.then((how) => {
      if (stopping) return;
      warn('platform', `the project host exited unexpectedly (${how}); stopping`);
      void shutdown(1);
    });

    const client = new ControlPlaneClient(host.url, adminToken);
    const { project, created } = await linkProject(client, dir, options.database);
    proxy.setProjectHost(`${project.id}.localhost:${port}`);
    await applySettings(client, project, dir, sink);

    const deployer = new ProjectDeployer(client, project.id, dir);
    await deployer.request();
    const watcher = watchProject(
      dir,
      (paths) => {
        say('platform', `changed: ${paths.join(', ')}; redeploying`);
        void (async () => {
          if (paths.includes('.env')) {
            await applySettings(client, project, dir, sink).catch(reportSettings);
            const issuer = customIdpOf(readEnvFile(dir))?.issuerUrl;
            if (issuer !== customIdp?.issuerUrl) {
              warn('platform', 'IDP_ISSUER_URL changed: restart platform dev to use the new provider');
            }
          }
          await deployer.request();
        })().catch((error: Error) => warn('platform', `reload failed: ${error.message}`));
      },
      (error) => warn('platform', `watching ${dir} failed: ${error.message}; restart to reload again`),
    );
    cleanups.push(() => watcher.close());

    say(
      'platform',
      [
        '',
        `  ${project.name} is served at http://localhost:${port}`,
        `  project       ${project.id} (slug ${project.slug}${created ? ', new' : ''}; remembered in .platform/project.json)`,
        `  auth          http://localhost:${port}/api/user/*   project APIs http://localhost:${port}/api/*`,
        `  mcp           http://localhost:${port}/mcp (the tools of mcp/; clients sign in on its consent page)`,
        `  client        http://localhost:${port}${CLIENT_PATH} (@suite/platform-client)`,
        `  mail          ${sink ? `local sink on 127.0.0.1:${sink.port}: mails are printed here` : `SMTP ${smtp!.host}:${smtp!.port} (from .env)`}`,
        `  idp sign-in   ${customIdp ? 'Custom mode (IDP_CLIENT_ID / IDP_CLIENT_SECRET of .env)' : 'Platform mode (the platform identity provider keys of this shell)'}`,
        `  local host    ${host.url} (control plane; database ${options.database})`,
        '  watching api/, hooks/, jobs/, mcp/ and .env; Ctrl-C stops everything',
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (!stopping) {
      warn('platform', error instanceof Error ? error.message : String(error));
      const code = error instanceof CliError ? error.exitCode : 1;
      await shutdown(code);
    }
  }
}

/** Identity-provider mode and SMTP from `.env` (or the local sink), read again on every .env change. */
async function applySettings(
  client: ControlPlaneClient,
  project: Project,
  dir: string,
  sink: MailSink | null,
): Promise<void> {
  const env = readEnvFile(dir);
  const idp = customIdpOf(env);
  const current = (await client.findProject(project.id))?.auth ?? project.auth;
  await client.updateAuth(project.id, {
    enabled: current.enabled,
    emailPassword: current.emailPassword,
    allowSignups: current.allowSignups,
    idpMode: idp ? 'custom' : current.idpMode === 'off' ? 'off' : 'platform',
    idpClientId: idp?.clientId ?? null,
    idpClientSecret: idp?.clientSecret ?? null,
  });
  const smtp: SmtpSettings | null =
    smtpOf(env) ??
    (sink && {
      host: '127.0.0.1',
      port: sink.port,
      secure: false,
      from: `${project.name} <no-reply@localhost>`,
    });
  if (smtp) await client.updateSmtp(project.id, smtp);
}

const reportSettings = (error: Error): void =>
  warn('platform', `could not apply .env settings: ${error.message}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
