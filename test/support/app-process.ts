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

/**
 * Ports handed to apps that bind them later come from a slice of 20000–31999 of their own per Jest
 * worker, below Linux's ephemeral range (32768+): a port the kernel hands out for `listen(0)` or an
 * outgoing connection can be taken again by anyone between the check and the app's listen, and on a
 * busy machine another suite's host once got it first, so a spec's requests reached that host
 * (404 for every project) while its own process exited with EADDRINUSE.
 */
const PORT_BASE = 20_000;
const PORTS_PER_WORKER = 400;
const WORKER_SLOTS = 30;
let nextPort = 0;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free TCP port on loopback, in this process's own slice (see PORT_BASE). */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0) % WORKER_SLOTS;
  const base = PORT_BASE + worker * PORTS_PER_WORKER;
  // Start where the clock points, so suites run one after another in a worker rarely retry.
  // (and where this process's id points: two test runs on one machine share worker ids).
  if (nextPort === 0) nextPort = 1 + ((Date.now() + process.pid * 7) % PORTS_PER_WORKER);
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = base + (nextPort++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + PORTS_PER_WORKER - 1}`);
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
      // Set by tools/devstack/src/test.ts and `make test-faults`: compiled modules shared between boots.
      ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
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

/** CPU time (clock ticks) the process and its children have used, or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat; here 0-based after "pid (comm)".
    return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  } catch {
    return undefined;
  }
}

/**
 * Polls `url` until it answers (any status). There is no deadline on a slow boot: the wait follows
 * the app itself, failing when it exits or when it has made no progress (no CPU time used, no output
 * written) for `stallMs`, so a loaded machine that boots slowly still passes while a hung app fails.
 */
export async function waitForHttp(url: string, app: AppProcess, stallMs = 60_000): Promise<Response> {
  let lastProgress = Date.now();
  let lastTicks = app.child.pid ? cpuTicks(app.child.pid) : undefined;
  let lastOutput = app.output().length;
  for (;;) {
    if (app.child.exitCode !== null || app.child.signalCode !== null)
      throw new Error(`app exited early:\n${app.output()}`);
    try {
      return await fetch(url, { signal: AbortSignal.timeout(5_000) });
    } catch {
      const ticks = app.child.pid ? cpuTicks(app.child.pid) : undefined;
      const output = app.output().length;
      if (ticks !== lastTicks || output !== lastOutput) {
        lastProgress = Date.now();
        lastTicks = ticks;
        lastOutput = output;
      } else if (Date.now() - lastProgress > stallMs) {
        throw new Error(
          `${url} did not answer and the app made no progress for ${stallMs} ms:\n${app.output()}`,
        );
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}
