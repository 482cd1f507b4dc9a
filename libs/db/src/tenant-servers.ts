import { databaseUrl } from './connection-url.js';

/** The server name of projects created before placement existed (and of a default install). */
export const DEFAULT_TENANT_SERVER = 'default';
/** Capacity of a listed server that names none. */
export const DEFAULT_TENANT_SERVER_CAPACITY = 1_000;

export interface TenantServer {
  /** What Project.tenantServer records: a name, so no password ever sits in a project's row. */
  name: string;
  /** A database of the server (usually `postgres`) as a role that may CREATE DATABASE and roles. */
  adminUrl: string;
  /** Projects the server is meant to hold; placement fills servers in proportion. 0: none new. */
  capacity: number;
}

/** Where a project's tenant database lives: the two columns of its Project row. */
export interface TenantLocation {
  tenantServer: string;
  tenantDatabase: string;
}

/** A project's row names a server the setting no longer lists: never guess another one. */
export class UnknownTenantServerError extends Error {
  constructor(readonly server: string) {
    super(
      `tenant database server "${server}" is not in TENANT_DATABASE_SERVERS; ` +
        'put it back (same name) or move its projects before removing it',
    );
    this.name = 'UnknownTenantServerError';
  }
}

const ENTRY = /^([a-z0-9][a-z0-9_-]{0,62})(?::(\d{1,9}))?=(postgres(?:ql)?:\/\/\S+)$/i;

/**
 * Parses TENANT_DATABASE_SERVERS: entries `<name>[:<capacity>]=<admin URL>` separated by
 * whitespace or commas (a comma inside a URL is written %2C). Throws with the reason when an
 * entry is malformed or a name repeats. Never echoes a URL (they hold passwords).
 */
export function parseTenantServerList(setting: string): TenantServer[] {
  const servers: TenantServer[] = [];
  const entries = setting.split(/[\s,]+/).filter(Boolean);
  entries.forEach((entry, index) => {
    const match = ENTRY.exec(entry);
    if (!match || !URL.canParse(match[3]!)) {
      throw new Error(
        `entry ${index + 1} must look like name:capacity=postgresql://user:password@host:5432/postgres ` +
          '(name: letters, digits, _ or -; capacity optional)',
      );
    }
    const name = match[1]!.toLowerCase();
    if (servers.some((server) => server.name === name)) {
      throw new Error(`server "${name}" is listed twice`);
    }
    const capacity = match[2] === undefined ? DEFAULT_TENANT_SERVER_CAPACITY : Number(match[2]);
    servers.push({ name, adminUrl: match[3]!, capacity });
  });
  if (servers.length === 0) throw new Error('lists no server');
  if (servers.every((server) => server.capacity === 0)) {
    throw new Error('gives every server capacity 0: new projects would have nowhere to go');
  }
  return servers;
}

export interface TenantServerSettings {
  TENANT_DATABASE_SERVERS?: string | undefined;
  TENANT_ADMIN_DATABASE_URL?: string | undefined;
  DATABASE_URL: string;
}

/**
 * The tenant database servers of a deployment. Without TENANT_DATABASE_SERVERS there is one,
 * `default`: TENANT_ADMIN_DATABASE_URL, else the main database's server (the behaviour before
 * placement). A list that does not name `default` keeps it at that same URL with capacity 0: the
 * projects already there stay reachable, new ones go to the listed servers.
 */
export class TenantServers {
  readonly list: readonly TenantServer[];
  private readonly byName: ReadonlyMap<string, TenantServer>;

  constructor(servers: readonly TenantServer[]) {
    this.list = servers;
    this.byName = new Map(servers.map((server) => [server.name, server]));
  }

  static fromSettings(settings: TenantServerSettings): TenantServers {
    const fallback = settings.TENANT_ADMIN_DATABASE_URL || databaseUrl(settings.DATABASE_URL, 'postgres');
    const setting = settings.TENANT_DATABASE_SERVERS?.trim();
    if (!setting) {
      return new TenantServers([
        { name: DEFAULT_TENANT_SERVER, adminUrl: fallback, capacity: DEFAULT_TENANT_SERVER_CAPACITY },
      ]);
    }
    const listed = parseTenantServerList(setting);
    if (listed.some((server) => server.name === DEFAULT_TENANT_SERVER)) return new TenantServers(listed);
    return new TenantServers([...listed, { name: DEFAULT_TENANT_SERVER, adminUrl: fallback, capacity: 0 }]);
  }

  /** The server of that name; UnknownTenantServerError when the setting does not list it. */
  server(name: string): TenantServer {
    const server = this.byName.get(name);
    if (!server) throw new UnknownTenantServerError(name);
    return server;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The URL of the project's tenant database (the admin role of its server). */
  databaseUrl(location: TenantLocation): string {
    return databaseUrl(this.server(location.tenantServer).adminUrl, location.tenantDatabase);
  }

  /**
   * Where a new project goes: the server with the most room, i.e. the fewest projects relative
   * to its capacity (ties: the first listed). Servers of capacity 0 take none. A server past its
   * capacity still takes projects when every server is (`full` says so).
   */
  place(projectsPerServer: ReadonlyMap<string, number>): { server: TenantServer; full: boolean } {
    let best: { server: TenantServer; load: number } | undefined;
    for (const server of this.list) {
      if (server.capacity === 0) continue;
      const load = (projectsPerServer.get(server.name) ?? 0) / server.capacity;
      if (!best || load < best.load) best = { server, load };
    }
    if (!best) throw new Error('no tenant database server has a capacity above 0');
    return { server: best.server, full: best.load >= 1 };
  }
}
