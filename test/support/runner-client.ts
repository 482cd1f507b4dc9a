import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { withClient } from '../../libs/db/src/testing/throwaway-database.js';

/** What a client sees of one HTTP exchange: status, headers and the body as text and bytes. */
export interface RunnerResponse {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export interface RequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer <key>` unless `headers` say otherwise; null sends no key. */
  key?: string | null;
  /** Serialised and sent with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body; give the content type in `headers` (fetch would add text/plain for a string). */
  body?: string | Uint8Array;
  /** Extra headers (names are case-insensitive); an empty value removes a header. */
  headers?: Record<string, string>;
}

/** A thin fetch wrapper for the runner's HTTP surface, with a default API key. */
export class RunnerClient {
  constructor(
    readonly baseUrl: string,
    readonly defaultKey: string | null = null,
  ) {}

  as(key: string | null): RunnerClient {
    return new RunnerClient(this.baseUrl, key);
  }

  async request(path: string, options: RequestOptions = {}): Promise<RunnerResponse> {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? this.defaultKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | Uint8Array | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, bytes, json };
  }

  get(path: string, options: Omit<RequestOptions, 'method'> = {}): Promise<RunnerResponse> {
    return this.request(path, { ...options, method: 'GET' });
  }

  post(path: string, json: unknown, options: Omit<RequestOptions, 'method' | 'json'> = {}) {
    return this.request(path, { ...options, method: 'POST', json });
  }

  delete(path: string, options: Omit<RequestOptions, 'method'> = {}): Promise<RunnerResponse> {
    return this.request(path, { ...options, method: 'DELETE' });
  }
}

/**
 * One SQL statement on DATABASE_URL. `pg` is a dependency of @suite/db only (it does not resolve
 * from test/), so this goes through the db package's own test support.
 */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  return withClient(url, async (client) => (await client.query(text, params)).rows as T[]);
}

export interface StoredApiKey {
  id: string;
  owner: string;
  key: string;
}

/**
 * Stores an API key the way `pnpm api-keys create` does (SHA-256 hex of the key in `hash`), so
 * the test holds the plain key. `revoked` stores it already revoked.
 */
export async function insertApiKey(
  owner: string,
  options: { revoked?: boolean } = {},
): Promise<StoredApiKey> {
  const key = `sk_e2e_${randomBytes(18).toString('base64url')}`;
  const id = randomUUID();
  const hash = createHash('sha256').update(key).digest('hex');
  await sql(
    `INSERT INTO api_keys (id, owner, name, prefix, hash, revoked_at)
     VALUES ($1, $2, 'e2e', $3, $4, CASE WHEN $5::boolean THEN now() ELSE NULL END)`,
    [id, owner, key.slice(0, 10), hash, options.revoked ?? false],
  );
  return { id, owner, key };
}
