import { Global, Module } from '@nestjs/common';
import { AuthEventsPublisher } from '../events/auth-events.publisher.js';
import { AuthStateCache } from '../events/auth-state.cache.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { MailSealer } from '../mail/mail-sealer.js';
import { ControlPlaneHostGuard, ProjectHostGuard } from '../projects/host.guards.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { PlatformResources } from './platform-resources.js';

/** Shared by the control plane and the project hosts: resources, host resolution, mail, events. */
@Global()
@Module({
  providers: [
    PlatformResources,
    ProjectResolver,
    ProjectHostGuard,
    ControlPlaneHostGuard,
    MailOutbox,
    MailSealer,
    AuthEventsPublisher,
    AuthStateCache,
  ],
  exports: [
    PlatformResources,
    ProjectResolver,
    ProjectHostGuard,
    ControlPlaneHostGuard,
    MailOutbox,
    MailSealer,
    AuthEventsPublisher,
    AuthStateCache,
  ],
})
export class PlatformModule {}
