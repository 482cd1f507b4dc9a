import { Module, type DynamicModule } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { ConfigValueModule, WorkerCoreModule } from '@suite/nest-core';
import {
  MailSealer,
  PROJECT_DIRECTORY_PROVIDER,
  PROJECT_RECORD_REPOSITORY_PROVIDER,
  PROJECT_RUNTIME_CONFIG,
  PROJECT_RUNTIME_PROVIDERS,
  ProjectMailBudget,
  RedisProjectMailBudget,
  RuntimeResources,
} from '@suite/project-runtime';
import { AuthHooksConsumer } from './auth-hooks.consumer.js';
import { DomainChecksConsumer } from './domains/domain-checks.consumer.js';
import { domainChecksProviders } from './domains/domain-checks.providers.js';
import { MAIL_DELIVERY_CONFIG } from './mail/mail-delivery.config.js';
import { MailDeliveryConsumer } from './mail/mail-delivery.consumer.js';
import { MailDeliveryProcessor } from './mail/mail-delivery.processor.js';
import { mailDeliveryProviders } from './mail/mail-delivery.providers.js';
import { SmtpMailer } from './mail/smtp-mailer.js';
import { PROJECT_WORKER_CONFIG, type ProjectWorkerConfig } from './project-worker.config.js';
import { ProjectJobsConsumer } from './project-jobs.consumer.js';
import { TenantUpgradesConsumer } from './tenant-upgrades/tenant-upgrades.consumer.js';
import { tenantUpgradesProviders } from './tenant-upgrades/tenant-upgrades.providers.js';
import { WorkerResources } from './worker-resources.js';

/**
 * The project worker: consumes the mail, auth-hooks and project-jobs queues the project host fills,
 * and does the project platform's chores (custom-domain checks and their periodic re-check, tenant
 * upgrade sweeps), which the HTTP apps only ask for.
 * Hooks and jobs run project code with @suite/project-runtime, in the same sandboxes and with the
 * same context services as the host's APIs.
 */
@Module({})
export class ProjectWorkerModule {
  static forRoot(config: ProjectWorkerConfig): DynamicModule {
    return {
      module: ProjectWorkerModule,
      imports: [
        ConfigValueModule.forRoot(PROJECT_WORKER_CONFIG, config),
        WorkerCoreModule.forRoot('project-worker', SUITE_VERSION, config),
      ],
      providers: [
        // What the runtime needs of the app that runs it.
        { provide: PROJECT_RUNTIME_CONFIG, useValue: config },
        WorkerResources,
        { provide: RuntimeResources, useExisting: WorkerResources },
        PROJECT_DIRECTORY_PROVIDER,
        PROJECT_RECORD_REPOSITORY_PROVIDER,
        {
          provide: ProjectMailBudget,
          inject: [WorkerResources],
          useFactory: (r: WorkerResources): ProjectMailBudget => new RedisProjectMailBudget(r.redis, config),
        },
        MailSealer,
        ...PROJECT_RUNTIME_PROVIDERS,
        // Mail delivery.
        { provide: MAIL_DELIVERY_CONFIG, useValue: config },
        ...mailDeliveryProviders,
        SmtpMailer,
        MailDeliveryProcessor,
        // The deployment's chores: custom-domain checks, tenant upgrades.
        ...domainChecksProviders,
        ...tenantUpgradesProviders,
        // The consumers.
        MailDeliveryConsumer,
        AuthHooksConsumer,
        ProjectJobsConsumer,
        DomainChecksConsumer,
        TenantUpgradesConsumer,
      ],
    };
  }
}
