import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@suite/db';
import type { SandboxEffect } from '../sandbox/sandbox-protocol.js';
import { EffectError } from './effect-error.js';
import { ProjectDatabase } from './project-database.js';
import { ProjectJobs } from './project-jobs.js';
import { ProjectMail } from './project-mail.js';
import { ProjectPush } from './project-push.js';

/**
 * Performs what project code asks through its context, for the project whose sandbox asked: the
 * project id comes from the host's sandbox table, never from the request. A rejection's message
 * is what project code sees.
 */
@Injectable()
export class ProjectEffects {
  private readonly logger = new Logger('project-code');

  constructor(
    private readonly db: ProjectDatabase,
    private readonly mail: ProjectMail,
    private readonly jobs: ProjectJobs,
    private readonly push: ProjectPush,
  ) {}

  async perform(projectId: string, effect: SandboxEffect): Promise<unknown> {
    try {
      return await this.dispatch(projectId, effect);
    } catch (error) {
      if (error instanceof EffectError) throw error;
      // Host trouble (Redis, the main database...): logged here, never described to project code.
      this.logger.error(
        { projectId, effect: effect.effect, err: (error as Error).message },
        'context call failed',
      );
      throw new EffectError(`ctx.${effect.effect}: the host could not do this right now; try again`);
    }
  }

  private async dispatch(projectId: string, effect: SandboxEffect): Promise<unknown> {
    // Deploy-time inspection sandboxes ("deploy:<id>") only import code: they have no context.
    if (!isUuid(projectId)) throw new EffectError(`${effect.effect} is not available while deploying`);
    switch (effect.effect) {
      case 'db.query':
        return this.db.query(projectId, effect.payload);
      case 'email.send':
        return this.mail.send(projectId, effect.payload);
      case 'jobs.enqueue':
        return this.jobs.enqueue(projectId, effect.payload);
      case 'push.send':
        return this.push.send(projectId, effect.payload);
      default:
        this.logger.warn({ projectId }, 'unknown context call from a sandbox');
        throw new EffectError('unknown context call');
    }
  }
}
