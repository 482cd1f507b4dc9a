import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export type AppName =
  'jobs-api' | 'agent-gateway' | 'browser-worker' | 'project-host' | 'project-worker' | 'push-worker';

export interface AppProcess {
  child: ChildProcess;
  output: () => string;
  /** The exit code, or the signal's name when the process ended by a signal. */
  exited: Promise<number | string | null>;
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** Every process below `pid` (Linux /proc; none elsewhere). */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const next of children.get(queue.shift()!) ?? []) {
      found.push(next);
      queue.push(next);
    }
  }
  return found;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts an app's built entry point (make test builds before Jest) as a real process. */
export function startApp(app: AppName, env: NodeJS.ProcessEnv): AppProcess {
  const entry = join(repoRoot, 'apps', app, 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`make setup\` (or make test) to build`);
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      // Specs test fixture apps on 127.0.0.1, as `make start` lets you; the network-policy spec
      // starts its workers with public-only.
      ...(app === 'browser-worker' ? { BROWSER_NETWORK_POLICY: 'allow-private' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        // A SIGKILLed worker cannot close its Chromium (Puppeteer starts it in a process group of
        // its own), so its descendants go with it instead of lingering after the test.
        const orphans = signal === 'SIGKILL' && child.pid ? descendantsOf(child.pid) : [];
        child.kill(signal);
        for (const pid of orphans) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      return exited;
    },
  };
}

/** Polls `url` until it answers (any status) or the deadline passes. */
export async function waitForHttp(url: string, app: AppProcess, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (app.child.exitCode !== null) throw new Error(`app exited early:\n${app.output()}`);
    try {
      return await fetch(url, { signal: AbortSignal.timeout(2_000) });
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${app.output()}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}
