import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = string | ((request: IncomingMessage, response: ServerResponse) => void);

export interface LocalSite {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43121 */
  url: string;
  close(): Promise<void>;
}

/** Serves HTML pages on 127.0.0.1 for tests: a string is a page, a function handles the request itself. */
export async function serveLocalSite(routes: Record<string, Route>): Promise<LocalSite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const route = routes[path];
    if (typeof route === 'function') return route(request, response);
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A minimal HTML document. */
export function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px sans-serif;margin:24px;background:#fff;color:#222}</style></head><body>${body}</body></html>`;
}
