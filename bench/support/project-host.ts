import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { BenchContext } from './context.ts';
import { freePort, startApp, waitForHttp, type AppProcess } from './processes.ts';

/**
 * One project-host process for the auth benchmarks, a project made through its control-plane API
 * (admin token), and small clients of both. The host tells the control plane (`localhost:<port>`)
 * from a project (`<slug>.localhost:<port>`) by the Host header, which fetch() cannot set: node:http.
 */

/**
 * The host's auth rate limits (apps/project-host/src/project-host.config.ts), raised for the bench's
 * host only: every request of a benchmark comes from 127.0.0.1 and a few accounts, so production
 * limits (30 logins and 120 refreshes per minute per IP, 10 attempts per 15 minutes per account)
 * would answer 429 within the first second. The limiters still run (Redis round trips included).
 */
export const BENCH_RATE_LIMITS = {
  AUTH_RATE_LIMIT_IP_PER_MINUTE: '100000000',
  AUTH_RATE_LIMIT_REFRESH_PER_MINUTE: '100000000',
  AUTH_RATE_LIMIT_ACCOUNT_PER_15_MINUTES: '100000000',
};

export interface HostResponse {
  status: number;
  text: string;
  json: Record<string, unknown> | undefined;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface BenchProject {
  id: string;
  slug: string;
  /** The Host header of the project's slug host. */
  host: string;
  email: string;
  password: string;
  /** The pair the sign-up answered with. */
  tokens: TokenPair;
}

export interface StartedHost {
  app: AppProcess;
  port: number;
  adminToken: string;
  call(host: string, method: string, path: string, json?: unknown, bearer?: string): Promise<HostResponse>;
  /** A project through the control plane, with one registered user. */
  createProject(name: string): Promise<BenchProject>;
  login(project: BenchProject): Promise<TokenPair>;
  /** Deletes the project (and its tenant database) through the control plane. */
  deleteProject(project: BenchProject): Promise<void>;
}

export async function startProjectHost(
  ctx: BenchContext,
  name: string,
  /** `port`: a host restarted on the port of an earlier one (tokens name the public URL). */
  options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; port?: number } = {},
): Promise<StartedHost> {
  const port = options.port ?? (await freePort());
  const adminToken = `bench-admin-${randomBytes(18).toString('base64url')}`;
  const app = startApp(
    'project-host',
    {
      DATABASE_URL: ctx.infra.databaseUrl,
      REDIS_URL: ctx.infra.redisUrl,
      REDIS_PREFIX: `${ctx.infra.prefix}-${name}`,
      TENANT_ADMIN_DATABASE_URL: ctx.infra.adminUrl,
      PLATFORM_ADMIN_TOKEN: adminToken,
      // NODE_ENV=production (as every app the bench starts) requires a server secret.
      AUTH_SECRET: randomBytes(36).toString('base64url'),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      PROJECT_HOST_DOMAIN: 'localhost',
      ...BENCH_RATE_LIMITS,
      ...options.env,
    },
    { name, logDir: ctx.logDir, nodeArgs: options.nodeArgs },
  );
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
  } catch (error) {
    await app.stop(2_000);
    throw error;
  }
  const controlPlane = `localhost:${port}`;
  const call: StartedHost['call'] = (host, method, path, json, bearer) =>
    hostRequest(port, host, method, path, json, bearer);
  const expect = (res: HostResponse, status: number, what: string): Record<string, unknown> => {
    if (res.status !== status || !res.json) throw new Error(`${what}: HTTP ${res.status} ${res.text}`);
    return res.json;
  };

  return {
    app,
    port,
    adminToken,
    call,
    createProject: async (projectName) => {
      const slug = `${projectName}-${randomBytes(3).toString('hex')}`;
      const created = expect(
        await call(controlPlane, 'POST', '/v1/projects', { slug, name: `Bench ${projectName}` }, adminToken),
        201,
        'POST /v1/projects',
      ) as { id: string; slug: string };
      ctx.infra.tenantProjects.add(created.id);
      const host = `${created.slug}.localhost:${port}`;
      const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
      const password = `Bench-${randomBytes(12).toString('base64url')}-7`;
      const tokens = expect(
        await call(host, 'POST', '/api/user/auth/register', { email, password }),
        201,
        'POST /api/user/auth/register',
      ) as unknown as TokenPair;
      return { id: created.id, slug: created.slug, host, email, password, tokens };
    },
    login: async (project) =>
      expect(
        await call(project.host, 'POST', '/api/user/auth/login', {
          email: project.email,
          password: project.password,
        }),
        200,
        'POST /api/user/auth/login',
      ) as unknown as TokenPair,
    deleteProject: async (project) => {
      const res = await call(controlPlane, 'DELETE', `/v1/projects/${project.id}`, undefined, adminToken);
      if (res.status !== 204) throw new Error(`DELETE /v1/projects/${project.id}: HTTP ${res.status}`);
      ctx.infra.tenantProjects.delete(project.id);
    },
  };
}

function hostRequest(
  port: number,
  host: string,
  method: string,
  path: string,
  json?: unknown,
  bearer?: string,
): Promise<HostResponse> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers: Record<string, string> = { host };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, unknown> | undefined;
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json: parsed });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
