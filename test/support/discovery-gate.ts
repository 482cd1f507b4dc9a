import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// An identity provider that is slow to answer discovery: a real HTTP server in front of another
// provider (the mock), holding every `/.well-known/openid-configuration` request open while the
// test says so, and passing everything else (authorize, token, JWKS) through at once.

export interface DiscoveryGate {
  /** Its base URL: the issuer the project host is configured with. */
  url: string;
  /** Discovery requests it holds open right now. */
  readonly held: number;
  /** Discovery requests it has answered. */
  readonly answered: number;
  /** Where it passes requests (set before the first one arrives). */
  upstream: string;
  /** Holds discovery requests from now on (the start). */
  hold(): void;
  /** Answers the held discovery requests and every later one at once. */
  release(): void;
  /** Resolves once `count` discovery requests are held open. */
  whenHeld(count: number): Promise<void>;
  stop(): Promise<void>;
}

const DISCOVERY = '/.well-known/openid-configuration';

export async function startDiscoveryGate(): Promise<DiscoveryGate> {
  let holding = true;
  let held = 0;
  let answered = 0;
  let waiting: Array<() => void> = [];
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  const notify = () => {
    for (const watcher of [...watchers]) {
      if (held >= watcher.count) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
    }
  };

  const pass = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === 'host' || name === 'connection' || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await fetch(`${gate.upstream}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) {
        out[name] = value;
      }
    });
    res.writeHead(answer.status, { ...out, 'content-length': String(body.length) }).end(body);
  };

  const server = createServer((req, res) => {
    const discovery = (req.url ?? '').startsWith(DISCOVERY);
    const go = () => {
      pass(req, res)
        .then(() => {
          if (discovery) answered += 1;
        })
        .catch(() => res.writeHead(502).end());
    };
    if (!discovery || !holding) return go();
    held += 1;
    notify();
    waiting.push(() => {
      held -= 1;
      go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const gate: DiscoveryGate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get held() {
      return held;
    },
    get answered() {
      return answered;
    },
    upstream: '',
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      const go = waiting;
      waiting = [];
      for (const next of go) next();
    },
    whenHeld: (count) =>
      held >= count ? Promise.resolve() : new Promise((resolve) => watchers.push({ count, resolve })),
    stop: async () => {
      gate.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return gate;
}
