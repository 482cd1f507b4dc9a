import { Global, Module } from '@nestjs/common';
import { TenantServers } from '@suite/db';
import {
  MailOutbox,
  MailSealer,
  ProjectChangeAnnouncer,
  ProjectRecordRepository,
} from '@suite/project-runtime';
import { AuthEventsPublisher } from '../events/auth-events.publisher.js';
import { AuthStateCache } from '../events/auth-state.cache.js';
import { ControlPlaneHostGuard, ProjectHostGuard } from '../projects/host.guards.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { TenantSchemaCheck } from '../projects/tenant-schema.check.js';
import { Clock, SystemClock } from './clock.js';
import { EphemeralStore } from './ephemeral-store.js';
import { PlatformResources } from './platform-resources.js';
import { platformProviders } from './platform.providers.js';
import { RateLimiters } from './rate-limiters.js';

/**
 * Shared by the control plane and the project hosts: the connections (PlatformResources, seen only
 * by the provider factories that build repositories and adapters, platform.providers.ts), the
 * clock, short-lived values, rate-limit counters, host resolution, mail, events.
 */
@Global()
@Module({
  providers: [
    PlatformResources,
    ...platformProviders,
    { provide: Clock, useClass: SystemClock },
    ProjectResolver,
    ProjectHostGuard,
    ControlPlaneHostGuard,
    MailSealer,
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
