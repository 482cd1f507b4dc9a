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

/**
 * Starts the built project host (apps/project-host/dist/main.js) and waits for /health. Its JSON
 * log is shown filtered: project code output and effects, warnings and errors (all with `verbose`).
 */
export async function startHost(options: {
  repoRoot: string;
  port: number;
  env: NodeJS.ProcessEnv;
  verbose: boolean;
}): Promise<HostProcess> {
  const entry = join(options.repoRoot, 'apps', 'project-host', 'dist', 'main.js');
  if (!existsSync(entry)) {
    throw new CliError(`the project host is not built (${entry} is missing): run pnpm run build`);
  }
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', entry], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const recent: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 40) recent.shift();
      showLogLine(line, options.verbose);
    });
  }
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const host: HostProcess = {
    url,
    port: options.port,
    pid: child.pid!,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    },
  };

  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new CliError(`the project host exited during start-up:\n${recent.join('\n')}`);
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
    const detail = entry.err?.message ?? (typeof entry.error === 'string' ? entry.error : undefined);
    warn('host', `${entry.msg ?? line}${detail ? `: ${detail}` : ''}`);
  } else if (verbose) {
    say('host', `${entry.context ? `${entry.context}: ` : ''}${entry.msg ?? line}`);
  }
}
