import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  pinnedRequest,
  type PinnedResponse,
} from '@suite/egress-policy';
import { checkClientMetadata } from './client-metadata.js';
import { OAuthError } from './oauth-error.js';

/** What the draft suggests as a document's size limit. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
const MIN_CACHE_MS = 60_000;
const MAX_CACHE_MS = 24 * 3_600_000;
const MAX_URL_LENGTH = 2_000;

/** A client identified by its metadata document: the URL is its id. */
export interface ClientMetadataDocument {
  clientId: string;
  metadata: OAuthClientMetadata & { token_endpoint_auth_method: 'none' };
}

export interface ClientMetadataDocumentsOptions {
  /** Where documents may be fetched from: public addresses only in production (`public-only`). */
  policy: EgressPolicy;
  resolve: HostResolver;
  /** The whole fetch (resolution, connection, body) must finish within this. */
  timeoutMs?: number;
  maxBytes?: number;
  /** Documents kept (least recently used go first). */
  cacheSize?: number;
  now?: () => number;
  /** Where the details of a refusal go (the client is told less: no internal addresses). */
  log?: (message: string) => void;
}

/** A client_id that names a metadata document rather than a registration (`mcp_…`). */
export function isClientMetadataUrl(clientId: unknown): clientId is string {
  return typeof clientId === 'string' && /^https?:\/\//i.test(clientId);
}

/**
 * Why `clientId` cannot be a client ID metadata document URL, or undefined when it can: https
 * (http only when `allowHttp`, the development and test mode), a path, no fragment, no
 * credentials, no dot segments, and written as the URL parser writes it, so one document has
 * exactly one id.
 */
export function clientIdUrlProblem(
  clientId: string,
  { allowHttp }: { allowHttp: boolean },
): string | undefined {
  if (clientId.length > MAX_URL_LENGTH) return `is too long (at most ${MAX_URL_LENGTH} characters)`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'must use https';
  if (url.hash || clientId.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry credentials';
  const path = clientId.slice(url.origin.length).split('?')[0]!;
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return 'must not have dot segments';
  if (url.pathname === '/') return 'must have a path';
  if (url.href !== clientId) return `must be written as ${url.href}`;
  return undefined;
}

interface Cached {
  document: ClientMetadataDocument;
  expiresAt: number;
}

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization spec 2025-11-25): a client whose client_id is an https URL is described by the
 * JSON document at that URL. Fetched under the egress policy (the address checked, then connected
 * to exactly; no redirects followed), at most `maxBytes`, within `timeoutMs`; the document's
 * client_id must be its URL exactly, and it must describe a public client with redirect URIs our
 * rules accept. Kept per URL for its Cache-Control max-age, between 60 s and 24 h, in a small LRU
 * of this process; a refusal is not kept. Every failure is an `invalid_client` OAuthError.
 */
export class ClientMetadataDocuments {
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<ClientMetadataDocument>>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly cacheSize: number;
  private readonly now: () => number;

  constructor(private readonly options: ClientMetadataDocumentsOptions) {
    this.timeoutMs = options.timeoutMs ?? CLIENT_METADATA_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? CLIENT_METADATA_MAX_BYTES;
    this.cacheSize = options.cacheSize ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  async get(clientId: string): Promise<ClientMetadataDocument> {
    const problem = clientIdUrlProblem(clientId, { allowHttp: this.options.policy.mode === 'allow-private' });
    if (problem) throw refusal(`The client_id ${shown(clientId)} ${problem}.`);
    const cached = this.cache.get(clientId);
    if (cached && cached.expiresAt > this.now()) {
      this.cache.delete(clientId);
      this.cache.set(clientId, cached);
      return cached.document;
    }
    const pending = this.inFlight.get(clientId);
    if (pending) return pending;
    const fetching = this.fetch(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, fetching);
    return fetching;
  }

  private async fetch(clientId: string): Promise<ClientMetadataDocument> {
    const what = `The client metadata document ${shown(clientId)}`;
    const response = await this.request(clientId, what);
    if (response.status >= 300 && response.status < 400) {
      throw refusal(`${what} answered ${response.status} (a redirect); redirects are not followed.`);
    }
    if (response.status !== 200) throw refusal(`${what} answered ${response.status}, not 200.`);
    const type = String(response.headers['content-type'] ?? '');
    if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
      throw refusal(`${what} is not JSON (content-type ${JSON.stringify(type.slice(0, 100))}).`);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body?.toString('utf8') ?? '');
    } catch {
      throw refusal(`${what} is not valid JSON.`);
    }
    const document = this.check(clientId, body, what);
    const ttl = Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, maxAgeMs(response.headers['cache-control'])));
    this.cache.delete(clientId);
    this.cache.set(clientId, { document, expiresAt: this.now() + ttl });
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return document;
  }

  private async request(clientId: string, what: string): Promise<PinnedResponse> {
    const controller = new AbortController();
    const late = new Error(`no answer within ${this.timeoutMs} ms`);
    const timer = setTimeout(() => controller.abort(late), this.timeoutMs);
    // Resolution is bounded too: the race ends the wait whatever the resolver does.
    const aborted = new Promise<never>((_resolve, reject) =>
      controller.signal.addEventListener('abort', () => reject(late), { once: true }),
    );
    try {
      return await Promise.race([
        pinnedRequest(new URL(clientId), {
          method: 'GET',
          headers: { accept: 'application/json' },
          timeoutMs: this.timeoutMs,
          policy: this.options.policy,
          resolve: this.options.resolve,
          maxBodyBytes: this.maxBytes,
          signal: controller.signal,
        }),
        aborted,
      ]);
    } catch (error) {
      this.options.log?.(`${what} was refused: ${(error as Error).message}`);
      if (error instanceof EgressBlockedError) {
        throw refusal(
          `${what} is not at a public address (private, loopback and link-local addresses are refused).`,
        );
      }
      if (controller.signal.aborted) throw refusal(`${what} could not be fetched: ${late.message}.`);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') throw refusal(`${what} could not be fetched: its host does not resolve.`);
      const message = (error as Error).message;
      if (/^(no answer within|the response is larger than)/.test(message)) {
        throw refusal(`${what} could not be fetched: ${message}.`);
      }
      throw refusal(`${what} could not be fetched${code ? ` (${code})` : ''}.`);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private check(clientId: string, body: unknown, what: string): ClientMetadataDocument {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw refusal(`${what} is not a JSON object.`);
    }
    const fields = body as Record<string, unknown>;
    if (fields.client_id !== clientId) {
      throw refusal(
        `${what} names another client_id (${shown(String(fields.client_id))}); it must be the document's URL exactly.`,
      );
    }
    if ('client_secret' in fields || 'client_secret_expires_at' in fields) {
      throw refusal(`${what} must not hold a client_secret: a metadata document describes a public client.`);
    }
    const method = fields.token_endpoint_auth_method;
    if (method === 'private_key_jwt') {
      throw refusal(
        `${what} asks for token_endpoint_auth_method private_key_jwt: private_key_jwt is not supported, this server takes public clients only (none).`,
      );
    }
    if (method !== undefined && method !== 'none') {
      throw refusal(
        `${what} asks for token_endpoint_auth_method ${shown(String(method))}: this server takes public clients only (none), and a document cannot carry a secret.`,
      );
    }
    try {
      const metadata = checkClientMetadata(body, 'none');
      return { clientId, metadata: { ...metadata, token_endpoint_auth_method: 'none' } };
    } catch (error) {
      if (error instanceof OAuthError) throw refusal(`${what}: ${error.description}.`);
      throw error;
    }
  }
}

function refusal(description: string): OAuthError {
  return new OAuthError('invalid_client', description);
}

function shown(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Cache-Control max-age in ms; 0 when absent or when the answer must not be stored. */
function maxAgeMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(value)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(value);
  return match ? Number(match[1]) * 1_000 : 0;
}
