import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTenantClient, provisionTenantDatabase, type TenantClient } from '@suite/db';
import { hkdfSync } from 'node:crypto';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { EffectError, isRecord } from './effect-error.js';

/** Rows one statement may return: more is refused (add a LIMIT) rather than shipped to the sandbox. */
export const MAX_ROWS = 1_000;
const MAX_SQL_LENGTH = 100_000;
const MAX_PARAMS = 1_000;
/** Connections of one project's pool on this host (the role allows 20 on all hosts together). */
const POOL_SIZE = 3;
/** Statements that return rows; anything else answers with its affected-row count. */
const RETURNS_ROWS = /^\s*(select|with|values|table|show|explain)\b|\breturning\b/i;

export interface QueryResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/**
 * ctx.db: SQL of project code on the project's tenant database, as the project's own role (owner
 * of the schema `app`, no rights on `platform_auth`, a statement timeout). Parameters only: one
 * statement per call, values as $1, $2... The role's password is derived from the host's secret,
 * so every replica computes the same one and none is stored.
 */
@Injectable()
export class ProjectDatabase implements OnApplicationShutdown {
  private readonly logger = new Logger('project-db');
  private readonly clients = new Map<string, Promise<TenantClient>>();
  private readonly secret: string;

  constructor(
    private readonly resources: PlatformResources,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.secret = config.AUTH_SECRET ?? config.PLATFORM_ADMIN_TOKEN;
  }

  async query(projectId: string, input: unknown): Promise<QueryResult> {
    const { sql, params } = parse(input);
    const client = await this.client(projectId);
    try {
      if (RETURNS_ROWS.test(sql)) {
        const rows = await client.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
        if (rows.length > MAX_ROWS) {
          throw new EffectError(`ctx.db.query: more than ${MAX_ROWS} rows; add a LIMIT`);
        }
        return { rows: rows.map(plainRow), rowCount: rows.length };
      }
      const rowCount = await client.$executeRawUnsafe(sql, ...params);
      return { rows: [], rowCount };
    } catch (error) {
      if (error instanceof EffectError) throw error;
      throw new EffectError(`ctx.db.query: ${databaseMessage(error)}`);
    }
  }

  /** Forgets a project's pool (its database is being dropped). */
  async forget(projectId: string): Promise<void> {
    const client = this.clients.get(projectId);
    this.clients.delete(projectId);
    await (await client?.catch(() => undefined))?.$disconnect();
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(clients.map(async (client) => (await client).$disconnect()));
  }

  /** The project's pool, created on first use (role, schema and grants ensured for older tenants). */
  private client(projectId: string): Promise<TenantClient> {
    let client = this.clients.get(projectId);
    if (!client) {
      client = this.open(projectId);
      this.clients.set(projectId, client);
      client.catch(() => this.clients.delete(projectId));
    }
    return client;
  }

  private async open(projectId: string): Promise<TenantClient> {
    try {
      const tenant = await provisionTenantDatabase({
        adminUrl: this.resources.tenantAdminUrl,
        projectId,
        appRolePassword: this.passwordOf(projectId),
      });
      return createTenantClient(tenant.appUrl!, { maxConnections: POOL_SIZE });
    } catch (error) {
      this.logger.error({ projectId, err: (error as Error).message }, 'project database unavailable');
      throw new EffectError('ctx.db.query: the project database is not available right now');
    }
  }

  private passwordOf(projectId: string): string {
    return Buffer.from(
      hkdfSync('sha256', this.secret, 'suite/project-host/project-db', `app-role:${projectId}`, 32),
    ).toString('base64url');
  }
}

function parse(input: unknown): { sql: string; params: unknown[] } {
  const sql = isRecord(input) ? input.sql : undefined;
  const params = isRecord(input) ? (input.params ?? []) : undefined;
  if (typeof sql !== 'string' || sql.trim() === '') {
    throw new EffectError('ctx.db.query: sql must be a non-empty string');
  }
  if (sql.length > MAX_SQL_LENGTH) {
    throw new EffectError(`ctx.db.query: sql is limited to ${MAX_SQL_LENGTH} characters`);
  }
  if (hasSeveralStatements(sql)) {
    throw new EffectError('ctx.db.query: one statement per call (pass values as $1, $2... parameters)');
  }
  if (!Array.isArray(params)) throw new EffectError('ctx.db.query: params must be an array');
  if (params.length > MAX_PARAMS) {
    throw new EffectError(`ctx.db.query: at most ${MAX_PARAMS} parameters`);
  }
  // Objects and arrays travel as JSON text (cast with $1::jsonb); the rest as they are.
  return { sql, params: params.map((p) => (p !== null && typeof p === 'object' ? JSON.stringify(p) : p)) };
}

/**
 * True when a `;` separates statements: outside quotes ('...', "...", $tag$...$tag$) and comments.
 * (Postgres would run them all when no parameters are given; ctx.db runs one.)
 */
export function hasSeveralStatements(sql: string): boolean {
  const skip =
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|(\$(?:[A-Za-z_][A-Za-z_0-9]*)?\$)[\s\S]*?\1/y;
  for (let i = 0; i < sql.length;) {
    skip.lastIndex = i;
    if ('\'"$-/'.includes(sql[i]!) && skip.test(sql)) {
      i = skip.lastIndex;
      continue;
    }
    if (sql[i] === ';' && sql.slice(i + 1).trim() !== '') return true;
    i++;
  }
  return false;
}

/** Values as JSON carries them: bigint as a number when exact (else text), decimals as text, dates ISO. */
function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === 'object') {
    const name = value.constructor?.name;
    if (name === 'Decimal') return String(value);
    return value;
  }
  return value;
}

function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plainValue(value)]));
}

/** Postgres's own words (e.g. `permission denied for schema platform_auth`), without Prisma's framing. */
function databaseMessage(error: unknown): string {
  const meta = (error as { meta?: Record<string, unknown> }).meta;
  const fromMeta =
    (isRecord(meta?.driverAdapterError) &&
      isRecord(meta.driverAdapterError.cause) &&
      meta.driverAdapterError.cause.originalMessage) ||
    meta?.message;
  if (typeof fromMeta === 'string' && fromMeta) return fromMeta;
  const message = error instanceof Error ? error.message : String(error);
  const raw = /Message: `([^`]*)`/.exec(message)?.[1];
  return (raw ?? message.split('\n').filter(Boolean).pop() ?? 'the query failed').slice(0, 500);
}
