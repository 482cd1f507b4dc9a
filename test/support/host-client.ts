import { request } from 'node:http';

/**
 * A socket silent this long is a hang: only a guard, below Jest's 300 s test guard (a loaded CI
 * machine can take well over 15 s to move a project or answer an attack request).
 */
const HANG_GUARD_MS = 240_000;

/** What a client sees of one exchange with a project-host process. */
export interface HostResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export interface HostRequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Serialised and sent with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body; give its content type in `headers`. */
  body?: string;
  headers?: Record<string, string>;
}

/**
 * HTTP to the project host on 127.0.0.1 with an explicit Host header, which is how the process tells
 * the control plane (`localhost:<port>`) from a project (`<slug>.localhost:<port>`, a custom domain).
 * Node's fetch refuses to set Host, hence node:http.
 */
export class HostClient {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly token?: string,
  ) {}

  /** The same server under another Host header (and optionally another token). */
  at(host: string, token: string | undefined = this.token): HostClient {
    return new HostClient(this.port, host.includes(':') ? host : `${host}:${this.port}`, token);
  }

  withToken(token: string | undefined): HostClient {
    return new HostClient(this.port, this.host, token);
  }

  request(path: string, options: HostRequestOptions = {}): Promise<HostResponse> {
    const headers: Record<string, string> = { host: this.host };
    const token = options.token ?? this.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const method = options.method ?? (body === undefined ? 'GET' : 'POST');
    return new Promise<HostResponse>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, path, method, headers, timeout: HANG_GUARD_MS },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  get(path: string, options: Omit<HostRequestOptions, 'method'> = {}): Promise<HostResponse> {
    return this.request(path, { ...options, method: 'GET' });
  }

  post(path: string, json: unknown, options: Omit<HostRequestOptions, 'method' | 'json'> = {}) {
    return this.request(path, { ...options, method: 'POST', json });
  }

  put(path: string, json: unknown, options: Omit<HostRequestOptions, 'method' | 'json'> = {}) {
    return this.request(path, { ...options, method: 'PUT', json });
  }

  delete(path: string, options: Omit<HostRequestOptions, 'method'> = {}): Promise<HostResponse> {
    return this.request(path, { ...options, method: 'DELETE' });
  }
}
