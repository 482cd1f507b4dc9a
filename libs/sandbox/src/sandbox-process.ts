import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { bubblewrapCommand, canDisableUserns, INSIDE, nodeFlags, SANDBOX_FDS } from './bubblewrap-command.js';
import { SandboxCpuError, SandboxCrashedError, SandboxTimeoutError } from './sandbox-errors.js';
import type { NodeRuntime } from './node-runtime.js';
import type { SandboxSettings } from './sandbox-settings.js';

/**
 * Messages on the channel (fd 3 of the sandbox, one JSON document a line): calls and their results,
 * effects and their answers. Node's own IPC is not used: it buffers a message of any size.
 */
export type HostMessage =
  | { type: 'call'; id: number; call: unknown }
  | { type: 'effect-result'; rid: number; ok: true; value: unknown }
  | { type: 'effect-result'; rid: number; ok: false; error: string };

export type SandboxMessage =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: string }
  | { type: 'effect'; rid: number; [field: string]: unknown };

/** A request of the sandboxed code for the host (`{type: 'effect', rid, ...}`). */
export type EffectRequest = Extract<SandboxMessage, { type: 'effect' }>;

export interface SandboxLogger {
  log(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Effects one sandbox may have in flight; more are refused at once. */
const MAX_EFFECTS_IN_FLIGHT = 64;
/** How often the CPU time of a sandbox with calls in flight is read. */
const CPU_SAMPLE_MS = 100;
/** How often the CPU time of an idle (stopped) sandbox is read. */
const IDLE_SAMPLE_MS = 1_000;
const CLOCK_TICKS_PER_SECOND = 100;
/**
 * Largest message a sandbox may send (a call's result included): the host buffers a message whole
 * before parsing it, so this bounds what a hostile sandbox can make the host hold.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** Bytes of a sandbox's stdout/stderr logged per minute; the rest is dropped (and counted). */
const OUTPUT_BYTES_PER_MINUTE = 64 * 1024;

export interface SandboxProcessOptions {
  key: string;
  /** The sandbox's own folder on the host (made by the pool); it holds the runner and bundles. */
  appDir: string;
  /** File name of the runner script inside appDir. */
  runner: string;
  settings: SandboxSettings;
  /** Present in bubblewrap mode. */
  bubblewrap?: { runtime: NodeRuntime; seccompFile: string; uid?: number | undefined };
  onEffect: (effect: EffectRequest) => Promise<unknown>;
  logger: SandboxLogger;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** CPU time (ms) of the sandbox when the call started, once known. */
  cpuAtStart: number | null;
}

/** CPU time (user + system, all threads) of a process, in ms; null once it is gone. */
function cpuTimeMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) (utime, stime) are the 12th and 13th after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * One sandboxed process: calls are multiplexed over IPC; a call over its time or CPU budget ends the
 * process (other calls in flight fail with it) and the pool starts a fresh one on the next call.
 *
 * Between calls the process is stopped (SIGSTOP; SIGCONT before the next call), so that work the
 * code left behind (timers, a loop of setImmediate) gets no CPU while nobody is calling: it runs
 * on, late, during the next call, whose CPU budget it then spends. The seccomp filter refuses new
 * processes, so the sandbox is this one process and the signal stops all of its threads. The CPU
 * it uses while idle is read too: over SANDBOX_IDLE_CPU_MS (it could not be stopped) ends it.
 */
export class SandboxProcess {
  private readonly child: ChildProcess;
  private readonly channel: Duplex;
  private readonly pending = new Map<number, Pending>();
  private readonly bubblewrap: boolean;
  private nextId = 1;
  private effectsInFlight = 0;
  /** The sandboxed Node process (outside PID), for CPU accounting. */
  private pid: number | null = null;
  private cpuTimer: NodeJS.Timeout | null = null;
  /** While idle: the CPU time when it went idle, and the timer that watches it. */
  private idle: { cpuAtStart: number | null; timer: NodeJS.Timeout } | null = null;
  private stopped = false;
  private endReason: Error | null = null;
  private output = { since: Date.now(), bytes: 0, dropped: 0 };
  dead = false;
  lastUsed = Date.now();
  private readonly exited: Promise<void>;

  constructor(private readonly options: SandboxProcessOptions) {
    const { settings, appDir, runner } = options;
    this.bubblewrap = !!options.bubblewrap;
    // No host environment (DATABASE_URL, tokens...): the code's own settings travel with each call.
    const env: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '2' };
    let seccompFd: number | null = null;
    if (options.bubblewrap) {
      const { runtime, uid, seccompFile } = options.bubblewrap;
      const { command, args } = bubblewrapCommand({
        appDir,
        runner,
        runtime,
        memoryMb: settings.memoryMb,
        tmpMb: settings.tmpMb,
        // Threads count too; only meaningful when the sandbox has a user id of its own.
        maxProcesses: uid === undefined ? undefined : 64,
        bwrapPath: settings.bwrapPath,
        disableUserns: canDisableUserns(),
      });
      // Opened per sandbox: bubblewrap reads the filter from this descriptor once.
      seccompFd = openSync(seccompFile, 'r');
      const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', seccompFd];
      this.child = spawn(command, args, {
        env,
        stdio,
        ...(uid === undefined ? {} : { uid, gid: uid }),
      });
      let status = '';
      this.child.stdio[4]?.on('data', (chunk: Buffer) => {
        status += chunk.toString();
        const childPid = /"child-pid"\s*:\s*(\d+)/.exec(status)?.[1];
        if (childPid && this.pid === null) this.started(Number(childPid));
      });
    } else {
      this.child = spawn(
        process.execPath,
        [...nodeFlags(appDir, null, settings.memoryMb), join(appDir, runner)],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        },
      );
      if (this.child.pid !== undefined) this.started(this.child.pid);
    }
    if (seccompFd !== null) closeQuietly(seccompFd);

    const log = (chunk: Buffer) => {
      // Output is logged up to a budget per minute, so that a loop of console.log cannot flood the
      // host's logs; what is over it is dropped, said when it starts and counted when the minute ends.
      const now = Date.now();
      if (now - this.output.since >= 60_000) {
        if (this.output.dropped > 0) {
          options.logger.warn(
            { sandbox: options.key, droppedBytes: this.output.dropped },
            'project code output over its budget was dropped',
          );
        }
        this.output = { since: now, bytes: 0, dropped: 0 };
      }
      const text = chunk.toString().slice(0, 2_000);
      if (this.output.bytes + text.length > OUTPUT_BYTES_PER_MINUTE) {
        if (this.output.dropped === 0) {
          options.logger.warn(
            { sandbox: options.key, budgetBytes: OUTPUT_BYTES_PER_MINUTE },
            'project code prints more than its output budget; dropping the rest of this minute',
          );
        }
        this.output.dropped += chunk.length;
        return;
      }
      this.output.bytes += text.length;
      options.logger.log({ sandbox: options.key, output: text }, 'project code output');
    };
    this.child.stdout?.on('data', log);
    this.child.stderr?.on('data', log);
    this.channel = this.child.stdio[SANDBOX_FDS.channel] as Duplex;
    this.readChannel();
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        this.dead = true;
        this.stopCpuSampling();
        this.stopIdleWatch();
        if (this.pending.size > 0) {
          options.logger.warn({ sandbox: options.key, code, signal }, 'sandbox ended with calls in flight');
        }
        this.failAll(this.endReason ?? new SandboxCrashedError(signal ?? `exit ${code}`));
        rmSync(appDir, { recursive: true, force: true });
        resolve();
      }),
    );
    this.child.on('error', (error) => {
      options.logger.warn({ sandbox: options.key, err: error.message }, 'sandbox could not start');
      this.endReason ??= new SandboxCrashedError(`could not start: ${error.message}`);
    });
  }

  /** Writes an ES module into the sandbox's read-only folder; answers the path to import it by. */
  module(code: string): string {
    const name = `${createHash('sha256').update(code).digest('hex').slice(0, 32)}.mjs`;
    const file = join(this.options.appDir, name);
    if (!existsSync(file)) {
      writeFileSync(file, code, { mode: 0o400 });
      const uid = this.options.bubblewrap?.uid;
      if (uid !== undefined) chownSync(file, uid, uid);
    }
    return this.bubblewrap ? `${INSIDE.app}/${name}` : file;
  }

  call(call: unknown, timeoutMs: number): Promise<unknown> {
    if (this.dead) return Promise.reject(this.endReason ?? new SandboxCrashedError('not running'));
    this.wakeUp();
    this.lastUsed = Date.now();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.end(new SandboxTimeoutError(timeoutMs)), timeoutMs);
      const pid = this.pid;
      this.pending.set(id, { resolve, reject, timer, cpuAtStart: pid === null ? null : cpuTimeMs(pid) });
      this.startCpuSampling();
      this.write({ type: 'call', id, call });
    });
  }

  /** Calls the pool has handed this sandbox that have not finished (including not yet sent). */
  private reservations = 0;

  /** Marks the sandbox as taken by a call about to be made, so that it is not ended meanwhile. */
  reserve(): void {
    this.reservations++;
    this.wakeUp();
  }

  release(): void {
    this.reservations--;
    this.goIdle();
  }

  /** The sandboxed process's pid (outside its namespace), once known. */
  get processId(): number | null {
    return this.pid;
  }

  get busy(): boolean {
    return this.pending.size > 0 || this.reservations > 0;
  }

  /** Ends the process; calls in flight fail with `reason`. */
  end(reason: Error = new SandboxCrashedError('ended by the host')): Promise<void> {
    if (!this.dead) {
      this.endReason ??= reason;
      this.dead = true;
      if (this.bubblewrap && this.pid !== null && this.child.exitCode === null) {
        // The sandboxed process first, so that bubblewrap (its parent) reaps it and exits by itself:
        // killing bubblewrap first would leave the process to be reaped by whoever is PID 1.
        try {
          process.kill(this.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        setTimeout(() => this.child.kill('SIGKILL'), 1_000).unref();
      } else {
        this.child.kill('SIGKILL');
      }
    }
    return this.exited;
  }

  private receive(message: SandboxMessage): void {
    if (message.type === 'effect') return this.performEffect(message);
    if (message.type !== 'result') return;
    const pending = this.settle(message.id);
    if (!pending) return;
    this.lastUsed = Date.now();
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new Error(message.error));
  }

  private performEffect(effect: EffectRequest): void {
    const { rid } = effect;
    if (this.effectsInFlight >= MAX_EFFECTS_IN_FLIGHT) {
      const error = `too many context calls at once (at most ${MAX_EFFECTS_IN_FLIGHT}); await them`;
      return this.answer({ type: 'effect-result', rid, ok: false, error });
    }
    this.effectsInFlight++;
    // Performed by the host for this sandbox; the answer goes back even when it is an error.
    void this.options
      .onEffect(effect)
      .finally(() => this.effectsInFlight--)
      .then(
        (value) => this.answer({ type: 'effect-result', rid, ok: true, value: value ?? null }),
        (error: unknown) =>
          this.answer({
            type: 'effect-result',
            rid,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
  }

  private answer(response: HostMessage): void {
    this.write(response);
  }

  /** One JSON message a line; a line over MAX_MESSAGE_BYTES, or one that is not JSON, ends the sandbox. */
  private readChannel(): void {
    const chunks: Buffer[] = [];
    let buffered = 0;
    this.channel.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        chunks.push(chunk.subarray(start, newline));
        const line = Buffer.concat(chunks).toString('utf8');
        chunks.length = 0;
        buffered = 0;
        start = newline + 1;
        let message: SandboxMessage;
        try {
          message = JSON.parse(line) as SandboxMessage;
        } catch {
          return void this.end(new SandboxCrashedError('it sent a message that is not JSON'));
        }
        this.receive(message);
      }
      const rest = chunk.subarray(start);
      buffered += rest.length;
      if (buffered > MAX_MESSAGE_BYTES) {
        return void this.end(
          new SandboxCrashedError(`it sent a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`),
        );
      }
      if (rest.length) chunks.push(rest);
    });
    this.channel.on('error', () => undefined);
  }

  private write(message: HostMessage): void {
    if (this.dead || !this.channel.writable) return;
    this.channel.write(`${JSON.stringify(message)}\n`);
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (this.pending.size === 0) this.stopCpuSampling();
    this.goIdle();
    return pending;
  }

  private started(pid: number): void {
    this.pid = pid;
    this.options.logger.log({ sandbox: this.options.key, pid }, 'sandbox started');
    // Started for a call that already finished (or was never made): idle from now.
    this.goIdle();
  }

  /** No call in flight or about to be made: the process is stopped and its CPU time watched. */
  private goIdle(): void {
    if (this.dead || this.busy || this.idle || this.pid === null) return;
    const pid = this.pid;
    this.stopped = signal(pid, 'SIGSTOP');
    const allowance = this.options.settings.idleCpuMs;
    const idle = { cpuAtStart: cpuTimeMs(pid), timer: setInterval(() => check(), IDLE_SAMPLE_MS) };
    idle.timer.unref();
    const check = () => {
      const now = cpuTimeMs(pid);
      if (now === null || this.idle !== idle) return;
      idle.cpuAtStart ??= now;
      const used = now - idle.cpuAtStart;
      if (used <= allowance) return;
      this.options.logger.warn(
        { sandbox: this.options.key, pid, idleCpuMs: used, allowanceMs: allowance, stopped: this.stopped },
        'sandbox used CPU between calls; ended',
      );
      void this.end(new SandboxCrashedError(`it used ${used} ms of CPU time between calls`));
    };
    this.idle = idle;
  }

  /** A call is coming: the process runs again (the timers it left behind fire now, late). */
  private wakeUp(): void {
    this.stopIdleWatch();
    if (this.stopped && this.pid !== null && !this.dead) signal(this.pid, 'SIGCONT');
    this.stopped = false;
  }

  private stopIdleWatch(): void {
    if (this.idle) clearInterval(this.idle.timer);
    this.idle = null;
  }

  /** While calls are in flight, the CPU the sandbox used since a call started counts against it. */
  private startCpuSampling(): void {
    if (this.cpuTimer) return;
    const budget = this.options.settings.cpuMsPerCall;
    this.cpuTimer = setInterval(() => {
      if (this.pid === null) return;
      const now = cpuTimeMs(this.pid);
      if (now === null) return;
      for (const pending of this.pending.values()) {
        pending.cpuAtStart ??= now;
        if (now - pending.cpuAtStart > budget) return void this.end(new SandboxCpuError(budget));
      }
    }, CPU_SAMPLE_MS);
    this.cpuTimer.unref();
  }

  private stopCpuSampling(): void {
    if (this.cpuTimer) clearInterval(this.cpuTimer);
    this.cpuTimer = null;
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}

/** Sends `name` to `pid`; false when it could not (the process is gone, or not ours to signal). */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
