import { request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * `fetch` for clients that must reach `<project>.localhost:<port>` (Node does not resolve
 * `*.localhost`, and its fetch overrides a Host header): connects to 127.0.0.1 and sends the URL's
 * host as Host, streaming the answer (server-sent events included). For the MCP SDK client's
 * `fetch` option; other hosts go to the global fetch.
 */
export const localhostFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (url.protocol !== 'http:' || !(url.hostname === 'localhost' || url.hostname.endsWith('.localhost'))) {
    return fetch(input, init);
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => (headers[key] = value));
  const body =
    init.body === undefined || init.body === null
      ? undefined
      : init.body instanceof URLSearchParams
        ? init.body.toString()
        : String(init.body as string);
  if (init.body instanceof URLSearchParams && !headers['content-type'])
    headers['content-type'] = 'application/x-www-form-urlencoded';
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? 'GET',
        headers: { ...headers, host: url.host },
      },
      (res) => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, v);
        }
        const status = res.statusCode ?? 0;
        const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
        if (nullBody) res.resume();
        resolve(
          new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream), {
            status,
            headers: responseHeaders,
          }),
        );
      },
    );
    req.on('error', reject);
    init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
    req.end(body);
  });
};
