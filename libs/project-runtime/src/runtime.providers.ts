import type { Provider } from '@nestjs/common';
import { ActiveDeployments } from './deployments/active-deployments.js';
import { ProjectDatabase } from './effects/project-database.js';
import { ProjectEffects } from './effects/project-effects.js';
import { ProjectJobs } from './effects/project-jobs.js';
import { ProjectJobsQueue } from './effects/project-jobs.queue.js';
import { ProjectMail } from './effects/project-mail.js';
import { ProjectPush } from './effects/project-push.js';
import { ProjectSandboxes } from './sandbox/project-sandboxes.js';

/**
 * Project code's runtime, for the app that runs it (the project host: APIs and deploys; the project
 * worker: hooks and jobs): the active deployments, the sandboxes and what project code reaches
 * through its context. The app provides PROJECT_RUNTIME_CONFIG, RuntimeResources, ProjectMailBudget,
 * the mail outbox (MAIL_OUTBOX_PROVIDERS), MailSealer and the ProjectDirectory (PROJECT_DIRECTORY_PROVIDER, listed once where its
 * other users see the same instance).
 */
export const PROJECT_RUNTIME_PROVIDERS: Provider[] = [
  ActiveDeployments,
  ProjectSandboxes,
  ProjectEffects,
  ProjectDatabase,
  ProjectMail,
  ProjectJobs,
  ProjectPush,
  ProjectJobsQueue,
];
