import type { Provider } from '@nestjs/common';
import { ActiveDeployments } from './deployments/active-deployments.js';
import { EffectRateLimits } from './effects/effect-rate-limit.js';
import { ProjectDatabase } from './effects/project-database.js';
import { ProjectEffects } from './effects/project-effects.js';
import { ProjectJobs } from './effects/project-jobs.js';
import { ProjectJobsQueue } from './effects/project-jobs.queue.js';
import { ProjectMail } from './effects/project-mail.js';
import { ProjectPush } from './effects/project-push.js';
import { PROJECT_RUNTIME_CONFIG, type ProjectRuntimeConfig } from './runtime.config.js';
import { RuntimeResources } from './runtime.ports.js';
import { ProjectSandboxes } from './sandbox/project-sandboxes.js';
import { ProjectDirectory } from './tenants/project-directory.js';
import { ProjectChangeAnnouncer } from './tenants/tenant-moves.js';

/**
 * Project code's runtime, for the app that runs it (the project host: APIs and deploys; the project
 * worker: hooks and jobs): the active deployments, the sandboxes and what project code reaches
 * through its context. The app provides PROJECT_RUNTIME_CONFIG, RuntimeResources, ProjectMailBudget,
 * the mail outbox (MAIL_OUTBOX_PROVIDERS), MailSealer and the ProjectDirectory
 * (PROJECT_DIRECTORY_PROVIDER, listed once where its other users see the same instance). The
 * factories here are the only code of the runtime that sees RuntimeResources.
 */
export const PROJECT_RUNTIME_PROVIDERS: Provider[] = [
  {
    provide: ActiveDeployments,
    inject: [RuntimeResources],
    useFactory: (r: RuntimeResources) => new ActiveDeployments(r.db),
  },
  {
    provide: EffectRateLimits,
    inject: [RuntimeResources],
    useFactory: (r: RuntimeResources) => new EffectRateLimits(r.redis),
  },
  {
    provide: ProjectChangeAnnouncer,
    inject: [RuntimeResources],
    useFactory: (r: RuntimeResources) => new ProjectChangeAnnouncer(r.redis),
  },
  {
    provide: ProjectDatabase,
    inject: [PROJECT_RUNTIME_CONFIG, ProjectDirectory, RuntimeResources],
    useFactory: (config: ProjectRuntimeConfig, directory: ProjectDirectory, r: RuntimeResources) =>
      new ProjectDatabase(config, directory, r.connectionBudget),
  },
  {
    provide: ProjectPush,
    inject: [RuntimeResources, PROJECT_RUNTIME_CONFIG],
    useFactory: (r: RuntimeResources, config: ProjectRuntimeConfig) => new ProjectPush(r.redis, config),
  },
  ProjectSandboxes,
  ProjectEffects,
  ProjectMail,
  ProjectJobs,
  ProjectJobsQueue,
];
