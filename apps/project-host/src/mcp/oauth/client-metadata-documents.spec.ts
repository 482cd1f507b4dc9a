import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHostResolver, EgressPolicy, type NetworkMode } from '@suite/egress-policy';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ClientMetadataDocuments,
  type ClientMetadataDocumentsOptions,
  clientIdUrlProblem,
  isClientMetadataUrl,
} from './client-metadata-documents.js';
import { OAuthError } from './oauth-error.js';

// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document) fetched by the
// authorization server: the attacks first (where the URL points, what the document says, how the
// server behaves), against a real local HTTP server.

const policy = (mode: NetworkMode) =>
  new EgressPolicy({
    mode,
    allowedHosts: [],
    modeSetting: 'MCP_CLIENT_METADATA_NETWORK',
    allowListSetting: 'MCP_CLIENT_METADATA_ALLOWED_HOSTS',
    subject: 'MCP client metadata',
  });

type Handler = (req: IncomingMessage, res: ServerResponse, base: string) => void;
const routes = new Map<string, Handler>();
const hits: string[] = [];
let server: Server;
let base: string;
/** Responses kept open by the slow routes, ended after the spec. */
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const handler = routes.get(req.url ?? '');
    if (handler) handler(req, res, base);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let clock = 1_000_000;
const documents = (options: Partial<ClientMetadataDocumentsOptions> = {}) =>
  new ClientMetadataDocuments({
    policy: policy('allow-private'),
    resolve: createHostResolver(),
    timeoutMs: 5_000,
    now: () => clock,
    ...options,
  });

/** Serves `doc` (its client_id defaults to the URL it is served at) at `path`. */
function serve(path: string, doc: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  routes.set(path, (_req, res, at) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(
      JSON.stringify({
        client_id: `${at}${path}`,
        client_name: 'Doc client',
        redirect_uris: ['http://127.0.0.1:9999/callback'],
        token_endpoint_auth_method: 'none',
        ...doc,
      }),
    );
  });
  return `${base}${path}`;
}

async function refusal(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  expect((error as OAuthError).error).toBe('invalid_client');
  return error as OAuthError;
}

describe('which client ids are metadata document URLs', () => {
  it('takes http(s) URLs and leaves registered mcp_ ids alone', () => {
    expect(isClientMetadataUrl('https://app.example/oauth/client.json')).toBe(true);
    expect(isClientMetadataUrl('mcp_abc')).toBe(false);
    expect(isClientMetadataUrl(42)).toBe(false);
  });

  it('refuses URLs the draft forbids before fetching anything', () => {
    const https = { allowHttp: false };
    expect(clientIdUrlProblem('https://app.example/client.json', https)).toBeUndefined();
    expect(clientIdUrlProblem('http://app.example/client.json', https)).toMatch(/https/);
    expect(clientIdUrlProblem('http://127.0.0.1:8000/client.json', { allowHttp: true })).toBeUndefined();
    expect(clientIdUrlProblem('https://app.example', https)).toMatch(/path/);
    expect(clientIdUrlProblem('https://app.example/', https)).toMatch(/path/);
    expect(clientIdUrlProblem('https://app.example/a#b', https)).toMatch(/fragment/);
    expect(clientIdUrlProblem('https://u:p@app.example/a', https)).toMatch(/credentials/);
    expect(clientIdUrlProblem('https://app.example/a/../b', https)).toMatch(/dot segments/);
    expect(clientIdUrlProblem(`https://app.example/${'a'.repeat(3_000)}`, https)).toMatch(/long/);
  });
});

describe('where the URL points (production mode: public-only)', () => {
  it.each([
    ['loopback', () => `https://127.0.0.1:${new URL(base).port}/client.json`],
    ['a private address', () => 'https://10.1.2.3/client.json'],
    ['cloud metadata (link-local)', () => 'https://169.254.169.254/latest/meta-data'],
    ['a name resolving to loopback', () => `https://localhost:${new URL(base).port}/client.json`],
  ])('refuses %s without connecting', async (_what, url) => {
    const before = hits.length;
    const target = url();
    const error = await refusal(documents({ policy: policy('public-only') }).get(target));
    expect(error.description).toMatch(/not at a public address/);
    // Nothing internal is told back: neither what the name resolved to nor the policy's settings.
    expect(error.description.replace(target, '')).not.toMatch(
      /127\.0\.0\.1|::1|resolved|MCP_CLIENT_METADATA/,
    );
    expect(hits.length).toBe(before);
  });

  it('refuses http in production mode', async () => {
    const error = await refusal(documents({ policy: policy('public-only') }).get(serve('/http.json')));
    expect(error.description).toMatch(/https/);
  });

  it('refuses cloud metadata addresses even in allow-private mode', async () => {
    const error = await refusal(documents().get('http://169.254.169.254/latest/meta-data'));
    expect(error.description).toMatch(/not at a public address/);
  });

  it('does not follow redirects', async () => {
    routes.set('/moved.json', (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end(),
    );
    const error = await refusal(documents().get(`${base}/moved.json`));
    expect(error.description).toMatch(/redirect/);
    expect(hits).not.toContain('/latest');
  });
});

describe('what the document says', () => {
  it('accepts a valid document and keeps what the consent page needs', async () => {
    const url = serve('/good.json', {
      client_uri: 'https://app.example',
      logo_uri: 'https://app.example/l.png',
    });
    const doc = await documents().get(url);
    expect(doc.clientId).toBe(url);
    expect(doc.metadata).toMatchObject({
      client_name: 'Doc client',
      redirect_uris: ['http://127.0.0.1:9999/callback'],
      token_endpoint_auth_method: 'none',
    });
  });

  it('refuses a document whose client_id is not exactly its URL', async () => {
    const url = serve('/other-id.json', { client_id: 'https://someone-else.example/client.json' });
    expect((await refusal(documents().get(url))).description).toMatch(/client_id/);
    const trailing = serve('/trailing.json', { client_id: `${base}/trailing.json/` });
    expect((await refusal(documents().get(trailing))).description).toMatch(/client_id/);
  });

  it('refuses secret-based and private_key_jwt client authentication', async () => {
    const basic = serve('/basic.json', { token_endpoint_auth_method: 'client_secret_basic' });
    expect((await refusal(documents().get(basic))).description).toMatch(/public clients only/);
    const post = serve('/post.json', { token_endpoint_auth_method: 'client_secret_post' });
    expect((await refusal(documents().get(post))).description).toMatch(/public clients only/);
    const jwt = serve('/jwt.json', { token_endpoint_auth_method: 'private_key_jwt' });
    expect((await refusal(documents().get(jwt))).description).toMatch(/private_key_jwt is not supported/);
    const secret = serve('/secret.json', { client_secret: 'shh' });
    expect((await refusal(documents().get(secret))).description).toMatch(/client_secret/);
  });

  it('refuses redirect URIs our rules refuse, and documents without any', async () => {
    const bad = serve('/bad-redirect.json', { redirect_uris: ['http://evil.example/cb'] });
    expect((await refusal(documents().get(bad))).description).toMatch(/http is allowed on loopback only/);
    const none = serve('/no-redirect.json', { redirect_uris: [] });
    expect((await refusal(documents().get(none))).description).toMatch(/redirect_uris/);
  });

  it('refuses a document larger than 5 KB', async () => {
    const url = serve('/big.json', { client_name: 'x'.repeat(6_000) });
    expect((await refusal(documents().get(url))).description).toMatch(/larger than 5120 bytes/);
  });

  it('refuses what is not JSON', async () => {
    routes.set('/page.html', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'),
    );
    expect((await refusal(documents().get(`${base}/page.html`))).description).toMatch(/JSON/);
    routes.set('/broken.json', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"client_id": '),
    );
    expect((await refusal(documents().get(`${base}/broken.json`))).description).toMatch(/JSON/);
  });

  it('refuses a document that is not 200', async () => {
    expect((await refusal(documents().get(`${base}/missing.json`))).description).toMatch(/404/);
  });
});

describe('a slow server', () => {
  it('gives up when no answer comes', async () => {
    routes.set('/silent.json', (_req, res) => hanging.push(res));
    const error = await refusal(documents({ timeoutMs: 300 }).get(`${base}/silent.json`));
    expect(error.description).toMatch(/no answer within 300 ms/);
  });

  it('gives up when the body trickles in', async () => {
    routes.set('/trickle.json', (_req, res) => {
      hanging.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
    });
    const error = await refusal(documents({ timeoutMs: 300 }).get(`${base}/trickle.json`));
    expect(error.description).toMatch(/no answer within 300 ms/);
  });
});

describe('the cache', () => {
  it('keeps a document for its max-age, within 60 s and 24 h', async () => {
    const cache = documents();
    const fetched = (path: string) => hits.filter((hit) => hit === path).length;

    const short = serve('/short.json', {}, { 'cache-control': 'max-age=5' });
    await cache.get(short);
    clock += 30_000;
    await cache.get(short);
    expect(fetched('/short.json')).toBe(1);
    clock += 31_000;
    await cache.get(short);
    expect(fetched('/short.json')).toBe(2);

    const long = serve('/long.json', {}, { 'cache-control': 'public, max-age=31536000' });
    await cache.get(long);
    clock += 23 * 3_600_000;
    await cache.get(long);
    expect(fetched('/long.json')).toBe(1);
    clock += 2 * 3_600_000;
    await cache.get(long);
    expect(fetched('/long.json')).toBe(2);
  });

  it('fetches once for requests that arrive together, and forgets the least recently used', async () => {
    const cache = documents({ cacheSize: 2 });
    const fetched = (path: string) => hits.filter((hit) => hit === path).length;
    const a = serve('/lru-a.json');
    const b = serve('/lru-b.json');
    const c = serve('/lru-c.json');
    await Promise.all([cache.get(a), cache.get(a), cache.get(a)]);
    expect(fetched('/lru-a.json')).toBe(1);
    await cache.get(b);
    await cache.get(a); // a is now the most recently used
    await cache.get(c); // b goes
    await cache.get(a);
    expect(fetched('/lru-a.json')).toBe(1);
    await cache.get(b);
    expect(fetched('/lru-b.json')).toBe(2);
  });

  it('does not keep a refusal', async () => {
    const cache = documents();
    const fetched = (path: string) => hits.filter((hit) => hit === path).length;
    routes.set('/later.json', (_req, res) => res.writeHead(503).end());
    await refusal(cache.get(`${base}/later.json`));
    const url = serve('/later.json');
    expect((await cache.get(url)).clientId).toBe(url);
    expect(fetched('/later.json')).toBe(2);
  });
});
