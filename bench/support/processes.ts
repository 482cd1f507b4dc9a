import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { processTree, readStat, type ProcStat } from './proc.ts';

/**
 * Apps started by the bench run in process groups of their own; stopping one signals its whole tree
 * (including Chromium, which Puppeteer starts in a group of its own), and whatever is still alive
 * when the bench exits, fails or is interrupted is killed.
 */

export const repoRoot = join(import.meta.dirname, '..', '..');

export type AppName = 'jobs-api' | 'browser-worker' | 'project-host' | 'agent-gateway';

export interface AppProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  exited: Promise<number | string | null>;
  /** The last lines the app wrote (stdout and stderr), for error messages. */
  tail(lines?: number): string;
  /** SIGTERM, a grace period, then SIGKILL for the app and everything it started. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<AppProcess>();
const ownPgid = readStat(process.pid)?.pgid ?? process.pid;

/** Kills a snapshot of processes and their groups (never the bench's own group). */
function killSnapshot(snapshot: readonly ProcStat[], signal: NodeJS.Signals): void {
  const groups = new Set<number>();
  for (const proc of snapshot) {
    const now = readStat(proc.pid);
    // Same pid and same start time: still the process we saw, not a new one reusing its pid.
    if (!now || now.startTime !== proc.startTime || proc.pid === process.pid) continue;
    if (proc.pgid > 1 && proc.pgid !== ownPgid) groups.add(proc.pgid);
    try {
      process.kill(proc.pid, signal);
    } catch {
      // already gone
    }
  }
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // group already empty
    }
  }
}

/** Synchronously kills every process this bench started, directly or indirectly. */
export function killEverything(): void {
  for (const app of live) killSnapshot(processTree(app.pid), 'SIGKILL');
  // Anything else below the bench (the in-process Chromium of the interpreter benchmark, ffmpeg).
  killSnapshot(processTree(process.pid).slice(1), 'SIGKILL');
  live.clear();
}

let handlersInstalled = false;

/** Kill everything on exit, Ctrl-C, SIGTERM and crashes. */
export function installCleanupHandlers(onSignal: () => Promise<void>): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killEverything);
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (signalled) process.exit(130);
      signalled = true;
      process.stderr.write(`\n[bench] ${signal}: stopping every process the bench started\n`);
      killEverything();
      void onSignal().finally(() => process.exit(130));
    });
  }
}

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

/** Only what an app needs from the bench's environment: no stray DATABASE_URL, OTEL endpoint, … */
export function baseEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'CHROMIUM_PATH', 'FFMPEG_PATH'];
  const out: NodeJS.ProcessEnv = {};
  for (const name of keep) if (process.env[name]) out[name] = process.env[name];
  return out;
}

export function startApp(
  app: AppName,
  env: NodeJS.ProcessEnv,
  /** root: another built checkout to run the app from (a baseline to compare with). */
  options: { name?: string; logDir: string; nodeArgs?: string[]; root?: string },
): AppProcess {
  const entry = join(options.root ?? repoRoot, 'apps', app, 'dist', 'main.js');
  if (!existsSync(entry))
    throw new Error(`${entry} is missing: run \`pnpm run build\` (make bench builds first)`);
  const name = options.name ?? app;
  const logFile = join(options.logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: options.root ?? repoRoot,
    env: { ...baseEnv(), NODE_ENV: 'production', ...env },
    stdio: ['ignore', fd, fd],
    detached: true, // a process group of its own, so the whole tree can be signalled
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  let stopping = false;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping)
        process.stderr.write(`[bench] ${name} exited unexpectedly (${signal ?? `code ${code}`})\n`);
      resolve(code ?? signal);
    }),
  );
  const tail = (lines = 30): string => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };
  const proc: AppProcess = {
    name,
    child,
    pid: child.pid,
    logFile,
    exited,
    tail,
    stop: async (graceMs = 10_000) => {
      stopping = true;
      // Snapshot first: once the app exits, its children are re-parented and no longer found below it.
      const snapshot = processTree(child.pid!);
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
        const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs));
        await Promise.race([exited, timer]);
      }
      killSnapshot([...snapshot, ...processTree(child.pid!)], 'SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      live.delete(proc);
    },
  };
  live.add(proc);
  return proc;
}

/** Polls `url` until it answers 200, the app exits, or the deadline passes. */
export async function waitForHttp(url: string, app: AppProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (app.child.exitCode !== null || app.child.signalCode !== null) {
      throw new Error(`${app.name} exited during start-up:\n${app.tail()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${app.tail()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
