import {
  EgressBlockedError,
  type EgressPolicy,
  type HostResolver,
  isPinnedAddress,
  type PinnedAddresses,
  pinnedLookup,
  resolveChecked,
} from '@suite/egress-policy';
import { EventEmitter } from 'node:events';
import { Agent, type AgentOptions, type Server as HttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestError, Server } from 'proxy-chain';

/** Response header a blocked plain-HTTP request carries, so a navigation can say why it failed. */
export const BLOCKED_HEADER = 'x-browser-network-policy';

export interface EgressProxyOptions {
  policy: EgressPolicy;
  resolve: HostResolver;
  onBlocked: (blocked: { target: string; host: string; port: number; message: string; rule: string }) => void;
}

/**
 * A filtering forward proxy for one browser context, on 127.0.0.1. Every request of the context
 * (documents, subresources, fetch/XHR, WebSockets, service workers, each redirect hop) arrives
 * here as a CONNECT or an absolute-URL request; the proxy resolves the host itself, checks every
 * address against the policy, connects to exactly those addresses (a pinned lookup) and checks the
 * socket's remote address once connected, so DNS rebinding cannot slip a private address past the
 * check. Built on proxy-chain (HTTP parsing, CONNECT handling, forwarding).
 */
export class EgressProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const server = new Server({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: async ({ hostname, port, isHttp, request }) => {
        const target = isHttp ? (request.url ?? `${hostname}:${port}`) : `${hostname}:${port}`;
        let pinned: PinnedAddresses;
        try {
          pinned = await resolveChecked(options.policy, options.resolve, hostname, port);
        } catch (error) {
          if (error instanceof EgressBlockedError) {
            options.onBlocked({
              target,
              host: error.host,
              port,
              message: error.message,
              rule: error.decision.rule,
            });
            throw new RequestError(error.message, 403, { [BLOCKED_HEADER]: headerSafe(error.message) });
          }
          throw new RequestError(`could not resolve ${hostname}: ${(error as Error).message}`, 502);
        }
        if (!isHttp) {
          // Tunnels (https, wss, ws): the proxy connects itself, to a checked address, and checks
          // the socket's remote address before the browser is told the tunnel is up.
          const upstream = await connectPinned(pinned, port).catch((error: Error) => {
            if (error instanceof UncheckedAddressError) {
              options.onBlocked({
                target,
                host: pinned.host,
                port,
                message: error.message,
                rule: 'pinned address',
              });
              throw new RequestError(error.message, 403, { [BLOCKED_HEADER]: headerSafe(error.message) });
            }
            throw new RequestError(`could not connect to ${target}: ${error.message}`, 502);
          });
          return { customConnectServer: relayTo(upstream) };
        }
        return {
          dnsLookup: pinnedLookup(pinned) as never,
          // Plain HTTP goes through a fresh connection checked once connected; never a pooled one.
          httpAgent: new PinnedAgent(pinned, { keepAlive: false }),
        };
      },
    });
    // Failures of single requests are answered to the browser; they must not end the worker.
    server.on('requestFailed', () => undefined);
    await server.listen();
    return new EgressProxy(server, `http://127.0.0.1:${server.port}`);
  }

  async close(): Promise<void> {
    await this.server.close(true).catch(() => undefined);
  }
}

/** An HTTP agent that drops a connection whose remote address is not one that was checked. */
class PinnedAgent extends Agent {
  constructor(
    private readonly pinned: PinnedAddresses,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(...args: Parameters<Agent['createConnection']>): Duplex | null | undefined {
    const socket = super.createConnection(...args) as Socket | null | undefined;
    socket?.once('connect', () => {
      if (!isPinnedAddress(this.pinned, socket.remoteAddress))
        socket.destroy(
          new Error(`connected to ${socket.remoteAddress ?? 'an unknown address'}, not a checked one`),
        );
    });
    return socket;
  }
}

class UncheckedAddressError extends Error {}

const CONNECT_TIMEOUT_MS = 30_000;

/** A TCP connection to one of the checked addresses (pinned lookup), verified once connected. */
function connectPinned(pinned: PinnedAddresses, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: pinned.host, port, lookup: pinnedLookup(pinned) as never });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      fail(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`)),
    );
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      if (!isPinnedAddress(pinned, socket.remoteAddress)) {
        fail(
          new UncheckedAddressError(
            `blocked by the browser network policy: ${pinned.host} was connected to ${socket.remoteAddress ?? 'an unknown address'}, which is not an address that was checked`,
          ),
        );
        return;
      }
      resolve(socket);
    });
  });
}

/**
 * proxy-chain hands a CONNECT's client socket to `customConnectServer` (after answering 200) by
 * emitting 'connection' on it; this one pipes it to the already connected, checked upstream.
 */
function relayTo(upstream: Socket): HttpServer {
  const relay = new EventEmitter();
  // Should the browser be gone before the tunnel is handed over, the upstream must not linger.
  const orphaned = setTimeout(() => upstream.destroy(), CONNECT_TIMEOUT_MS);
  relay.once('connection', (client: Socket) => {
    clearTimeout(orphaned);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return relay as HttpServer;
}

function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000);
}
