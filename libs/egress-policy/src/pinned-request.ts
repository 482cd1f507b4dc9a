import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { EgressPolicy } from './egress-policy.js';
import { parseIp } from './ip-address.js';
import { type HostResolver, isPinnedAddress, pinnedLookup, resolveChecked } from './pinned-resolution.js';

export interface PinnedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  policy: EgressPolicy;
  resolve: HostResolver;
  /**
   * Read the response body, at most this many bytes (a larger one fails the request). Without it
   * the body is discarded and `body` is not set.
   */
  maxBodyBytes?: number;
  /** Ends the request (resolution, connection or body) when it aborts. */
  signal?: AbortSignal;
}

export interface PinnedResponse {
  status: number;
  /** The Location header of a redirect, which is never followed. */
  location?: string;
  /** The address connected to. */
  address: string;
  headers: IncomingHttpHeaders;
  /** The body, when `maxBodyBytes` asked for it. */
  body?: Buffer;
}

/**
 * One HTTP(S) request that connects only to an address the policy allowed: the host is resolved
 * once, every address checked, the connection made to exactly those (pinned lookup) and the
 * socket's remote address checked again once connected. Redirects are not followed (a 3xx is
 * returned as it is), so a redirect cannot lead elsewhere. Throws `EgressBlockedError` when refused.
 * The body is discarded unless `maxBodyBytes` asks for it (then a larger one is an error, checked
 * on the declared length and on what arrives). `timeoutMs` bounds each wait for the socket; a
 * `signal` bounds the whole request.
 */
export async function pinnedRequest(url: URL, options: PinnedRequestOptions): Promise<PinnedResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${url.protocol} is not http or https`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  options.signal?.throwIfAborted();
  const pinned = await resolveChecked(options.policy, options.resolve, url.hostname, port);
  options.signal?.throwIfAborted();
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PinnedResponse>((resolve, reject) => {
    let connectedTo = '';
    const req = send(
      {
        protocol: url.protocol,
        hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'POST',
        headers: options.headers,
        lookup: pinnedLookup(pinned) as never,
        // A fresh connection every time: a pooled one might be to an address checked long ago.
        agent: false,
        ...(url.protocol === 'https:' && !parseIp(hostname) ? { servername: hostname } : {}),
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (response: IncomingMessage) => {
        const max = options.maxBodyBytes;
        const chunks: Buffer[] = [];
        let size = 0;
        const tooLarge = () => {
          const error = new Error(`the response is larger than ${max} bytes`);
          reject(error);
          req.destroy(error);
        };
        if (max === undefined) response.resume();
        else {
          if (Number(response.headers['content-length']) > max) return tooLarge();
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > max) tooLarge();
            else chunks.push(chunk);
          });
        }
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            ...(response.headers.location ? { location: response.headers.location } : {}),
            address: connectedTo,
            headers: response.headers,
            ...(max === undefined ? {} : { body: Buffer.concat(chunks) }),
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('socket', (socket: Socket) => {
      const verify = () => {
        connectedTo = socket.remoteAddress ?? '';
        if (!isPinnedAddress(pinned, socket.remoteAddress)) {
          req.destroy(
            new Error(
              `connected to ${socket.remoteAddress ?? 'an unknown address'}, which was not the checked one`,
            ),
          );
        }
      };
      if (socket.remoteAddress && !socket.connecting) verify();
      else socket.once('connect', verify);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
