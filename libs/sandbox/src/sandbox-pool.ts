import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bubblewrapCommand, canDisableUserns } from './bubblewrap-command.js';
import { nodeRuntime, reachableByOthers, type NodeRuntime } from './node-runtime.js';
import { seccompArch, seccompFilter } from './seccomp-filter.js';
import { SandboxBusyError, SandboxUnavailableError } from './sandbox-errors.js';
import { SandboxProcess, type EffectRequest, type SandboxLogger } from './sandbox-process.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** A sandbox nobody called for this long is ended (it starts again on the next call). */
const IDLE_MS = 5 * 60_000;

export interface SandboxPoolOptions {
  settings: SandboxSettings;
  /** The runner script (plain ESM JavaScript importing Node built-ins only), copied into each sandbox. */
  runnerFile: string;
  /** Performs an effect that the code in sandbox `key` asked for. */
  onEffect: (key: string, effect: EffectRequest) => Promise<unknown>;
  logger: SandboxLogger;
}

/** Taken for a call (synchronously, before anything else can end it as idle). */
function reserved(sandbox: SandboxProcess): SandboxProcess {
  sandbox.reserve();
  return sandbox;
}

/** What the host learnt about running sandboxes here, once, at start. */
type Readiness =
  | { ok: true; runtime: NodeRuntime | null; seccompFile: string | null; ownUids: boolean }
  | { ok: false; error: SandboxUnavailableError };

/**
 * Sandboxes by key (a project), at most `maxLive` at once: a new one ends the least recently used
 * idle one; when every one is busy a call waits up to `waitMs` for one, then fails.
 */
export class SandboxPool {
  private readonly sandboxes = new Map<string, SandboxProcess>();
  private readonly root: string;
  private readonly ready: Promise<Readiness>;
  private readonly waiters = new Set<() => void>();
  private readonly reaper = setInterval(() => this.reapIdle(), 60_000).unref();
  private closed = false;
  private counter = 0;

  constructor(private readonly options: SandboxPoolOptions) {
    const base = options.settings.dir ?? join(tmpdir(), 'suite-sandboxes');
    this.root = join(base, `${process.pid}-${randomBytes(4).toString('hex')}`);
    this.ready = this.prepare(base);
  }

  /** Resolves once the pool knows whether it can run code; rejects with why it cannot. */
  async check(): Promise<void> {
    const ready = await this.ready;
    if (!ready.ok) throw ready.error;
  }

  /** Runs one call in `key`'s sandbox; `build` turns it into the message (e.g. writing modules first). */
  async call(key: string, build: (sandbox: SandboxProcess) => unknown, timeoutMs: number): Promise<unknown> {
    const ready = await this.ready;
    if (!ready.ok) throw ready.error;
    const sandbox = await this.acquire(key, ready);
    try {
      return await sandbox.call(build(sandbox), timeoutMs);
    } finally {
      sandbox.release();
      this.wake();
    }
  }

  /** Ends `key`'s sandbox (after a deploy, so that no stale module stays loaded). */
  restart(key: string): void {
    const sandbox = this.sandboxes.get(key);
    this.sandboxes.delete(key);
    void sandbox?.end().then(() => this.wake());
  }

  /** Whether `key` has a sandbox now. */
  has(key: string): boolean {
    return this.sandboxes.has(key);
  }

  get live(): number {
    return this.sandboxes.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reaper);
    await Promise.all([...this.sandboxes.values()].map((sandbox) => sandbox.end()));
    this.sandboxes.clear();
    rmSync(this.root, { recursive: true, force: true });
  }

  private async acquire(key: string, ready: Extract<Readiness, { ok: true }>): Promise<SandboxProcess> {
    const { maxLive, waitMs } = this.options.settings;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const existing = this.sandboxes.get(key);
      if (existing && !existing.dead) return reserved(existing);
      if (existing) this.sandboxes.delete(key);
      if (this.sandboxes.size < maxLive || this.evictIdle()) return reserved(this.start(key, ready));
      const left = deadline - Date.now();
      if (left <= 0) throw new SandboxBusyError(this.sandboxes.size, waitMs);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** Ends the least recently used idle sandbox; false when every one is busy. */
  private evictIdle(): boolean {
    let oldest: [string, SandboxProcess] | undefined;
    for (const entry of this.sandboxes) {
      if (entry[1].busy) continue;
      if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    }
    if (!oldest) return false;
    this.restart(oldest[0]);
    return true;
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private start(key: string, ready: Extract<Readiness, { ok: true }>): SandboxProcess {
    if (this.closed) throw new SandboxUnavailableError('the host is shutting down');
    const uid = ready.ownUids ? this.uidOf(key) : undefined;
    const appDir = this.makeAppDir(uid);
    const sandbox = new SandboxProcess({
      key,
      appDir,
      runner: 'runner.mjs',
      settings: this.options.settings,
      bubblewrap:
        ready.runtime && ready.seccompFile
          ? { runtime: ready.runtime, seccompFile: ready.seccompFile, uid }
          : undefined,
      onEffect: (effect) => this.options.onEffect(key, effect),
      logger: this.options.logger,
    });
    this.sandboxes.set(key, sandbox);
    return sandbox;
  }

  /** A sandbox's folder: the runner and, later, its bundles; readable by the sandbox's user only. */
  private makeAppDir(uid: number | undefined): string {
    const dir = join(this.root, `s${++this.counter}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const runner = join(dir, 'runner.mjs');
    copyFileSync(this.options.runnerFile, runner);
    chmodSync(runner, 0o400);
    if (uid !== undefined) {
      chownSync(runner, uid, uid);
      chownSync(dir, uid, uid);
      chmodSync(dir, 0o500);
    }
    return dir;
  }

  /** One user id per key, outside the machine's real users (so that process limits are its own). */
  private uidOf(key: string): number {
    const { uidBase, uidCount } = this.options.settings;
    return uidBase + (createHash('sha256').update(key).digest().readUInt32BE(0) % uidCount);
  }

  private reapIdle(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [key, sandbox] of this.sandboxes) {
      if (!sandbox.busy && sandbox.lastUsed < cutoff) this.restart(key);
    }
  }

  private async prepare(base: string): Promise<Readiness> {
    const { settings, logger } = this.options;
    try {
      mkdirSync(base, { recursive: true, mode: 0o711 });
      chmodSync(base, 0o711);
      mkdirSync(this.root, { recursive: true, mode: 0o711 });
      if (settings.mode === 'process') {
        logger.warn(
          { mode: 'process' },
          'PROJECT_CODE_SANDBOX=process: project code runs in a plain process with Node permission flags only — not a security boundary; use it for trusted code only',
        );
        return { ok: true, runtime: null, seccompFile: null, ownUids: false };
      }
      if (process.platform !== 'linux')
        throw new Error(`bubblewrap needs Linux (this is ${process.platform})`);
      const arch = seccompArch();
      if (!arch) throw new Error(`no seccomp filter for the ${process.arch} architecture`);
      const seccompFile = join(this.root, 'seccomp.bpf');
      writeFileSync(seccompFile, seccompFilter(arch), { mode: 0o444 });
      const runtime = nodeRuntime(join(base, 'runtime'));
      const ownUids = process.getuid?.() === 0;
      if (ownUids && !reachableByOthers(this.root)) {
        throw new Error(`the sandboxes' users cannot reach ${this.root} (every folder above it needs o+x)`);
      }
      if (!ownUids) {
        logger.warn(
          { uid: process.getuid?.() },
          'the host does not run as root: sandboxes share its user id outside their namespace (process limits then rely on the seccomp filter)',
        );
      }
      await this.probe(runtime, seccompFile, ownUids);
      logger.log({ mode: 'bubblewrap', dir: this.root, ownUids }, 'project code sandbox ready');
      return { ok: true, runtime, seccompFile, ownUids };
    } catch (error) {
      const unavailable = new SandboxUnavailableError((error as Error).message);
      logger.warn({ err: unavailable.message }, 'project code cannot run on this host');
      return { ok: false, error: unavailable };
    }
  }

  /** Starts one sandbox that exits at once: bubblewrap, namespaces, the filter and Node all work. */
  private async probe(runtime: NodeRuntime, seccompFile: string, ownUids: boolean): Promise<void> {
    const uid = ownUids ? this.uidOf('probe') : undefined;
    const dir = this.makeAppDir(uid);
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, 'process.exit(process.getuid() === 0 ? 3 : 0);\n', { mode: 0o444 });
    const { command, args } = bubblewrapCommand({
      appDir: dir,
      runner: basename(probe),
      runtime,
      memoryMb: this.options.settings.memoryMb,
      tmpMb: this.options.settings.tmpMb,
      bwrapPath: this.options.settings.bwrapPath,
      disableUserns: canDisableUserns(),
    });
    const fd = openSync(seccompFile, 'r');
    try {
      const output = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(command, args, {
          env: {},
          stdio: ['ignore', 'ignore', 'pipe', 'ignore', 'pipe', fd],
          ...(uid === undefined ? {} : { uid, gid: uid }),
        });
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      if (output.code === 3) throw new Error('the sandboxed process still ran as root');
      if (output.code !== 0) {
        throw new Error(
          `bubblewrap could not start a sandbox (exit ${output.code}: ${output.stderr.trim().slice(0, 500)})`,
        );
      }
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
