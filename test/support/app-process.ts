import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export type AppName = 'jobs-api' | 'agent-gateway' | 'browser-worker' | 'project-host';

export interface AppProcess {
  child: ChildProcess;
  output: () => string;
  /** The exit code, or the signal's name when the process ended by a signal. */
  exited: Promise<number | string | null>;
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
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
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
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
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
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
