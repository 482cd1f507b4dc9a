import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HOOK_HANDLERS } from '@suite/platform-sdk';
import { SandboxPool as Sandboxes, sandboxSettings, type SandboxProcess } from '@suite/sandbox';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { ActiveDeployments } from '../deployments/active-deployments.js';
import { ProjectEffects } from '../effects/project-effects.js';
import {
  ProjectChangeAnnouncer,
  subscribeProjectChanges,
  type ProjectChange,
} from '../tenants/tenant-moves.js';
import type { SandboxCall, SandboxEffect, WireCall } from './sandbox-protocol.js';

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'sandbox-runner.js');

export { SandboxError, SandboxTimeoutError } from '@suite/sandbox';

/**
 * Project code runs in one sandbox per project (`@suite/sandbox`: bubblewrap by default), apart from
 * the host and from every other project: a crash, a throw, an infinite loop or a memory blow-up ends
 * (at worst) that sandbox, which starts again on the next call. Bundles are written into the
 * sandbox's read-only folder and imported from there.
 */
@Injectable()
export class ProjectSandboxes implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('project-code');
  private readonly sandboxes: Sandboxes;
  /** This process, in what it announces (its own subscriber skips what it has done already). */
  private readonly instance = randomUUID();
  private changes?: { close(): void };

  constructor(
    private readonly effects: ProjectEffects,
    private readonly announcer: ProjectChangeAnnouncer,
    private readonly active: ActiveDeployments,
    @Inject(PROJECT_RUNTIME_CONFIG) private readonly config: ProjectRuntimeConfig,
  ) {
    this.sandboxes = new Sandboxes({
      settings: sandboxSettings(config),
      runnerFile: RUNNER,
      onEffect: (key, effect) => this.effects.perform(key, effect as unknown as SandboxEffect),
      logger: {
        log: (fields, message) => this.logger.log(fields, message),
        warn: (fields, message) => this.logger.warn(fields, message),
      },
    });
  }

  /** Says at start whether project code can run here (and why not), instead of at the first call. */
  onModuleInit(): void {
    this.sandboxes.check().catch(() => undefined);
    // A project deleted or deployed through another process: its sandboxes here end at once.
    this.changes = subscribeProjectChanges(
      this.config.REDIS_URL,
      'project-code-changes',
      (projectId, change, from) => {
        if (change === 'moved' || from === this.instance) return;
        this.active.invalidate(projectId);
        this.end(projectId, change);
      },
    );
  }

  call(projectId: string, call: SandboxCall, timeoutMs: number): Promise<unknown> {
    return this.sandboxes.call(projectId, (sandbox) => toWire(sandbox, call), timeoutMs);
  }

  /** Ends a project's sandbox in this process (the throwaway one of a deploy's checks). */
  restart(projectId: string): void {
    this.sandboxes.restart(projectId);
  }

  /**
   * Ends a project's sandboxes in every process (hosts, project workers): it was deleted, or a new
   * deployment supersedes the code they loaded (and the timers it left running).
   */
  async endEverywhere(projectId: string, change: Exclude<ProjectChange, 'moved'>): Promise<void> {
    this.end(projectId, change);
    await this.announcer
      .announce(projectId, change, this.instance)
      .catch((error: unknown) =>
        this.logger.warn(
          { projectId, change, err: (error as Error).message },
          "could not announce the change: other processes' sandboxes of the project end when idle",
        ),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    this.changes?.close();
    await this.sandboxes.close();
  }

  private end(projectId: string, change: ProjectChange): void {
    if (this.sandboxes.has(projectId)) {
      const why = change === 'deleted' ? 'the project was deleted' : 'a new deployment replaces its code';
      this.logger.log({ projectId, change }, `sandbox ended: ${why}`);
    }
    this.sandboxes.restart(projectId);
  }
}

/**
 * The code travels as a file in the sandbox's read-only folder; the call names its path, and
 * carries the SDK's handler names (the one hook contract, see sandbox-protocol.ts).
 */
function toWire(sandbox: SandboxProcess, call: SandboxCall): WireCall {
  const { code, ...rest } = call;
  return { ...rest, module: sandbox.module(code), hookHandlers: HOOK_HANDLERS } as WireCall;
}
