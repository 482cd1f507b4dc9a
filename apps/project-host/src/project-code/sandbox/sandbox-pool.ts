import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProjectEffects } from '../../project-effects/project-effects.js';
import type {
  EffectResponse,
  SandboxCall,
  SandboxEffect,
  SandboxMessage,
  SandboxReply,
} from './sandbox-protocol.js';

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'sandbox-runner.js');
/** Heap of one project's sandbox; a project that needs more is killed and restarted, never the host. */
const HEAP_MB = 128;
/** Context calls (ctx.db, ctx.email...) one sandbox may have in flight; more are refused at once. */
const MAX_EFFECTS_IN_FLIGHT = 64;
/** A sandbox nobody called for this long is ended (it starts again on the next call). */
const IDLE_MS = 5 * 60_000;

export class SandboxTimeoutError extends Error {
  constructor(ms: number) {
    super(`project code did not finish within ${ms} ms (its sandbox was restarted)`);
    this.name = 'SandboxTimeoutError';
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One project's sandbox process: calls are multiplexed over IPC; a stuck call kills the process. */
class Sandbox {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private effectsInFlight = 0;
  dead = false;
  lastUsed = Date.now();

  constructor(
    readonly projectId: string,
    onEffect: (effect: SandboxEffect) => Promise<unknown>,
    private readonly logger: Logger,
  ) {
    this.child = fork(RUNNER, [], {
      // No host environment (DATABASE_URL, tokens...): the project's .env travels with each call.
      env: {},
      execArgv: [
        `--max-old-space-size=${HEAP_MB}`,
        '--permission',
        `--allow-fs-read=${dirname(RUNNER)}`,
        '--disable-proto=delete',
      ],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const log = (chunk: Buffer) =>
      this.logger.log({ projectId, output: chunk.toString().slice(0, 2_000) }, 'project code output');
    this.child.stdout?.on('data', log);
    this.child.stderr?.on('data', log);
    this.child.on('message', (message: SandboxReply) => {
      if (message.type === 'effect') {
        if (this.effectsInFlight >= MAX_EFFECTS_IN_FLIGHT) {
          const error = `too many context calls at once (at most ${MAX_EFFECTS_IN_FLIGHT}); await them`;
          return this.answer({ type: 'effect-result', rid: message.rid, ok: false, error });
        }
        this.effectsInFlight++;
        // Performed by the host for this project; the answer goes back even if it is an error.
        void onEffect(message)
          .finally(() => this.effectsInFlight--)
          .then(
            (value) =>
              this.answer({ type: 'effect-result', rid: message.rid, ok: true, value: value ?? null }),
            (error: unknown) =>
              this.answer({
                type: 'effect-result',
                rid: message.rid,
                ok: false,
                error: error instanceof Error ? error.message : String(error),
              }),
          );
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new Error(message.error));
    });
    this.child.on('exit', (code, signal) => {
      this.dead = true;
      if (this.pending.size > 0) {
        this.logger.warn({ projectId, code, signal }, 'project sandbox ended with calls in flight');
      }
      this.failAll(new Error(`the project's sandbox ended (${signal ?? `exit ${code}`})`));
    });
    this.child.on('error', () => undefined);
  }

  call(call: SandboxCall, timeoutMs: number): Promise<unknown> {
    if (this.dead) return Promise.reject(new Error('sandbox is not running'));
    this.lastUsed = Date.now();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SandboxTimeoutError(timeoutMs));
        // An infinite loop never yields: only ending the process frees the project's calls.
        this.kill();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const message: SandboxMessage = { type: 'call', id, call };
      this.child.send(message, (error) => {
        if (!error) return;
        this.pending.delete(id);
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  private answer(response: EffectResponse): void {
    if (this.dead || !this.child.connected) return;
    this.child.send(response satisfies SandboxMessage, () => undefined);
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  kill(): void {
    this.dead = true;
    this.child.kill('SIGKILL');
  }

  private failAll(error: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }
}

/**
 * Project code runs in one sandbox process per project, apart from the host and from every other
 * project: a crash, a throw, an infinite loop or a heap blow-up ends (at worst) that process, which
 * is started again on the next call.
 */
@Injectable()
export class SandboxPool implements OnApplicationShutdown {
  private readonly logger = new Logger('project-code');
  private readonly sandboxes = new Map<string, Sandbox>();
  private readonly reaper = setInterval(() => this.reapIdle(), 60_000).unref();

  constructor(private readonly effects: ProjectEffects) {}

  call(projectId: string, call: SandboxCall, timeoutMs: number): Promise<unknown> {
    let sandbox = this.sandboxes.get(projectId);
    if (!sandbox || sandbox.dead) {
      sandbox = new Sandbox(projectId, (effect) => this.effects.perform(projectId, effect), this.logger);
      this.sandboxes.set(projectId, sandbox);
    }
    return sandbox.call(call, timeoutMs);
  }

  /** Ends a project's sandbox (after a deploy, so no stale module stays loaded). */
  restart(projectId: string): void {
    this.sandboxes.get(projectId)?.kill();
    this.sandboxes.delete(projectId);
  }

  onApplicationShutdown(): void {
    clearInterval(this.reaper);
    for (const sandbox of this.sandboxes.values()) sandbox.kill();
    this.sandboxes.clear();
  }

  private reapIdle(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [key, sandbox] of this.sandboxes) {
      if (!sandbox.busy && sandbox.lastUsed < cutoff) this.restart(key);
    }
  }
}
