import { createReadStream, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { CliError } from '../cli-error.js';

/** Where the page loads the browser client from: the suite's own build, never a CDN. */
export const CLIENT_PATH = '/_platform/client.js';

export interface DevProxyOptions {
  port: number;
  /** The local project host's port. */
  hostPort: number;
  /** `public/` of the project directory. */
  publicDir: string;
  /** The built @suite/platform-client (libs/platform-client/dist/index.js). */
  clientFile: string;
}

export interface DevProxy {
  /** Called once the project is known: /api/* is forwarded with its Host header from then on. */
  setProjectHost(host: string): void;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer'];

/**
 * The local address of a project (http://localhost:<port>): `/api/*`, `/mcp`, `/oauth/*` and the
 * OAuth metadata go to the local project host as the project's host name, `/internal/*` (the identity-provider callback) to its control
 * plane, the browser client is served at CLIENT_PATH, and everything else from `public/`.
 * Listening happens first, so a taken port is reported before anything else starts.
 */
export async function startDevProxy(options: DevProxyOptions): Promise<DevProxy> {
  let projectHost: string | null = null;
  const controlPlaneHost = `localhost:${options.port}`;

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/')) {
      if (!projectHost) return sendError(res, 503, 'starting', 'The local project host is still starting.');
      return forward(req, res, options.hostPort, projectHost);
    }
    if (isMcpPath(path)) {
      if (!projectHost) return sendError(res, 503, 'starting', 'The local project host is still starting.');
      return forward(req, res, options.hostPort, projectHost);
    }
    if (path.startsWith('/internal/')) return forward(req, res, options.hostPort, controlPlaneHost);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed on static files.`);
    }
    if (path === CLIENT_PATH) return sendFile(req, res, options.clientFile);
    const file = staticFile(options.publicDir, path);
    if (!file) return sendError(res, 404, 'not_found', `No file public${path} in the project.`);
    return sendFile(req, res, file);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new CliError(`port ${options.port} is already in use: stop what uses it or pass --port <another>`)
          : error.code === 'EACCES'
            ? new CliError(
                `port ${options.port} needs privileges: pass --port 3000 or another port above 1023`,
              )
            : error,
      );
    });
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });

  return {
    setProjectHost: (host) => {
      projectHost = host;
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

function forward(req: IncomingMessage, res: ServerResponse, port: number, host: string): void {
  const headers = { ...req.headers };
  for (const name of HOP_BY_HOP) delete headers[name];
  // The host answers MCP and its OAuth metadata for the address the client called (issuer,
  // resource): this one, which it trusts in development mode only.
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  headers.host = host;
  // The host trusts exactly one proxy hop (TRUSTED_PROXY_HOPS=1): this one.
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-proto'] = 'http';
  const upstream = request(
    { host: '127.0.0.1', port, method: req.method, path: req.url, headers },
    (answer) => {
      const out = { ...answer.headers };
      for (const name of HOP_BY_HOP) delete out[name];
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (res.headersSent) return res.destroy(error);
    sendError(res, 502, 'host_unavailable', `The local project host did not answer: ${error.message}`);
  });
  req.pipe(upstream);
}

/** The project's MCP server and its OAuth authorization server (consent page, tokens, metadata). */
function isMcpPath(path: string): boolean {
  return (
    path === '/mcp' ||
    path === '/oauth' ||
    path.startsWith('/oauth/') ||
    path.startsWith('/.well-known/oauth-authorization-server') ||
    path.startsWith('/.well-known/oauth-protected-resource')
  );
}

/** A file under `public/` for a URL path: `/` and folders give their index.html; nothing outside. */
function staticFile(publicDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const root = resolve(publicDir);
  let file = resolve(join(root, decoded));
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return sendError(res, 404, 'not_found', 'Not found.');
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': size,
    // Development: every reload sees the file as it is on disk.
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', (error) => res.destroy(error))
    .pipe(res);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ code, message }));
}
