import { randomBytes, randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import {
  databaseUrl,
  dropTenantDatabase,
  provisionTenantDatabase,
  tenantDatabaseName,
} from '../../libs/db/src/index.js';
import { adminUrl, withClient } from '../../libs/db/src/testing/throwaway-database.js';

/**
 * A socket silent this long is a hang: only a guard, below Jest's 300 s test guard (a loaded CI
 * machine can take well over 15 s to move a project or answer an attack request).
 */
const HANG_GUARD_MS = 240_000;

// A client of a project host's /api/user routes. Project hosts are chosen by the Host header,
// which fetch() cannot set, so this speaks node:http directly.

/** A JSON body as the tests read it: an error body has code and message. */
export type ApiBody = Record<string, unknown> & { code?: string; message?: string };

export interface HttpResult<T = ApiBody> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as JSON unless `raw` is given. */
  json?: unknown;
  /** Sent as is, with `contentType`. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  bearer?: string;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export class UserClient {
  constructor(
    readonly port: number,
    /** The Host header, e.g. `shop.localhost:8082`. */
    readonly host: string,
  ) {}

  request<T = ApiBody>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const payload =
      options.raw !== undefined
        ? options.raw
        : options.json !== undefined
          ? JSON.stringify(options.json)
          : undefined;
    const headers: Record<string, string> = { host: this.host, ...options.headers };
    if (payload !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, method, path, headers, setHost: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
          });
        },
      );
      req.on('error', reject);
      req.setTimeout(HANG_GUARD_MS, () => req.destroy(new Error(`${method} ${path} timed out`)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get<T = ApiBody>(path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = ApiBody>(path: string, json?: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, { ...options, json });
  }

  put<T = ApiBody>(path: string, json?: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('PUT', path, { ...options, json });
  }

  register(email: string, password: string, name?: string): Promise<HttpResult<TokenPair & ApiBody>> {
    return this.post<TokenPair & ApiBody>('/api/user/auth/register', {
      email,
      password,
      ...(name === undefined ? {} : { name }),
    });
  }

  login(email: string, password: string): Promise<HttpResult<TokenPair & ApiBody>> {
    return this.post<TokenPair & ApiBody>('/api/user/auth/login', { email, password });
  }

  refresh(refreshToken: string, revoke?: boolean): Promise<HttpResult<TokenPair & ApiBody>> {
    return this.post<TokenPair & ApiBody>('/api/user/auth/refresh', {
      refreshToken,
      ...(revoke === undefined ? {} : { revoke }),
    });
  }

  me(accessToken: string): Promise<HttpResult> {
    return this.get('/api/user/me', { bearer: accessToken });
  }
}

// ---------------------------------------------------------------------------------------------
// Projects for tests, written straight into the main database (the control-plane API may not
// exist yet), each with its own provisioned tenant database.
// ---------------------------------------------------------------------------------------------

export interface TestProjectOptions {
  databaseUrl: string;
  /** Port the project host listens on (Host headers carry it). */
  port: number;
  smtpPort: number;
  slug?: string;
  name?: string;
  auth?: Partial<{ enabled: boolean; emailPassword: boolean; allowSignups: boolean }>;
  /** Verified custom domains. */
  domains?: string[];
}

export interface TestProject {
  id: string;
  slug: string;
  name: string;
  /** Host header of the slug host. */
  host: string;
  client: UserClient;
  /** Client on the id host (same project). */
  idClient: UserClient;
  /** Public address the host gives the project (PUBLIC_URL must be http://localhost:<port>). */
  publicUrl: string;
}

export async function createTestProject(options: TestProjectOptions): Promise<TestProject> {
  const id = randomUUID();
  const slug = options.slug ?? `ua-${randomBytes(4).toString('hex')}`;
  const name = options.name ?? `Project ${slug}`;
  const tenant = await provisionTenantDatabase({ adminUrl: adminUrl(), projectId: id });
  const auth = { enabled: true, emailPassword: true, allowSignups: true, ...options.auth };
  await withClient(options.databaseUrl, async (db) => {
    await db.query('INSERT INTO projects (id, slug, name, tenant_database) VALUES ($1, $2, $3, $4)', [
      id,
      slug,
      name,
      tenant.database,
    ]);
    await db.query(
      'INSERT INTO auth_settings (project_id, enabled, email_password, allow_signups) VALUES ($1, $2, $3, $4)',
      [id, auth.enabled, auth.emailPassword, auth.allowSignups],
    );
    await db.query(
      `INSERT INTO smtp_settings (project_id, host, port, secure, "from") VALUES ($1, '127.0.0.1', $2, false, $3)`,
      [id, options.smtpPort, `${name} <no-reply@${slug}.example.com>`],
    );
    for (const domain of options.domains ?? []) {
      await db.query(
        `INSERT INTO custom_domains (id, project_id, domain, verified, verification_token, verified_at)
         VALUES ($1, $2, $3, true, 'test', now())`,
        [randomUUID(), id, domain],
      );
    }
  });
  const host = `${slug}.localhost:${options.port}`;
  return {
    id,
    slug,
    name,
    host,
    client: new UserClient(options.port, host),
    idClient: new UserClient(options.port, `${id}.localhost:${options.port}`),
    publicUrl: `http://${slug}.localhost:${options.port}`,
  };
}

export async function dropTestProject(databaseUrl: string, project: Pick<TestProject, 'id'>): Promise<void> {
  await withClient(databaseUrl, (db) => db.query('DELETE FROM projects WHERE id = $1', [project.id]));
  await dropTenantDatabase({ adminUrl: adminUrl(), projectId: project.id });
}

/** One query on a project's tenant database (schema platform_auth). */
export async function tenantQuery<R extends Record<string, unknown> = Record<string, unknown>>(
  projectId: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const url = databaseUrl(adminUrl(), tenantDatabaseName(projectId));
  return withClient(url, async (db) => {
    await db.query('SET search_path TO platform_auth');
    return (await db.query(sql, params)).rows as R[];
  });
}

/** A password the policy accepts, different on every call. */
export function strongPassword(): string {
  return `Vt!${randomBytes(9).toString('base64url')}-q9`;
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}
