/**
 * Project code of the hostile-tenant suite, deployed three times (as `api/_attacks.ts`,
 * `hooks/attacks.ts` and `jobs/_attacks.ts`, since each folder imports within itself only). Each
 * attack tries one thing a tenant must never manage and says what happened: `succeeded` is true when
 * the forbidden thing worked; `detail` is what the code saw (the error it received, or what it got).
 * Details never carry what was read, only its size or names, so a leak stays out of the test log.
 *
 * The targets come from the deployment's .env, written by the test at run time (addresses, ports,
 * paths of the machine it runs on): nothing here names a machine.
 */
import { reply, type PlatformContext } from '@suite/platform-sdk';
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import * as fs from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';

export type Where = 'route' | 'hook' | 'job';

export interface Outcome {
  attack: string;
  where: Where;
  succeeded: boolean;
  detail: string;
  /** Response headers the attack asks its route to send (cookie and header attacks). */
  headers?: Record<string, string | string[]>;
}

interface Result {
  succeeded: boolean;
  detail: string;
  headers?: Record<string, string | string[]>;
}

type Ctx = PlatformContext;
type Attack = (ctx: Ctx, where: Where) => Promise<Result>;

/**
 * How an attack is run: `parallel` ones run side by side; `alone` ones may end their sandbox (or
 * fill what the sandbox shares), so they run one at a time and the next call must work; `last`
 * ones spend a budget the others need (the project's job rate), so they come after everything.
 */
export type Phase = 'parallel' | 'alone' | 'last';

const escaped = (detail: string, headers?: Result['headers']): Result => ({
  succeeded: true,
  detail,
  headers,
});
const held = (detail: string, headers?: Result['headers']): Result => ({ succeeded: false, detail, headers });

/** `CODE: message` of what the code received, short. */
export function errorText(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return `${code}: ${message.split('\n')[0]}`.slice(0, 240);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const list = (value: string | undefined) => (value ?? '').split(',').filter(Boolean);
const MB = 1024 * 1024;
/** `process.binding`: deprecated and untyped, yet still there for whoever asks. */
const binding = (name: string) => (process as unknown as { binding(name: string): unknown }).binding(name);

// ---------------------------------------------------------------------------------------------
// Network: the sandbox has none (a connection attempt fails at once); the host's services and
// the outside world must be out of reach.
// ---------------------------------------------------------------------------------------------

/** `connected`, the error the code got, or `no answer` after 3 s. */
function tcp(target: { host: string; port: number } | { path: string }): Promise<string> {
  return new Promise((resolve) => {
    let socket: ReturnType<typeof connect> | undefined;
    const done = (what: string) => {
      clearTimeout(timer);
      socket?.destroy();
      resolve(what);
    };
    const timer = setTimeout(() => done('no answer within 3 s'), 3_000);
    try {
      socket = connect(target);
      socket.once('connect', () => done('connected'));
      socket.once('error', (error) => done(errorText(error)));
    } catch (error) {
      done(errorText(error));
    }
  });
}

async function connectAll(targets: { label: string; target: Parameters<typeof tcp>[0] }[]): Promise<Result> {
  if (targets.length === 0) return held('no such address on this machine');
  const results = await Promise.all(targets.map(async (t) => `${t.label} ${await tcp(t.target)}`));
  const detail = results.join('; ');
  return results.some((r) => r.endsWith(' connected')) ? escaped(detail) : held(detail);
}

const hostPort = (address: string, port: number) => ({
  label: `${address.includes(':') ? `[${address}]` : address}:${port}`,
  target: { host: address, port },
});

// ---------------------------------------------------------------------------------------------
// Reading what is not the project's: other processes, the host's files and environment.
// ---------------------------------------------------------------------------------------------

/** Reads a file; the detail says how much was read, never what. */
function tryRead(
  path: string | Buffer | URL,
): { ok: true; bytes: number; text: string } | { ok: false; error: string } {
  try {
    const text = fs.readFileSync(path, 'utf8');
    return { ok: true, bytes: Buffer.byteLength(text), text };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

function readFiles(paths: string[]): Result {
  const results = paths.map((path) => ({ path, read: tryRead(path) }));
  const detail = results
    .map(({ path, read }) => `${path}: ${read.ok ? `read ${read.bytes} bytes` : read.error}`)
    .join('; ');
  return results.some((r) => r.read.ok) ? escaped(detail) : held(detail);
}

/** Another process's environment: anything but this sandbox's own variables is a leak. */
function foreignEnviron(path: string): Result {
  const read = tryRead(path);
  if (!read.ok) return held(`${path}: ${read.error}`);
  const own = new Set(Object.entries(process.env).map(([k, v]) => `${k}=${v}`));
  const foreign = read.text.split('\0').filter((entry) => entry && !own.has(entry));
  if (foreign.length === 0) return held(`${path}: readable, but only this sandbox's own (empty) environment`);
  const names = foreign.map((entry) => entry.split('=')[0]).slice(0, 12);
  return escaped(`${path}: read ${foreign.length} variables of another process (${names.join(', ')})`);
}

/** Files under `dir` (depth ≤ 3, ≤ 400 files) that contain one of `needles`. */
function search(dirs: string[], needles: string[]): { searched: number; found: string[]; errors: string[] } {
  const found: string[] = [];
  const errors: string[] = [];
  let searched = 0;
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      errors.push(`${dir}: ${errorText(error)}`);
      return;
    }
    for (const entry of entries) {
      if (searched >= 400) return;
      const path = `${dir === '/' ? '' : dir}/${entry.name}`;
      if (entry.isDirectory() && depth < 3) walk(path, depth + 1);
      if (!entry.isFile()) continue;
      searched++;
      try {
        if (fs.statSync(path).size > 4 * MB) continue;
        const text = fs.readFileSync(path, 'utf8');
        if (needles.some((needle) => text.includes(needle))) found.push(path);
      } catch {
        // unreadable: nothing found there
      }
    }
  };
  for (const dir of dirs) walk(dir, 0);
  return { searched, found, errors };
}

/** The folder this sandbox runs from (its runner), and where it was started. */
function ownFolders(): string[] {
  const folders = new Set<string>();
  if (process.argv[1]) folders.add(dirname(process.argv[1]));
  try {
    folders.add(process.cwd());
  } catch {
    // no working directory
  }
  return [...folders];
}

// ---------------------------------------------------------------------------------------------
// Writing outside /tmp, and /tmp itself.
// ---------------------------------------------------------------------------------------------

function tryWrites(paths: string[]): Result {
  const results = paths.map((path) => {
    try {
      fs.writeFileSync(path, 'hostile tenant was here');
      fs.rmSync(path, { force: true });
      return { path, wrote: true, what: 'written' };
    } catch (error) {
      return { path, wrote: false, what: errorText(error) };
    }
  });
  const detail = results.map((r) => `${r.path}: ${r.what}`).join('; ');
  return results.some((r) => r.wrote) ? escaped(detail) : held(detail);
}

const marker = (env: Record<string, string>, where: Where) => `/tmp/hostile-${env.WRITE_TAG}-${where}`;

// ---------------------------------------------------------------------------------------------
// SQL through ctx.db: the project's own role, on its own database only.
// ---------------------------------------------------------------------------------------------

async function sql(
  ctx: Ctx,
  text: string,
): Promise<{ ok: true; rows: number } | { ok: false; error: string }> {
  try {
    const result = await ctx.db.query(text);
    return { ok: true, rows: result.rowCount };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.slice(0, 240) : String(error) };
  }
}

/** Each statement must fail; one that runs is an escape. */
async function statements(ctx: Ctx, texts: string[]): Promise<Result> {
  const results: { text: string; ran: boolean; what: string }[] = [];
  for (const text of texts) {
    const result = await sql(ctx, text);
    results.push({ text, ran: result.ok, what: result.ok ? `ran (${result.rows} rows)` : result.error });
  }
  // Whatever an attempt changed on a pooled connection goes back to the role's defaults.
  await sql(ctx, 'reset role');
  await sql(ctx, 'reset search_path');
  const detail = results.map((r) => `${r.text} → ${r.what}`).join('; ');
  return results.some((r) => r.ran) ? escaped(detail) : held(detail);
}

const ident = (name: string | undefined) => `"${(name ?? '').replace(/"/g, '""')}"`;

// ---------------------------------------------------------------------------------------------
// The attacks.
// ---------------------------------------------------------------------------------------------

const ATTACKS: Record<string, { phase: Phase; routeOnly?: boolean; run: Attack }> = {
  // --- network ---
  'net.postgres-loopback': {
    phase: 'parallel',
    run: ({ env }) => connectAll(['127.0.0.1', '::1'].map((a) => hostPort(a, Number(env.PG_PORT)))),
  },
  'net.redis-loopback': {
    phase: 'parallel',
    run: ({ env }) => connectAll(['127.0.0.1', '::1'].map((a) => hostPort(a, Number(env.REDIS_PORT)))),
  },
  'net.postgres-other-addresses': {
    phase: 'parallel',
    run: ({ env }) => connectAll(list(env.HOST_ADDRESSES).map((a) => hostPort(a, Number(env.PG_PORT)))),
  },
  'net.redis-other-addresses': {
    phase: 'parallel',
    run: ({ env }) => connectAll(list(env.HOST_ADDRESSES).map((a) => hostPort(a, Number(env.REDIS_PORT)))),
  },
  'net.postgres-unix-socket': {
    phase: 'parallel',
    run: ({ env }) =>
      connectAll(
        list(env.PG_SOCKET_DIRS).map((dir) => {
          const path = `${dir}/.s.PGSQL.${env.PG_PORT}`;
          return { label: path, target: { path } };
        }),
      ),
  },
  'net.project-host': {
    phase: 'parallel',
    run: ({ env }) => connectAll([hostPort('127.0.0.1', Number(env.HOST_PORT))]),
  },
  'net.fetch-project-host': {
    phase: 'parallel',
    run: async ({ env }) => {
      try {
        const res = await fetch(`http://127.0.0.1:${env.HOST_PORT}/health`, {
          signal: AbortSignal.timeout(3_000),
        });
        return escaped(`fetch answered HTTP ${res.status}`);
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        return held(`${errorText(error)}${cause ? ` (${errorText(cause)})` : ''}`);
      }
    },
  },
  'net.outside': {
    phase: 'parallel',
    run: ({ env }) => {
      const [address = '', port = '443'] = (env.OUTSIDE ?? '').split(/:(?=\d+$)/);
      return connectAll([hostPort(address, Number(port))]);
    },
  },
  'net.dns': {
    phase: 'parallel',
    run: async () => {
      const answer = await Promise.race([
        lookup('example.com').then(
          (found) => `resolved to an address (${found.family === 6 ? 'IPv6' : 'IPv4'})`,
          (error: unknown) => errorText(error),
        ),
        delay(3_000).then(() => 'no answer within 3 s'),
      ]);
      return answer.startsWith('resolved') ? escaped(answer) : held(answer);
    },
  },
  // Whether the datagram arrived is for the test's listener to say.
  'net.udp-loopback': {
    phase: 'parallel',
    run: ({ env }, where) =>
      new Promise((resolve) => {
        try {
          const socket = createSocket('udp4');
          socket.once('error', (error) => resolve(held(errorText(error))));
          socket.send(`hostile ${env.WRITE_TAG} ${where}`, Number(env.UDP_PORT), '127.0.0.1', (error) => {
            socket.close();
            resolve(held(error ? errorText(error) : 'sent'));
          });
        } catch (error) {
          resolve(held(errorText(error)));
        }
      }),
  },

  // --- other processes and the host ---
  'proc.parent-environ': {
    phase: 'parallel',
    run: async () => foreignEnviron(`/proc/${process.ppid}/environ`),
  },
  'proc.init-environ': { phase: 'parallel', run: async () => foreignEnviron('/proc/1/environ') },
  'proc.host-environ': {
    phase: 'parallel',
    run: async ({ env }) => foreignEnviron(`/proc/${env.HOST_PID}/environ`),
  },
  'proc.list-host': {
    phase: 'parallel',
    run: async ({ env }) => {
      try {
        const pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
        return pids.includes(String(env.HOST_PID))
          ? escaped(`/proc lists the host's process among ${pids.length}`)
          : held(`/proc lists ${pids.length} processes, not the host's`);
      } catch (error) {
        return held(errorText(error));
      }
    },
  },
  'proc.signal-host': {
    phase: 'parallel',
    run: async ({ env }) => {
      try {
        // Signal 0 only asks whether the process can be signalled; nothing is sent.
        process.kill(Number(env.HOST_PID), 0);
        return escaped('the host process can be signalled (kill would have worked)');
      } catch (error) {
        return held(errorText(error));
      }
    },
  },
  'env.host': {
    phase: 'parallel',
    run: async ({ env }) => {
      const leaked = list(env.HOST_ENV_NAMES).filter((name) => name in process.env);
      const count = Object.keys(process.env).length;
      return leaked.length
        ? escaped(`process.env holds the host's ${leaked.join(', ')}`)
        : held(`process.env has ${count} variables, none of the host's`);
    },
  },

  // --- the host's files ---
  'file.etc-passwd': { phase: 'parallel', run: async () => readFiles(['/etc/passwd']) },
  'file.permission-tricks': {
    phase: 'parallel',
    run: async ({ env }, where) => {
      const tries: [string, () => string | Promise<string>][] = [
        ['traversal', () => fs.readFileSync(`${ownFolders()[0]}/${'../'.repeat(16)}etc/passwd`, 'utf8')],
        ['Buffer path', () => fs.readFileSync(Buffer.from('/etc/passwd'), 'utf8')],
        ['file: URL', () => fs.readFileSync(new URL('file:///etc/passwd'), 'utf8')],
        ['fs.promises', () => fs.promises.readFile('/etc/passwd', 'utf8')],
        [
          'open + read',
          () => {
            const fd = fs.openSync('/etc/passwd', 'r');
            const buffer = Buffer.alloc(4096);
            const n = fs.readSync(fd, buffer);
            fs.closeSync(fd);
            return buffer.subarray(0, n).toString();
          },
        ],
        [
          'symlink in /tmp',
          () => {
            const link = `/tmp/hostile-link-${env.WRITE_TAG}-${where}`;
            fs.rmSync(link, { force: true });
            fs.symlinkSync('/etc/passwd', link);
            try {
              return fs.readFileSync(link, 'utf8');
            } finally {
              fs.rmSync(link, { force: true });
            }
          },
        ],
        ['process.binding fs', () => String(Object.keys(binding('fs') as object).length)],
      ];
      const results: string[] = [];
      let read = false;
      for (const [label, attempt] of tries) {
        try {
          const text = await attempt();
          read = true;
          results.push(`${label}: read ${text.length} characters`);
        } catch (error) {
          results.push(`${label}: ${errorText(error)}`);
        }
      }
      return read ? escaped(results.join('; ')) : held(results.join('; '));
    },
  },
  'file.repository': {
    phase: 'parallel',
    run: async ({ env }) => readFiles([`${env.REPO}/package.json`, `${env.REPO}/pnpm-workspace.yaml`]),
  },
  'file.platform-secrets': {
    phase: 'parallel',
    run: async ({ env }) => readFiles([`${env.DATA_DIR}/secrets.json`, `${env.DATA_DIR}/${env.DATA_CANARY}`]),
  },
  'file.host-tmp': { phase: 'parallel', run: async ({ env }) => readFiles([String(env.TMP_CANARY)]) },
  'file.neighbour-code': {
    phase: 'parallel',
    run: async ({ env }) => {
      const dirs = [...ownFolders(), '/app', '/tmp'];
      const { searched, found, errors } = search(dirs, list(env.NEIGHBOUR_CANARIES));
      return found.length
        ? escaped(`another project's code or .env is readable: ${found.join(', ')}`)
        : held(
            `searched ${searched} files in ${dirs.join(', ')}; not found${errors.length ? ` (${errors.join('; ')})` : ''}`,
          );
    },
  },

  // --- writing ---
  'write.repository': {
    phase: 'parallel',
    run: async ({ env }, where) =>
      tryWrites([
        `${env.REPO}/hostile-${env.WRITE_TAG}-${where}`,
        `${env.DATA_DIR}/hostile-${env.WRITE_TAG}-${where}`,
      ]),
  },
  'write.sandbox-folder': {
    phase: 'parallel',
    run: async ({ env }, where) =>
      tryWrites(ownFolders().map((dir) => `${dir}/hostile-${env.WRITE_TAG}-${where}`)),
  },
  'write.system': {
    phase: 'parallel',
    run: async ({ env }, where) =>
      tryWrites([`/var/tmp/hostile-${env.WRITE_TAG}-${where}`, `/dev/shm/hostile-${env.WRITE_TAG}-${where}`]),
  },
  // Left in place: the test looks for it in the host's /tmp, and tmp.peek in the other projects'.
  'tmp.marker': {
    phase: 'parallel',
    run: async ({ env }, where) => {
      try {
        fs.writeFileSync(marker(env, where), where);
        return held("written to this sandbox's /tmp (the test looks for it in the host's /tmp)");
      } catch (error) {
        return held(errorText(error));
      }
    },
  },
  'tmp.peek': {
    phase: 'alone',
    run: async ({ env }, where) => {
      try {
        const others = fs
          .readdirSync('/tmp')
          .filter((name) => name.startsWith(`hostile-${env.WRITE_TAG}-`) && !name.endsWith(`-${where}`));
        return others.length
          ? escaped(`sees other projects' /tmp files: ${others.join(', ')}`)
          : held("sees no other project's /tmp file");
      } catch (error) {
        return held(errorText(error));
      }
    },
  },
  'tmp.fill': {
    phase: 'alone',
    run: async () => {
      const LIMIT_MB = 256;
      const chunk = Buffer.alloc(MB, 7);
      const files: string[] = [];
      let written = 0;
      let stop: string | undefined;
      try {
        while (written < LIMIT_MB * MB) {
          const path = `/tmp/hostile-fill-${files.length}`;
          files.push(path);
          fs.writeFileSync(path, chunk);
          written += chunk.length;
        }
      } catch (error) {
        stop = errorText(error);
      } finally {
        for (const path of files) fs.rmSync(path, { force: true });
      }
      const mb = Math.round(written / MB);
      return stop
        ? held(`stopped after ${mb} MB: ${stop}`)
        : escaped(`wrote ${mb} MB to /tmp without meeting a cap (${LIMIT_MB} MB counts as none)`);
    },
  },

  // --- processes ---
  'spawn.child-process': {
    phase: 'alone',
    run: async () => {
      const results: string[] = [];
      let ran = false;
      for (const [label, command, args] of [
        ['node', process.execPath, ['-e', 'process.stdout.write("spawned")']],
        ['/bin/sh', '/bin/sh', ['-c', 'echo spawned']],
      ] as const) {
        try {
          const result = spawnSync(command, args, { encoding: 'utf8', timeout: 3_000 });
          if (result.error) throw result.error;
          ran ||= result.stdout.includes('spawned');
          results.push(
            `${label}: exit ${result.status}, ${result.stdout.includes('spawned') ? 'ran' : 'no output'}`,
          );
        } catch (error) {
          results.push(`${label}: ${errorText(error)}`);
        }
      }
      return ran ? escaped(results.join('; ')) : held(results.join('; '));
    },
  },
  'spawn.process-binding': {
    phase: 'alone',
    run: async () => {
      try {
        const spawnSyncBinding = binding('spawn_sync') as {
          spawn(options: object): { pid?: number; status?: number | null; error?: number };
        };
        const result = spawnSyncBinding.spawn({
          file: process.execPath,
          args: [process.execPath, '-e', '0'],
          envPairs: [],
          stdio: [
            { type: 'pipe', readable: true, writable: false },
            { type: 'pipe', readable: false, writable: true },
            { type: 'pipe', readable: false, writable: true },
          ],
          detached: false,
          windowsHide: false,
          windowsVerbatimArguments: false,
          killSignal: 15,
          timeout: 3_000,
          maxBuffer: MB,
        });
        return result.pid && !result.error
          ? escaped(`spawned a process (pid ${result.pid}, status ${result.status})`)
          : held(`spawn_sync refused: errno ${result.error}`);
      } catch (error) {
        return held(errorText(error));
      }
    },
  },
  'spawn.worker': {
    phase: 'alone',
    run: () =>
      new Promise((resolve) => {
        try {
          const worker = new Worker(`require('node:worker_threads').parentPort.postMessage('up')`, {
            eval: true,
          });
          const end = (result: Result) => {
            clearTimeout(timer);
            void worker.terminate().catch(() => undefined);
            resolve(result);
          };
          const timer = setTimeout(() => end(held('the worker never started (3 s)')), 3_000);
          worker.once('message', () => end(escaped('a Worker thread ran code')));
          worker.once('error', (error) => end(held(errorText(error))));
        } catch (error) {
          resolve(held(errorText(error)));
        }
      }),
  },
  // Bounded on purpose: if it escaped, 32 short-lived processes are all it could start.
  'spawn.fork-bomb': {
    phase: 'alone',
    run: async () => {
      const started: ReturnType<typeof spawn>[] = [];
      let refusal: string | undefined;
      for (let i = 0; i < 32 && !refusal; i++) {
        try {
          const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 3000)'], { stdio: 'ignore' });
          const outcome = await new Promise<string | undefined>((resolve) => {
            child.once('spawn', () => resolve(undefined));
            child.once('error', (error) => resolve(errorText(error)));
          });
          if (outcome) refusal = outcome;
          else started.push(child);
        } catch (error) {
          refusal = errorText(error);
        }
      }
      for (const child of started) child.kill('SIGKILL');
      return started.length
        ? escaped(`started ${started.length} processes${refusal ? `, then ${refusal}` : ''}`)
        : held(`no process started: ${refusal}`);
    },
  },
  'native.dlopen': {
    phase: 'alone',
    run: async () => {
      try {
        process.dlopen({ exports: {} } as NodeJS.Module, '/tmp/hostile-addon.node');
        return escaped('a native addon loaded');
      } catch (error) {
        const text = errorText(error);
        // Refused by policy, or the loader itself ran (native code may be loaded).
        return /ERR_DLOPEN_DISABLED|ERR_ACCESS_DENIED/.test(text)
          ? held(text)
          : escaped(`native addons are enabled (${text})`);
      }
    },
  },

  // --- resources ---
  'mem.array-buffers': {
    phase: 'alone',
    run: async () => {
      const held_: ArrayBuffer[] = [];
      try {
        for (let i = 0; i < 1024; i++) {
          const buffer = new ArrayBuffer(MB);
          new Uint8Array(buffer).fill(1);
          held_.push(buffer);
        }
        return escaped('allocated and touched 1 GB of ArrayBuffers');
      } catch (error) {
        return held(`stopped at ${held_.length} MB: ${errorText(error)}`);
      } finally {
        held_.length = 0;
      }
    },
  },
  'cpu.loop': {
    phase: 'alone',
    run: async () => {
      for (;;) {
        // spins until the host ends the call
      }
    },
  },

  // --- SQL ---
  'sql.platform-auth': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        'select * from platform_auth.users limit 1',
        'select * from platform_auth.sessions limit 1',
        'select count(*) from platform_auth.users',
      ]),
  },
  // Setting the search_path is allowed; reading the platform's tables through it is not.
  'sql.search-path': {
    phase: 'parallel',
    run: async (ctx) => {
      const set = await sql(ctx, 'set search_path to platform_auth, app');
      const reads = await statements(ctx, [
        'select * from users limit 1',
        'select count(*) from sessions',
        "select set_config('search_path', 'platform_auth', false), (select count(*) from users)",
      ]);
      return { ...reads, detail: `set search_path: ${set.ok ? 'ran' : set.error}; ${reads.detail}` };
    },
  },
  'sql.set-role': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        `set role ${ident(ctx.env.ADMIN_ROLE)}`,
        'set role postgres',
        'set role pg_read_server_files',
        'set role pg_execute_server_program',
        `set session authorization ${ident(ctx.env.ADMIN_ROLE)}`,
        'alter role current_user superuser',
        'alter role current_user createrole',
        'alter role current_user bypassrls',
      ]),
  },
  'sql.other-tenant': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        `set role ${ident(ctx.env.OTHER_ROLE)}`,
        `select * from ${ident(ctx.env.OTHER_DB)}.platform_auth.users limit 1`,
        `select * from ${ident(ctx.env.OTHER_DB)}.app.secrets limit 1`,
        `select * from ${ident(ctx.env.MAIN_DB)}.public.projects limit 1`,
        `grant ${ident(ctx.env.OTHER_ROLE)} to current_user`,
      ]),
  },
  'sql.extensions': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        'create extension if not exists dblink',
        'create extension if not exists postgres_fdw',
        'create extension if not exists file_fdw',
        `select dblink_connect('dbname=${ctx.env.OTHER_DB}')`,
      ]),
  },
  'sql.server-files': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        "select pg_read_file('/etc/passwd')",
        "select pg_read_binary_file('/etc/passwd')",
        "select pg_ls_dir('.')",
        "select lo_import('/etc/passwd')",
        "select pg_stat_file('/etc/passwd')",
        "copy (select 1) to '/tmp/hostile-copy'",
        "copy app.hostile_outcomes (place) from '/etc/passwd'",
      ]),
  },
  'sql.programs': {
    phase: 'parallel',
    run: (ctx) =>
      statements(ctx, [
        "copy (select 1) to program 'true'",
        "create function app.hostile_system(cstring) returns int language c as 'libc.so.6', 'system'",
        "create function app.hostile_py() returns int language plpython3u as 'return 1'",
        'do language plperlu \'system("true")\'',
      ]),
  },
  'sql.catalog-secrets': {
    phase: 'parallel',
    run: async (ctx) => {
      const denied = await statements(ctx, [
        'select rolname, rolpassword from pg_authid',
        'select usename, passwd from pg_shadow',
      ]);
      // Cancelling (the milder of cancel and terminate) a statement of another role's session.
      let cancelled: string;
      try {
        const { rows } = await ctx.db.query<{ n: number }>(
          'select count(*) filter (where pg_cancel_backend(pid))::int as n from pg_stat_activity where usename is not null and usename <> current_user',
        );
        cancelled = `pg_cancel_backend of other roles' sessions: ${rows[0]?.n ?? 0} cancelled`;
        if ((rows[0]?.n ?? 0) > 0) return escaped(`${denied.detail}; ${cancelled}`);
      } catch (error) {
        cancelled = `pg_cancel_backend of other roles' sessions: ${errorText(error)}`;
      }
      // Other roles' sessions are listed, but their statements must stay hidden.
      let visible: string;
      try {
        const { rows } = await ctx.db.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where usename is distinct from current_user and coalesce(query, '') not in ('', '<insufficient privilege>')",
        );
        visible = `${rows[0]?.n ?? 0} statements of other roles visible in pg_stat_activity`;
        if ((rows[0]?.n ?? 0) > 0) return escaped(`${denied.detail}; ${visible}`);
      } catch (error) {
        visible = errorText(error);
      }
      return { ...denied, detail: `${denied.detail}; ${cancelled}; ${visible}` };
    },
  },
  // Ends at the host's statement timeout, whatever the session sets (25 s of sleep counts as none).
  'sql.statement-timeout': {
    phase: 'parallel',
    run: async (ctx) => {
      const steps: string[] = [];
      // Reach every pooled connection at once: the statements overlap, so each takes its own.
      const lift = await Promise.all(
        [1, 2, 3].map(() => sql(ctx, "select set_config('statement_timeout', '0', false), pg_sleep(0.3)")),
      );
      steps.push(`set_config on ${lift.filter((r) => r.ok).length} connections`);
      for (const text of ['SET statement_timeout = 0', 'alter role current_user set statement_timeout = 0']) {
        const result = await sql(ctx, text);
        steps.push(`${text}: ${result.ok ? 'ran' : result.error}`);
      }
      const started = Date.now();
      const sleep = sql(ctx, 'select pg_sleep(600)').then((r) => (r.ok ? 'returned' : r.error));
      const first = await Promise.race([sleep, delay(25_000).then(() => 'still running after 25 s')]);
      const seconds = Math.round((Date.now() - started) / 1000);
      const detail = `pg_sleep(600): ${first} (${seconds} s); ${steps.join('; ')}`;
      return first === 'returned' || first.startsWith('still running') ? escaped(detail) : held(detail);
    },
  },
  'sql.storage-quota': {
    phase: 'alone',
    run: async (ctx, where) => {
      const quota = Number(ctx.env.QUOTA_BYTES);
      if (!quota) return held('no storage quota on this host (the case is off)');
      const table = `app.hostile_fill_${where}`;
      const created = await sql(ctx, `create table if not exists ${table} (data text)`);
      if (!created.ok) return held(`create table: ${created.error}`);
      let written = 0;
      while (written < 2 * quota + 8 * MB) {
        // About 1 MB of random hex per row (random, so compression does not hide it).
        const insert = await sql(
          ctx,
          `insert into ${table} select string_agg(md5(random()::text), '') from generate_series(1, 32768)`,
        );
        if (!insert.ok) {
          await sql(ctx, `drop table if exists ${table}`);
          return held(`refused after ${Math.round(written / MB)} MB: ${insert.error}`);
        }
        written += MB;
      }
      await sql(ctx, `drop table if exists ${table}`);
      return escaped(`wrote ${Math.round(written / MB)} MB past a quota of ${Math.round(quota / MB)} MB`);
    },
  },

  // --- the project's context ---
  'jobs.flood': {
    phase: 'last',
    run: async (ctx) => {
      const TARGET = 100_000;
      const BUDGET_MS = 20_000;
      const started = Date.now();
      let enqueued = 0;
      let refusal: string | undefined;
      const worker = async () => {
        while (!refusal && enqueued < TARGET && Date.now() - started < BUDGET_MS) {
          try {
            // Far in the future: they must not run, only count.
            await ctx.jobs.enqueue('noop', null, { delayMs: 6 * 24 * 3600 * 1000 });
            enqueued++;
          } catch (error) {
            // The sandbox's cap on calls in flight is not a limit on jobs: wait and go on.
            if (/too many context calls at once/.test(errorText(error))) await delay(20);
            else refusal ??= errorText(error);
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      const seconds = Math.round((Date.now() - started) / 1000);
      if (refusal) return held(`refused after ${enqueued} jobs (${seconds} s): ${refusal}`);
      return escaped(`enqueued ${enqueued} of ${TARGET} jobs in ${seconds} s without a refusal`);
    },
  },

  // --- the answer (routes only) ---
  'cookie.parent-domain': {
    phase: 'parallel',
    routeOnly: true,
    run: async ({ env }) =>
      held('asked for cookies of the parent domain (the test reads the answer)', {
        'set-cookie': [
          'own=1; Path=/; HttpOnly',
          `hostile=1; Domain=${env.PARENT_DOMAIN}; Path=/`,
          `hostile2=1; Domain=.${env.PARENT_DOMAIN}; Path=/; Secure`,
          'platform_session=forged; Path=/',
        ],
      }),
  },
  'headers.platform': {
    phase: 'parallel',
    routeOnly: true,
    run: async () =>
      held('asked for headers the platform owns (the test reads the answer)', {
        'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
        'clear-site-data': '"cookies", "storage"',
        'x-accel-redirect': '/internal/secrets',
        'transfer-encoding': 'chunked',
        location: 'javascript:alert(document.cookie)',
      }),
  },

  // --- the next call works ---
  ping: { phase: 'parallel', run: async () => held('pong') },
};

/** Every attack, how it runs, and where. */
export const ATTACK_PLAN = Object.entries(ATTACKS)
  .filter(([name]) => name !== 'ping')
  .map(([name, { phase, routeOnly }]) => ({ name, phase, routeOnly: routeOnly === true }));

/** Runs one attack (`ping:<anything>` answers pong); never throws. */
export async function runAttack(name: string, ctx: Ctx, where: Where): Promise<Outcome> {
  const attack = ATTACKS[name.startsWith('ping:') ? 'ping' : name];
  if (!attack) return { attack: name, where, succeeded: false, detail: 'unknown attack' };
  try {
    return { attack: name, where, ...(await attack.run(ctx, where)) };
  } catch (error) {
    return { attack: name, where, succeeded: false, detail: `threw ${errorText(error)}` };
  }
}

/** The outcomes table of hooks and jobs (created by the route before anything runs). */
export const OUTCOMES_TABLE = `create table if not exists app.hostile_outcomes (
  place text not null, attack text not null, state text not null, outcome jsonb,
  primary key (place, attack))`;

/**
 * For hooks and jobs, which answer nobody: the outcome goes into the project's database. A run
 * that finds its row already there is a retry of one that started (and may have been killed): it
 * does nothing, so a retried hook or job never attacks twice.
 */
export async function runAndRecord(name: string, ctx: Ctx, where: Where): Promise<void> {
  const first = await ctx.db.query(
    "insert into app.hostile_outcomes (place, attack, state) values ($1, $2, 'started') on conflict do nothing",
    [where, name],
  );
  if (first.rowCount === 0) return;
  const outcome = await runAttack(name, ctx, where);
  await ctx.db.query(
    "update app.hostile_outcomes set state = 'done', outcome = $3::jsonb where place = $1 and attack = $2",
    [where, name, outcome],
  );
}

/** The route's answer for an attack: the outcome as JSON, with the headers it asked for. */
export function answer(outcome: Outcome) {
  const { headers, ...body } = outcome;
  return reply(200, body, (headers ?? {}) as Record<string, string>);
}
