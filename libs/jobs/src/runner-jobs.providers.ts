import { A2aConversationRepository } from './a2a-conversation.repository.js';
import { PrismaApiKeyRepository } from './api-key.repository.js';
import { ApiKeyService } from './api-key.service.js';
import type { ArtifactStore } from './artifact-store.js';
import { JobConnections, type JobConnectionsConfig } from './job-connections.js';
import { JobEventsPublisher } from './job-events.js';
import { JobEventsHub } from './job-events-hub.js';
import { FairJobQueue, fairShareLimitsOf, type FairShareConfig } from './fair-job-queue.js';
import { JobQueue } from './job-queue.js';
import { JobRepository } from './job.repository.js';
import { JobService } from './job.service.js';
import { ModelRegistry, type ModelRegistryOptions } from './model-registry.js';
import { PrismaJobRepository } from './prisma-job.repository.js';

/** The settings the job service of an HTTP app (jobs-api, agent-gateway) is built from. */
export interface RunnerJobsConfig extends JobConnectionsConfig, FairShareConfig {
  DATABASE_POOL_SIZE: number;
  API_KEYS: readonly string[];
  DEFAULT_MODEL?: string;
  HOSTED_BROWSER_WS_URL?: string;
  llm: { models: ModelRegistryOptions['llmModels']; defaultModel?: string };
}

/** The artifact store (the shared directory or the S3 bucket) as a Nest provider. */
export const ARTIFACT_STORE = Symbol('ARTIFACT_STORE');

/** An HTTP app's job connections, with the events hub's subscriber connection. */
export class RunnerJobsConnections extends JobConnections {
  /** On a connection in subscriber mode of its own (it can run no other command). */
  readonly hub: JobEventsHub;

  constructor(config: RunnerJobsConfig, connectionName: string) {
    super(config, { connectionName, poolSize: config.DATABASE_POOL_SIZE, producer: true });
    this.hub = new JobEventsHub(this.connection(`${connectionName}:events`));
  }

  /** Open streams and waits end first (Nest destroys modules before it shuts the app down). */
  onModuleDestroy(): void {
    this.hub.close();
  }
}

/**
 * The one wiring of the job service for the apps that serve it (`/v1` in jobs-api; A2A and MCP in
 * agent-gateway): list these in a module's providers, with the token of the app's config.
 */
export function runnerJobsProviders(configToken: symbol | string, connectionName: string) {
  return [
    {
      provide: RunnerJobsConnections,
      inject: [configToken],
      useFactory: (config: RunnerJobsConfig) => new RunnerJobsConnections(config, connectionName),
    },
    {
      provide: JobRepository,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections): JobRepository =>
        new PrismaJobRepository(c.db, new JobEventsPublisher(c.redis)),
    },
    {
      provide: JobQueue,
      inject: [RunnerJobsConnections, configToken],
      useFactory: (c: RunnerJobsConnections, config: RunnerJobsConfig): JobQueue =>
        new FairJobQueue(c.queue, c.redis, fairShareLimitsOf(config)),
    },
    {
      provide: A2aConversationRepository,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections) => new A2aConversationRepository(c.db),
    },
    {
      provide: JobEventsHub,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections) => c.hub,
    },
    {
      provide: ARTIFACT_STORE,
      inject: [RunnerJobsConnections],
      useFactory: (c: RunnerJobsConnections): ArtifactStore => c.artifacts,
    },
    {
      provide: ModelRegistry,
      inject: [configToken],
      useFactory: (config: RunnerJobsConfig) =>
        new ModelRegistry({
          defaultModel: config.DEFAULT_MODEL,
          llmModels: config.llm.models,
          llmDefaultModel: config.llm.defaultModel,
        }),
    },
    {
      provide: ApiKeyService,
      inject: [RunnerJobsConnections, configToken],
      useFactory: (c: RunnerJobsConnections, config: RunnerJobsConfig) =>
        new ApiKeyService(new PrismaApiKeyRepository(c.db), config.API_KEYS),
    },
    {
      provide: JobService,
      inject: [JobRepository, JobQueue, ModelRegistry, ARTIFACT_STORE, configToken],
      useFactory: (
        jobs: JobRepository,
        queue: JobQueue,
        models: ModelRegistry,
        store: ArtifactStore,
        config: RunnerJobsConfig,
      ) =>
        new JobService({ jobs, queue, models, store, hostedBrowser: Boolean(config.HOSTED_BROWSER_WS_URL) }),
    },
  ];
}

/** What `runnerJobsProviders` makes available to other modules. */
export const RUNNER_JOBS_EXPORTS = [
  JobRepository,
  A2aConversationRepository,
  JobQueue,
  JobEventsHub,
  ARTIFACT_STORE,
  ModelRegistry,
  ApiKeyService,
  JobService,
] as const;
