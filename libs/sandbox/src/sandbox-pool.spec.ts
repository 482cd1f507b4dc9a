import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SandboxBusyError,
  SandboxCpuError,
  SandboxTimeoutError,
  SandboxUnavailableError,
} from './sandbox-errors.js';
import { SandboxPool } from './sandbox-pool.js';
import type { SandboxSettings } from './sandbox-settings.js';

// The OS sandbox for real: bubblewrap, namespaces, the seccomp filter and the resource limits, with
// a small runner that evaluates the test's code inside (Node built-ins passed in as `m`).

const RUNNER = `
import * as net from 'node:net';
import * as fs from 'node:fs';
import * as cp from 'node:child_process';
import * as wt from 'node:worker_threads';
import * as os from 'node:os';
const m = { net, fs, cp, wt, os };
const AsyncFunction = (async () => {}).constructor;
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = (message) => channel.write(JSON.stringify(message) + '\\n');
let pending = '';
channel.setEncoding('utf8');
channel.on('data', (chunk) => {
  pending += chunk;
  for (let i = pending.indexOf('\\n'); i !== -1; i = pending.indexOf('\\n')) {
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    receive(JSON.parse(line));
  }
});
channel.on('end', () => process.exit(0));
async function receive(message) {
  if (message.type === 'effect-result') return void waiting.get(message.rid)?.(message.value);
  if (message.type !== 'call') return;
  try {
    const value = await new AsyncFunction('m', 'effect', 'send', message.call.source)(m, effect, send);
    send({ type: 'result', id: message.id, ok: true, value: value ?? null });
  } catch (error) {
    send({ type: 'result', id: message.id, ok: false, error: (error && error.code) || String(error) });
  }
}
const waiting = new Map();
let rid = 0;
function effect(payload) {
  const id = ++rid;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    send({ type: 'effect', rid: id, payload });
  });
}
`;

let dir: string;
let runnerFile: string;
const pools: SandboxPool[] = [];

function settings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  return {
    mode: 'bubblewrap',
    memoryMb: 192,
    tmpMb: 2,
    cpuMsPerCall: 1_500,
    idleCpuMs: 250,
    maxLive: 4,
    waitMs: 2_000,
    uidBase: 2_000_000,
    uidCount: 1_000_000,
    dir: join(dir, 'sandboxes'),
    bwrapPath: 'bwrap',
    ...overrides,
  };
}

const effects: unknown[] = [];
/** The pid of each sandbox started, by key, from the pool's 'sandbox started' log lines. */
const pids = new Map<string, number>();
/** The pool's warnings (message and fields). */
const warnings: { message: string; fields: object }[] = [];
function pool(overrides: Partial<SandboxSettings> = {}): SandboxPool {
  const created = new SandboxPool({
    settings: settings(overrides),
    runnerFile,
    onEffect: async (key, effect) => {
      effects.push({ key, payload: effect.payload });
      return { echoed: effect.payload, key };
    },
    logger: {
      log: (fields, message) => {
        const { sandbox, pid } = fields as { sandbox?: string; pid?: number };
        if (message === 'sandbox started' && sandbox && pid) pids.set(sandbox, pid);
      },
      warn: (fields, message) => warnings.push({ message, fields }),
    },
  });
  pools.push(created);
  return created;
}

const run = (p: SandboxPool, key: string, source: string, timeoutMs = 10_000) =>
  p.call(key, () => ({ source }), timeoutMs);

/** The error a call fails with (its message), or 'resolved: <value>'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    return `resolved: ${JSON.stringify(await promise)}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** CPU time (user + system) of a process in clock ticks (proc(5) fields 14 and 15); null once it is gone. */
function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
const TICKS_PER_SECOND = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop the code leaves running after it returns: 5 ms of CPU per turn of the event loop. */
const BACKGROUND_LOOP = `
  globalThis.spins = 0;
  const spin = () => { const end = Date.now() + 5; while (Date.now() < end); globalThis.spins++; setImmediate(spin); };
  setImmediate(spin);
  setTimeout(function again() { globalThis.spins++; setTimeout(again, 0); }, 0);
  return 'started';`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-spec-'));
  chmodSync(dir, 0o755); // the sandboxes' users must be able to reach their folders below it
  runnerFile = join(dir, 'runner.mjs');
  writeFileSync(runnerFile, RUNNER);
});

afterAll(async () => {
  for (const p of pools) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bubblewrap sandbox', () => {
  let sandboxes: SandboxPool;
  let listener: Server;
  let port: number;

  beforeAll(async () => {
    sandboxes = pool();
    await sandboxes.check();
    listener = createServer((socket) => socket.end('reached')).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    port = (listener.address() as { port: number }).port;
  });

  afterAll(() => {
    listener?.close();
  });

  it('runs code and answers its effects over IPC, for the sandbox that asked', async () => {
    const value = await run(sandboxes, 'project-a', `return await effect({ add: [1, 2] });`);
    expect(value).toEqual({ echoed: { add: [1, 2] }, key: 'project-a' });
  });

  it('runs as a user id of its own, not root, outside the namespace too', async () => {
    const inside = (await run(sandboxes, 'project-a', 'return process.getuid();')) as number;
    expect(inside).not.toBe(0);
    const pids = (await run(sandboxes, 'project-a', 'return process.pid;')) as number;
    expect(pids).toBe(1); // its own PID namespace
    if (process.getuid?.() === 0) expect(inside).toBeGreaterThanOrEqual(2_000_000);
  });

  it('has no network: a listener on the host loopback and outside addresses are unreachable', async () => {
    const connect = (host: string) => `
      return await new Promise((resolve) => {
        const s = m.net.connect(${port}, '${host}');
        s.on('data', (d) => resolve('reached: ' + d));
        s.on('error', (e) => resolve(e.code));
      });`;
    for (const host of ['127.0.0.1', '::1', '1.1.1.1']) {
      const result = await outcome(run(sandboxes, 'project-a', connect(host)));
      expect(result).not.toContain('reached');
    }
  });

  it("sees neither the host's environment nor its files", async () => {
    const env = await run(sandboxes, 'project-a', 'return process.env;');
    expect(
      Object.keys(env as object).filter(
        (k) => !k.startsWith('NODE_CHANNEL') && k !== 'UV_THREADPOOL_SIZE' && k !== 'PWD',
      ),
    ).toEqual([]);
    const environ = await outcome(
      run(sandboxes, 'project-a', `return m.fs.readFileSync('/proc/1/environ', 'utf8');`),
    );
    expect(environ).not.toContain('PATH=');
    for (const path of ['/etc/passwd', runnerFile, `/proc/${process.pid}/environ`, process.cwd()]) {
      expect(
        await outcome(run(sandboxes, 'project-a', `return m.fs.readdirSync('${path}').length;`)),
      ).not.toMatch(/^resolved/);
      expect(
        await outcome(run(sandboxes, 'project-a', `return m.fs.readFileSync('${path}', 'utf8').length;`)),
      ).not.toMatch(/^resolved/);
    }
  });

  it('writes only to its own size-capped /tmp', async () => {
    expect(
      await outcome(run(sandboxes, 'project-a', `m.fs.writeFileSync('/app/x', 'x'); return 'wrote';`)),
    ).toMatch(/ERR_ACCESS_DENIED|EROFS/);
    expect(
      await run(
        sandboxes,
        'project-a',
        `m.fs.writeFileSync('/tmp/x', 'x'); return m.fs.readFileSync('/tmp/x', 'utf8');`,
      ),
    ).toBe('x');
    const fill = await outcome(
      run(
        sandboxes,
        'project-a',
        `const chunk = Buffer.alloc(1 << 20); for (let i = 0; i < 64; i++) m.fs.writeFileSync('/tmp/f' + i, chunk); return 'filled';`,
      ),
    );
    expect(fill).toMatch(/ENOSPC|EFBIG|ERR_FS_FILE_TOO_LARGE/);
  });

  it('cannot start processes or workers, nor fork at all', async () => {
    for (const source of [
      `return m.cp.execSync('id').toString();`,
      `return m.cp.spawnSync('/usr/bin/node', ['-e', '1']).status;`,
      `return await new Promise((resolve, reject) => { const w = new m.wt.Worker('1', { eval: true }); w.on('error', reject); w.on('exit', resolve); });`,
    ]) {
      expect(await outcome(run(sandboxes, 'project-a', source))).not.toMatch(/^resolved/);
    }
    // Below Node's permission model: the seccomp filter refuses a raw fork (process.binding is gone
    // under --permission, so the kernel-level check is exercised by the filter's own spec).
  });

  it('cannot allocate past its memory limit; the next call gets a fresh sandbox', async () => {
    const big = await outcome(
      run(sandboxes, 'project-b', 'const b = new ArrayBuffer(1024 * 1024 * 1024); return b.byteLength;'),
    );
    expect(big).not.toMatch(/^resolved/);
    const many = await outcome(
      run(
        sandboxes,
        'project-b',
        'const all = []; for (let i = 0; i < 64; i++) all.push(new Uint8Array(16 * 1024 * 1024).fill(1)); return all.length;',
      ),
    );
    expect(many).not.toMatch(/^resolved/);
    expect(await run(sandboxes, 'project-b', 'return 42;')).toBe(42);
  });

  it('ends a call over its wall-clock budget and one over its CPU budget', async () => {
    await expect(
      run(sandboxes, 'project-c', 'await new Promise(() => undefined);', 500),
    ).rejects.toBeInstanceOf(SandboxTimeoutError);
    await expect(run(sandboxes, 'project-c', 'for (;;) {}', 60_000)).rejects.toBeInstanceOf(SandboxCpuError);
    expect(await run(sandboxes, 'project-c', 'return "alive";')).toBe('alive');
  });
});

describe('the pool', () => {
  it('keeps at most maxLive sandboxes, ending the least recently used idle one', async () => {
    const p = pool({ maxLive: 2 });
    await run(p, 'one', 'return 1;');
    await run(p, 'two', 'return 2;');
    await run(p, 'one', 'return 1;');
    await run(p, 'three', 'return 3;');
    expect(p.live).toBe(2);
    // "two" was the least recently used: "one" still has its state.
    await run(p, 'one', 'globalThis.mark = "kept"; return 1;');
    expect(await run(p, 'one', 'return globalThis.mark;')).toBe('kept');
  });

  it('makes a call wait for a busy sandbox, then fails it with a clear error', async () => {
    const p = pool({ maxLive: 1, waitMs: 300 });
    await p.check();
    const slow = run(p, 'busy', 'await new Promise((r) => setTimeout(r, 1500)); return "done";');
    await new Promise((r) => setTimeout(r, 100));
    await expect(run(p, 'other', 'return 1;')).rejects.toBeInstanceOf(SandboxBusyError);
    expect(await slow).toBe('done');
    expect(await run(p, 'other', 'return 1;')).toBe(1);
  });

  it('refuses to run code when bubblewrap cannot start, saying why and how to choose otherwise', async () => {
    const p = pool({ bwrapPath: join(dir, 'no-such-bwrap') });
    const error = await run(p, 'x', 'return 1;').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toContain('PROJECT_CODE_SANDBOX=process');
  });

  it('ends a sandbox that sends a message over the size limit, and starts a fresh one next', async () => {
    const p = pool({ memoryMb: 512 });
    const huge = run(
      p,
      'flood',
      `send({ type: 'result', id: 0, ok: true, value: 'x'.repeat(20 * 1024 * 1024) }); await new Promise(() => undefined);`,
    );
    expect(await outcome(huge)).toMatch(/over 8 MB/);
    expect(await run(p, 'flood', 'return "fresh";')).toBe('fresh');
  });

  it("logs a sandbox's output only up to a budget, so a print loop cannot flood the host's logs", async () => {
    const logged: string[] = [];
    const warned: string[] = [];
    const p = new SandboxPool({
      settings: settings(),
      runnerFile,
      onEffect: () => Promise.resolve(null),
      logger: {
        log: (fields) => logged.push((fields as { output?: string }).output ?? ''),
        warn: (_fields, message) => warned.push(message),
      },
    });
    pools.push(p);
    // 2 MB of output; the budget is 64 KB a minute.
    await run(p, 'chatty', `for (let i = 0; i < 4000; i++) console.log('x'.repeat(500)); return 'printed';`);
    // The output reaches the host on its own stream, and the sandbox is stopped between calls: give
    // it calls until the budget's warning arrives (a loaded machine may need more than one).
    while (warned.length === 0) {
      await run(p, 'chatty', 'await new Promise((r) => setTimeout(r, 100)); return 1;');
    }
    const bytes = logged.reduce((sum, line) => sum + line.length, 0);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(warned).toContain(
      'project code prints more than its output budget; dropping the rest of this minute',
    );
  });

  it.each(['bubblewrap', 'process'] as const)(
    '(%s) gives a sandbox no CPU between calls: a loop its code left running waits for the next call',
    async (mode) => {
      const p = pool({ mode });
      const key = `background-${mode}`;
      expect(await run(p, key, BACKGROUND_LOOP)).toBe('started');
      const pid = pids.get(key)!;
      expect(pid).toBeGreaterThan(0);
      // CPU time over a pause after the call returned, as a share of the pause (not a bound on time).
      const before = cpuTicks(pid)!;
      const startedAt = Date.now();
      await sleep(1_500);
      const used = cpuTicks(pid)! - before;
      const elapsedTicks = ((Date.now() - startedAt) * TICKS_PER_SECOND) / 1000;
      expect(used / elapsedTicks).toBeLessThan(0.2);
      // The loop runs on during the next call: its timers fire late, not never.
      const spins = (await run(p, key, 'return globalThis.spins;')) as number;
      const later = (await run(
        p,
        key,
        'await new Promise((r) => setTimeout(r, 200)); return globalThis.spins;',
      )) as number;
      expect(later).toBeGreaterThan(spins);
      expect(cpuTicks(pid)).not.toBeNull();
    },
  );

  it('ends a sandbox that uses CPU between calls when it cannot be stopped, and the next call works', async () => {
    const p = pool({ idleCpuMs: 50 });
    expect(await run(p, 'unstoppable', BACKGROUND_LOOP)).toBe('started');
    const pid = pids.get('unstoppable')!;
    // A stop that did not hold (it cannot fail in this sandbox, so the test resumes the process from
    // outside): the loop burns CPU while idle, which ends the sandbox.
    for (let tries = 0; cpuTicks(pid) !== null && tries < 600; tries++) {
      process.kill(pid, 'SIGCONT');
      await sleep(100);
    }
    expect(cpuTicks(pid)).toBeNull();
    expect(warnings.map((w) => w.message)).toContain('sandbox used CPU between calls; ended');
    expect(await run(p, 'unstoppable', 'return "fresh";')).toBe('fresh');
  });

  it('runs code in a plain process only when that is chosen explicitly', async () => {
    const p = pool({ mode: 'process' });
    expect(await run(p, 'plain', 'return process.pid === 1;')).toBe(false);
  });
});
