import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { createQueue, createRedisConnection, createWorker, QueueName } from '../../libs/queue/src/index.js';
import { AuthSecrets } from '../../libs/project-runtime/src/index.js';
import { freePort, repoRoot, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { startSmtpCapture, type Captured, type SmtpCapture } from '../support/smtp-capture.js';

// Shared by the user-auth end-to-end specs: a real project host process, a real SMTP server, the
// auth-hooks queue read back from Redis, and the project's signing key for forging tokens.

type Redis = ReturnType<typeof createRedisConnection>;

export const infra = {
  DATABASE_URL: process.env.DATABASE_URL!,
  REDIS_URL: process.env.REDIS_URL!,
  REDIS_PREFIX: process.env.REDIS_PREFIX!,
};
export const AUTH_SECRET = 'user-auth-e2e-secret-0123456789abcdefghijklmnopqrstuvwxyz';

/** Limits high enough that the functional specs never meet them (the limits spec sets its own). */
export const GENEROUS_LIMITS = {
  AUTH_RATE_LIMIT_IP_PER_MINUTE: '100000',
  AUTH_RATE_LIMIT_REFRESH_PER_MINUTE: '100000',
  AUTH_RATE_LIMIT_ACCOUNT_PER_15_MINUTES: '100000',
  AUTH_MAIL_COOLDOWN_SECONDS: '0',
  AUTH_MAIL_PER_ADDRESS_PER_HOUR: '100000',
  AUTH_MAIL_PER_PROJECT_PER_HOUR: '100000',
  MAIL_BULK_PER_PROJECT_PER_HOUR: '100000',
  MAIL_BULK_PER_ADDRESS_PER_HOUR: '100000',
};

export interface Host {
  /** The host and its project worker as one: output() holds both logs, stop() ends both. */
  app: AppProcess;
  port: number;
  /** The project worker alone (mail delivery, auth hooks, project jobs). */
  worker: AppProcess;
  /** The worker's health and metrics listener. */
  workerHealthPort: number;
}

/**
 * A project host and the project worker that consumes its queues (mail, auth hooks, project jobs),
 * both with `env`, as `make start` runs them.
 */
export async function startProjectHost(env: Record<string, string>): Promise<Host> {
  const port = await freePort();
  // One environment for both: the worker ignores what is the host's alone (PORT, PUBLIC_URL...).
  const common = {
    ...infra,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    PLATFORM_ADMIN_TOKEN: 'user-auth-admin-token-0123456789',
    AUTH_SECRET,
    BCRYPT_COST: '10',
    ...env,
  };
  const host = startApp('project-host', common);
  const workerHealthPort = await freePort();
  const worker = await startProjectWorker(common, workerHealthPort).catch(async (error: unknown) => {
    await host.stop();
    throw error;
  });
  await waitForHttp(`http://127.0.0.1:${port}/health`, host).catch(async (error: unknown) => {
    await worker.stop();
    throw error;
  });
  return { app: withWorker(host, worker), port, worker, workerHealthPort };
}

/** A project worker with `env` (the host's), ready once its health listener answers. */
export async function startProjectWorker(env: NodeJS.ProcessEnv, healthPort?: number): Promise<AppProcess> {
  const port = healthPort ?? (await freePort());
  const worker = startApp('project-worker', { ...env, HEALTH_PORT: String(port) });
  await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
  return worker;
}

/** The host as specs use it, with its worker alongside: both logs in output(), both ended by stop(). */
export function withWorker(host: AppProcess, worker: AppProcess): AppProcess {
  return {
    child: host.child,
    exited: host.exited,
    output: () => `${host.output()}${worker.output()}`,
    stop: async (signal) => {
      const [code] = await Promise.all([host.stop(signal), worker.stop(signal)]);
      return code;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Events: the auth-hooks queue, in publication order.
// ---------------------------------------------------------------------------------------------

export interface PublishedEvent {
  kind: string;
  user: { id: string; email: string; name: string | null; picture: string | null } | null;
  provider?: string;
  reason?: string;
  claimed?: boolean;
  at: string;
}

export class HookEvents {
  private readonly connection: Redis = createRedisConnection(infra.REDIS_URL);
  private readonly queue = createQueue(QueueName.AuthHooks, this.connection);

  /** Every event of the project, oldest first (batches in order, events in batch order). */
  async of(projectId: string): Promise<PublishedEvent[]> {
    const jobs = await this.queue.getJobs(
      ['waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'],
      0,
      -1,
      true,
    );
    return jobs
      .filter((job) => job?.data.projectId === projectId)
      .sort((a, b) => a.timestamp - b.timestamp || Number(a.id) - Number(b.id))
      .flatMap((job) => job.data.events as PublishedEvent[]);
  }

  /** Events of one address (as the snapshot shows it at the time). */
  async forEmail(projectId: string, email: string): Promise<PublishedEvent[]> {
    return (await this.of(projectId)).filter((event) => event.user?.email === email);
  }

  async waitFor(
    projectId: string,
    predicate: (event: PublishedEvent) => boolean,
    timeoutMs = 10_000,
  ): Promise<PublishedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.of(projectId)).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Mail: a real SMTP server. Until the host delivers its own mail queue, a stand-in worker here
// delivers it over SMTP exactly as queued (it starts only when no worker serves the queue).
// ---------------------------------------------------------------------------------------------

export interface MailRig {
  smtp: SmtpCapture;
  /** The first mail to `to` whose subject matches, waiting for it. */
  waitFor(to: string, subject: RegExp, timeoutMs?: number): Promise<Captured>;
  /** Mails received so far for an address. */
  to(address: string): Captured[];
  close(): Promise<void>;
}

export async function startMailRig(): Promise<MailRig> {
  const smtp = await startSmtpCapture();
  let standIn: { worker: { close(): Promise<void> }; connection: Redis } | undefined;
  const ensureDelivery = async (): Promise<void> => {
    const connection = createRedisConnection(infra.REDIS_URL);
    const queue = createQueue(QueueName.Mail, connection);
    const deadline = Date.now() + 2_000;
    let workers = 0;
    while (Date.now() < deadline && (workers = await queue.getWorkersCount()) === 0) await sleep(200);
    await queue.close();
    if (workers > 0) {
      connection.disconnect();
      return;
    }
    const nodemailer = createRequire(join(repoRoot, 'apps', 'project-worker', 'package.json'))(
      'nodemailer',
    ) as {
      createTransport(options: object): { sendMail(mail: object): Promise<unknown>; close(): void };
    };
    const worker = createWorker(
      QueueName.Mail,
      {
        send: async (job) => {
          const settings = await withClient(infra.DATABASE_URL, (db) =>
            db.query<{ host: string; port: number; from: string }>(
              'SELECT host, port, "from" FROM smtp_settings WHERE project_id = $1',
              [job.data.projectId],
            ),
          );
          const smtpSettings = settings.rows[0];
          if (!smtpSettings) return;
          const transport = nodemailer.createTransport({
            host: smtpSettings.host,
            port: smtpSettings.port,
            secure: false,
            ignoreTLS: true,
          });
          let { to, subject, text, html } = job.data.content;
          if (job.data.sealed) {
            // The host seals mail bodies with AUTH_SECRET (links and codes never sit in Redis in clear).
            const opened = new AuthSecrets(AUTH_SECRET).open(
              'mail-seal',
              job.data.sealed,
              `mail:${job.data.mailLogId}`,
            );
            ({ subject, text, html } = JSON.parse(opened!.toString('utf8')) as typeof job.data.content);
            to = job.data.content.to;
          }
          await transport.sendMail({ from: smtpSettings.from, to, subject, text, html });
          transport.close();
        },
      },
      connection,
      // The host's mail jobs name its own backoff (mail-retry): a failed delivery here retries too.
      { concurrency: 4, settings: { backoffStrategy: () => 1_000 } },
    );
    standIn = { worker, connection };
  };
  await ensureDelivery();
  return {
    smtp,
    waitFor: (to, subject, timeoutMs = 60_000) =>
      smtp.waitFor((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject), timeoutMs),
    to: (address) => smtp.messages.filter((m) => m.to.includes(address.toLowerCase())),
    close: async () => {
      if (standIn) {
        await standIn.worker.close();
        standIn.connection.disconnect();
      }
      await smtp.close();
    },
  };
}

/** The 43-character code of a mailed link or code line. */
export function codeFrom(mail: Captured): string {
  const match = /code=([A-Za-z0-9_-]{43})/.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}

/** The first link of a mail. */
export function linkFrom(mail: Captured): string {
  const match = /^(\S+:\/\/\S+)$/m.exec(mail.text);
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  return match[1]!;
}

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [header, payload] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>,
  };
}

/** The project's current signing key, unsealed the way the host does (the test knows AUTH_SECRET). */
export async function projectSigningKey(projectId: string): Promise<{ kid: string; privateKey: KeyObject }> {
  const { rows } = await withClient(infra.DATABASE_URL, (db) =>
    db.query<{ id: string; private_key_sealed: string }>(
      'SELECT id, private_key_sealed FROM signing_keys WHERE project_id = $1 AND retired_at IS NULL ORDER BY generation DESC LIMIT 1',
      [projectId],
    ),
  );
  const row = rows[0];
  if (!row) throw new Error(`project ${projectId} has no signing key yet`);
  const der = new AuthSecrets(AUTH_SECRET).open(
    'signing-key-seal',
    row.private_key_sealed,
    `signing-key:${projectId}:${row.id}`,
  );
  if (!der) throw new Error('the signing key does not open with the test AUTH_SECRET');
  return { kid: row.id, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
}

/**
 * A compact JWS signed with `key`: ES256 for a P-256 key, EdDSA for an Ed25519 one (or unsigned
 * with alg none when key is undefined).
 */
export function forgeJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key?: KeyObject,
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  if (!key) return `${input}.`;
  const signature =
    key.asymmetricKeyType === 'ec'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign(null, Buffer.from(input), key);
  return `${input}.${signature.toString('base64url')}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keys under this run's REDIS_PREFIX matching `pattern` (after the prefix), with their values. */
export async function redisEntries(pattern: string): Promise<Map<string, string>> {
  const redis = createRedisConnection(infra.REDIS_URL);
  try {
    const keys = await redis.keys(`${infra.REDIS_PREFIX}${pattern}`);
    const values = keys.length ? await redis.mget(...keys) : [];
    return new Map(keys.map((key, i) => [key, values[i] ?? '']));
  } finally {
    redis.disconnect();
  }
}

export async function mainQuery<R extends Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return withClient(infra.DATABASE_URL, async (db) => (await db.query(sql, params)).rows as R[]);
}
