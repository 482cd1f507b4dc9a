import { Global, Module } from '@nestjs/common';
import { AuthEventsPublisher } from '../events/auth-events.publisher.js';
import { AuthHookQueue, BullAuthHookQueue } from '../events/auth-hook.queue.js';
import { AuthStateCache } from '../events/auth-state.cache.js';
import { AuthStateChannel, RedisAuthStateChannel } from '../events/auth-state.channel.js';
import { HookSettingsRepository, PrismaHookSettingsRepository } from '../events/hook-settings.repository.js';
import {
  MAIL_OUTBOX_PROVIDERS,
  MailOutbox,
  MailSealer,
  PROJECT_RECORD_REPOSITORY_PROVIDER,
  ProjectChangeAnnouncer,
  ProjectRecordRepository,
} from '@suite/project-runtime';
import { TenantServers } from '@suite/db';
import { ControlPlaneHostGuard, ProjectHostGuard } from '../projects/host.guards.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { TenantSchemaCheck } from '../projects/tenant-schema.check.js';
import { Clock, SystemClock } from './clock.js';
import { EphemeralStore, RedisEphemeralStore } from './ephemeral-store.js';
import { PlatformResources } from './platform-resources.js';
import { RateLimiters, RedisRateLimiters } from './rate-limiters.js';

/**
 * Shared by the control plane and the project hosts: the connections (PlatformResources, used only
 * by the repositories and adapters), the clock, short-lived values, rate-limit counters, host
 * resolution, mail, events.
 */
@Global()
@Module({
  providers: [
    PlatformResources,
    { provide: Clock, useClass: SystemClock },
    { provide: EphemeralStore, useClass: RedisEphemeralStore },
    { provide: RateLimiters, useClass: RedisRateLimiters },
    ProjectResolver,
    PROJECT_RECORD_REPOSITORY_PROVIDER,
    {
      provide: TenantServers,
      inject: [PlatformResources],
      useFactory: (r: PlatformResources) => r.tenantServers,
    },
    {
      provide: ProjectChangeAnnouncer,
      inject: [PlatformResources],
      useFactory: (r: PlatformResources) => new ProjectChangeAnnouncer(r.redis),
    },
    {
      provide: TenantSchemaCheck,
      inject: [ProjectRecordRepository, PlatformResources],
      useFactory: (records: ProjectRecordRepository, r: PlatformResources) =>
        new TenantSchemaCheck(records, r.tenantServers, r.connectionBudget),
    },
    ProjectHostGuard,
    ControlPlaneHostGuard,
    ...MAIL_OUTBOX_PROVIDERS,
    MailSealer,
    { provide: HookSettingsRepository, useClass: PrismaHookSettingsRepository },
    { provide: AuthHookQueue, useClass: BullAuthHookQueue },
    { provide: AuthStateChannel, useClass: RedisAuthStateChannel },
    AuthEventsPublisher,
    AuthStateCache,
  ],
  exports: [
    PlatformResources,
    Clock,
    EphemeralStore,
    RateLimiters,
    ProjectResolver,
    ProjectRecordRepository,
    TenantServers,
    ProjectChangeAnnouncer,
    TenantSchemaCheck,
    ProjectHostGuard,
    ControlPlaneHostGuard,
    MailOutbox,
    MailSealer,
    AuthEventsPublisher,
    AuthStateCache,
  ],
})
export class PlatformModule {}
