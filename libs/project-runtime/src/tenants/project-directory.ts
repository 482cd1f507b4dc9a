import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  isUuid,
  type MainClient,
  type TenantClient,
  type TenantClientCache,
  type TenantLocation,
  type TenantServer,
  type TenantServers,
} from '@suite/db';
import { readProjectRecord, type ProjectKey, type ProjectRecord } from './project-record.query.js';
import { subscribeTenantMoves } from './tenant-moves.js';

/** How long a project's record (or the absence of one) is served from memory. */
const CACHE_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

export interface ProjectDirectoryOptions {
  /** The main database (its `projects`, settings and domains are read, never written, here). */
  db: MainClient;
  /** TENANT_DATABASE_SERVERS: a project's row names the server its database is on. */
  tenantServers: TenantServers;
  /** The process's tenant clients (one per database URL). */
  tenantClients: TenantClientCache;
  /** Redis, for the one subscription to tenant moves of this process. */
  redisUrl: string;
  /** Name of that subscriber connection (as Redis's CLIENT LIST shows it). */
  connectionName: string;
}

/**
 * The one way from a project's name to its tenant database, for the host's request path and for
 * project code's ctx.db alike: the project's record (by id, slug or verified custom domain, in one
 * statement), the server its database lives on, the tenant client, and one cache of them, kept
 * short (a few seconds) and dropped at once by the control plane (`invalidate`) and by tenant moves
 * announced by any process (one subscription, whose listeners `onMove` adds).
 */
export class ProjectDirectory implements OnModuleInit, OnApplicationShutdown {
  private readonly cache = new Map<string, { value: ProjectRecord | null; until: number }>();
  /** Reads in flight: concurrent first requests to one project share one statement. */
  private readonly reading = new Map<string, Promise<ProjectRecord | null>>();
  private readonly moveListeners = new Set<(projectId: string) => void>();
  private moves?: { close(): void };
  /** Bumped by every invalidation: a read that started before one is not cached. */
  private generation = 0;

  constructor(private readonly options: ProjectDirectoryOptions) {}

  onModuleInit(): void {
    this.moves = subscribeTenantMoves(this.options.redisUrl, this.options.connectionName, (projectId) =>
      this.moved(projectId),
    );
  }

  onApplicationShutdown(): void {
    this.moves?.close();
  }

  /** The project named so (null: none), from the cache when it is fresh. */
  find(key: ProjectKey): Promise<ProjectRecord | null> {
    if ('id' in key && !isUuid(key.id)) return Promise.resolve(null);
    const cacheKey = keyOf(key);
    const cached = this.cache.get(cacheKey);
    if (cached && cached.until > Date.now()) return Promise.resolve(cached.value);
    let read = this.reading.get(cacheKey);
    if (!read) {
      const generation = this.generation;
      read = readProjectRecord(this.options.db, key)
        .then((record) => {
          if (generation === this.generation) this.remember(cacheKey, record);
          return record;
        })
        .finally(() => this.reading.delete(cacheKey));
      this.reading.set(cacheKey, read);
    }
    return read;
  }

  byId(projectId: string): Promise<ProjectRecord | null> {
    return this.find({ id: projectId });
  }

  /** The server that holds the project's tenant database (UnknownTenantServerError if unlisted). */
  serverOf(location: Pick<TenantLocation, 'tenantServer'>): TenantServer {
    return this.options.tenantServers.server(location.tenantServer);
  }

  /** The URL of the project's tenant database (admin role of its server). */
  databaseUrlOf(location: TenantLocation): string {
    return this.options.tenantServers.databaseUrl(location);
  }

  /**
   * The project's tenant database (schema platform_auth), on the server its row names; a server
   * the setting no longer lists is UnknownTenantServerError, never another server. The client opens
   * its connections when first used, within the process's connection budget.
   */
  tenantOf(location: TenantLocation): TenantClient {
    return this.options.tenantClients.get(this.databaseUrlOf(location));
  }

  /** The control plane changed projects: every record is read again. */
  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  /** Reads the project's record again next time (its database may have moved). */
  forget(projectId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.cache) {
      if (entry.value?.id === projectId) this.cache.delete(key);
    }
  }

  /** Called with the project id of every tenant move, in any process, once this one forgot it. */
  onMove(listener: (projectId: string) => void): () => void {
    this.moveListeners.add(listener);
    return () => this.moveListeners.delete(listener);
  }

  private moved(projectId: string): void {
    this.forget(projectId);
    for (const listener of this.moveListeners) listener(projectId);
  }

  /** A record found is cached under its id and its slug too, so each way of naming it finds it. */
  private remember(cacheKey: string, record: ProjectRecord | null): void {
    const until = Date.now() + CACHE_TTL_MS;
    const keys = record
      ? new Set([cacheKey, keyOf({ id: record.id }), keyOf({ slug: record.slug })])
      : [cacheKey];
    for (const key of keys) {
      this.cache.delete(key);
      this.cache.set(key, { value: record, until });
    }
    while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
  }
}

function keyOf(key: ProjectKey): string {
  return 'id' in key ? `id:${key.id}` : 'slug' in key ? `slug:${key.slug}` : `domain:${key.domain}`;
}
