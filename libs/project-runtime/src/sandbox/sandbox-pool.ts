import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HOOK_HANDLERS } from '@suite/platform-sdk';
import { SandboxPool as Sandboxes, sandboxSettings, type SandboxProcess } from '@suite/sandbox';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { ProjectEffects } from '../effects/project-effects.js';
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
export class SandboxPool implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('project-code');
  private readonly sandboxes: Sandboxes;

  constructor(
    private readonly effects: ProjectEffects,
    @Inject(PROJECT_RUNTIME_CONFIG) config: ProjectRuntimeConfig,
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
  }

  call(projectId: string, call: SandboxCall, timeoutMs: number): Promise<unknown> {
    return this.sandboxes.call(projectId, (sandbox) => toWire(sandbox, call), timeoutMs);
  }

  /** Ends a project's sandbox (after a deploy, so no stale module stays loaded). */
  restart(projectId: string): void {
    this.sandboxes.restart(projectId);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sandboxes.close();
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
