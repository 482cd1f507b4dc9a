import type { Provider } from '@nestjs/common';
import { TenantServers } from '@suite/db';
import {
  MAIL_OUTBOX_PROVIDERS,
  PROJECT_RECORD_REPOSITORY_PROVIDER,
  ProjectChangeAnnouncer,
  ProjectRecordRepository,
} from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { AuthHookQueue, BullAuthHookQueue } from '../events/auth-hook.queue.js';
import { AuthStateChannel, RedisAuthStateChannel } from '../events/auth-state.channel.js';
import { HookSettingsRepository, PrismaHookSettingsRepository } from '../events/hook-settings.repository.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { TenantSchemaCheck } from '../projects/tenant-schema.check.js';
import { EphemeralStore, RedisEphemeralStore } from './ephemeral-store.js';
import { PlatformResources } from './platform-resources.js';
import { RateLimiters, RedisRateLimiters } from './rate-limiters.js';

/**
 * The repositories and adapters PlatformModule shares, built from the host's connections: with
 * control-plane.providers.ts and the other modules' factories, the only code that sees
 * PlatformResources. Services, resolvers and checks get what these build.
 */
export const platformProviders: Provider[] = [
  PROJECT_RECORD_REPOSITORY_PROVIDER,
  ...MAIL_OUTBOX_PROVIDERS,
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
  {
    provide: EphemeralStore,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources): EphemeralStore => new RedisEphemeralStore(r.redis),
  },
  {
    provide: RateLimiters,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources): RateLimiters => new RedisRateLimiters(r.redis),
  },
  {
    provide: HookSettingsRepository,
    inject: [PlatformResources],
    useFactory: (r: PlatformResources): HookSettingsRepository => new PrismaHookSettingsRepository(r.db),
  },
  {
    provide: AuthHookQueue,
    inject: [PlatformResources, PROJECT_HOST_CONFIG],
    useFactory: (r: PlatformResources, config: ProjectHostConfig): AuthHookQueue =>
      new BullAuthHookQueue(r.hookQueue, config.REDIS_URL),
  },
  {
    provide: AuthStateChannel,
    inject: [PlatformResources, PROJECT_HOST_CONFIG],
    useFactory: (r: PlatformResources, config: ProjectHostConfig): AuthStateChannel =>
      new RedisAuthStateChannel(r.redis, config.REDIS_URL),
  },
];
