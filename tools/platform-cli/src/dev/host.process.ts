import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CliError } from '../cli-error.js';
import { say, warn } from './terminal.js';

export interface HostProcess {
  /** Base URL of the host's own port (the control plane answers on it for 127.0.0.1). */
  url: string;
  port: number;
  pid: number;
  /** Resolves when the process ended, whoever ended it. */
  exited: Promise<number | string | null>;
  stop(): Promise<void>;
}

const BOOT_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

interface AppChild {
  child: ChildProcess;
  exited: Promise<number | string | null>;
  /** The last lines it printed, for an error message. */
  recent: string[];
  stop(): Promise<void>;
}

/** Runs a built app of the repository with its JSON log shown filtered (see showLogLine). */
function spawnApp(entry: string, env: NodeJS.ProcessEnv, verbose: boolean): AppChild {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', entry], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const recent: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 40) recent.shift();
      showLogLine(line, verbose);
    });
  }
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    exited,
    recent,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    },
  };
}

const builtEntry = (repoRoot: string, app: string): string => {
  const entry = join(repoRoot, 'apps', app, 'dist', 'main.js');
  if (!existsSync(entry)) {
    throw new CliError(`the ${app} app is not built (${entry} is missing): run pnpm run build`);
  }
  return entry;
};

/**
 * Starts the built project host (apps/project-host/dist/main.js) and its project worker
 * (apps/project-worker/dist/main.js: mail delivery, auth hooks, project jobs, custom-domain checks,
 * tenant upgrade sweeps) with the same environment, and waits for the host's /health. Their JSON
 * logs are shown filtered: project code output and effects, warnings and errors (all with
 * `verbose`). Either one ending ends `exited`.
 */
export async function startHost(options: {
  repoRoot: string;
  port: number;
  env: NodeJS.ProcessEnv;
  verbose: boolean;
}): Promise<HostProcess> {
  const hostEntry = builtEntry(options.repoRoot, 'project-host');
  const workerEntry = builtEntry(options.repoRoot, 'project-worker');
  const app = spawnApp(hostEntry, options.env, options.verbose);
  // The worker has no port of its own here: its health listener is off (HEALTH_PORT=0).
  const worker = spawnApp(workerEntry, { ...options.env, HEALTH_PORT: '0' }, options.verbose);
  const url = `http://127.0.0.1:${options.port}`;
  const host: HostProcess = {
    url,
    port: options.port,
    pid: app.child.pid!,
    exited: Promise.race([app.exited, worker.exited]),
    stop: async () => {
      await Promise.all([app.stop(), worker.stop()]);
    },
  };

  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  for (;;) {
    for (const [name, started] of [
      ['project host', app],
      ['project worker', worker],
    ] as const) {
      if (started.child.exitCode !== null || started.child.signalCode !== null) {
        await host.stop();
        throw new CliError(`the ${name} exited during start-up:\n${started.recent.join('\n')}`);
      }
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return host;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await host.stop();
      throw new CliError(`the project host did not answer within ${BOOT_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface LogLine {
  level?: number;
  msg?: string;
  context?: string;
  output?: string;
  effect?: string;
  payload?: unknown;
  err?: { message?: string };
  error?: unknown;
  [key: string]: unknown;
}

/**
 * Start-up warnings the host and its worker both give: `platform dev` said the first already (it
 * chose the plain process itself), the second is shown once, not once per process.
 */
const SAID_BY_THE_CLI = /^PROJECT_CODE_SANDBOX=process:/;
const ONCE = [/^the host does not run as root: sandboxes share its user id/];
const shownOnce = new Set<RegExp>();

/** pino levels: 40 warn, 50 error. */
function showLogLine(line: string, verbose: boolean): void {
  let entry: LogLine;
  try {
    entry = JSON.parse(line) as LogLine;
  } catch {
    // Node's own warnings (deprecations of dependencies) are noise unless asked for.
    const nodeWarning = /^\(node:\d+\)|^\(Use `node --trace/.test(line);
    if (line.trim() && (verbose || !nodeWarning)) say('host', line);
    return;
  }
  if (entry.msg === 'project code output' && typeof entry.output === 'string') {
    say('project', entry.output.replace(/\n$/, ''));
  } else if (entry.msg === 'project code effect') {
    say('project', `${entry.effect ?? 'effect'} ${JSON.stringify(entry.payload ?? null)}`);
  } else if ((entry.level ?? 30) >= 40) {
    const msg = entry.msg ?? '';
    if (SAID_BY_THE_CLI.test(msg) && !verbose) return;
    const once = ONCE.find((pattern) => pattern.test(msg));
    if (once && shownOnce.has(once)) return;
    if (once) shownOnce.add(once);
    const detail = entry.err?.message ?? (typeof entry.error === 'string' ? entry.error : undefined);
    warn('host', `${entry.msg ?? line}${detail ? `: ${detail}` : ''}`);
  } else if (verbose) {
    say('host', `${entry.context ? `${entry.context}: ` : ''}${entry.msg ?? line}`);
  }
}
