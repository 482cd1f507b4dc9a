export { ApiKeyRepository, PrismaApiKeyRepository, type ApiKeyRecord } from './api-key.repository.js';
export { ApiKeyService, ENV_KEYS_OWNER, type CreatedApiKey, type Principal } from './api-key.service.js';
export {
  ARTIFACT_CONTENT_TYPE,
  ARTIFACT_FILE,
  LocalArtifactStore,
  type ArtifactKind,
  type ArtifactStore,
} from './artifact-store.js';
export { createArtifactStore, type ArtifactStoreConfig } from './artifact-store.factory.js';
export { S3ArtifactStore, type S3ArtifactStoreOptions } from './s3-artifact-store.js';
export { parseByteRange, type ByteRange } from './byte-range.js';
export {
  fromSnapshot,
  jobChannel,
  JobEventsPublisher,
  toSnapshot,
  type JobEvent,
  type JobLogEvent,
  type JobSnapshot,
  type JobStatusEvent,
  type JobStepEvent,
  type JobStepProgress,
} from './job-events.js';
export { assertInstructionLimits } from './instruction-limits.js';
export { JobEventsHub } from './job-events-hub.js';
export { A2aTaskViews, type TaskViewRequest } from './a2a-task-views.js';
export {
  contextOf,
  jobStatusesOf,
  logArtifact,
  needsInput,
  storedMessage,
  taskArtifacts,
  taskStateOf,
  taskStateOfJob,
  toTask,
  type TaskViewOptions,
} from './a2a-task.mapper.js';
export {
  TaskState,
  TERMINAL_STATES,
  type Artifact,
  type AuthenticationInfo,
  type JsonObject,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskPushNotificationConfig,
  type TaskStatus,
  type TaskStatusUpdateEvent,
} from './a2a-wire.types.js';
export {
  INSTRUCTIONS_NOT_UNDERSTOOD,
  isFinalStatus,
  isSettledStatus,
  publicStatus,
  storedStatusesOf,
  StoredJobStatus,
  type StoredStatus,
} from './job-state.js';
export { JobQueue, type EnqueueOptions, type QueueJobRef, type QueuedState } from './job-queue.js';
export {
  countPendingJobs,
  fairKeyBase,
  FairJobQueue,
  fairShareLimitsOf,
  QUEUE_FULL_RETRY_AFTER_S,
  type FairShareConfig,
} from './fair-job-queue.js';
export { FairScheduler, type DispatchedJob, type FairShareLimits } from './fair-scheduler.js';
export {
  JobRepository,
  type CreatedJob,
  type FinishedRun,
  type JobFilter,
  type JobPage,
  type NewJob,
  type NewTaskParts,
  type RunArtifacts,
  type RunRecord,
} from './job.repository.js';
export { PrismaJobRepository } from './prisma-job.repository.js';
export { A2aConversationRepository, type StoredMessageParts } from './a2a-conversation.repository.js';
export { maskSecrets, toJobRecord } from './job-record.mapper.js';
export {
  JobService,
  type CreateJobOptions,
  type JobServiceDeps,
  type ScreenshotResponse,
  type VideoResponse,
} from './job.service.js';
export {
  INTERPRETER_MODEL,
  ModelRegistry,
  type ModelInfo,
  type ModelProvider,
  type ModelRegistryOptions,
} from './model-registry.js';
export {
  ARTIFACT_STORE,
  RUNNER_JOBS_EXPORTS,
  runnerJobsProviders,
  RunnerJobsConnections,
  type RunnerJobsConfig,
} from './runner-jobs.providers.js';
export { JobConnections, type JobConnectionsConfig, type JobConnectionsOptions } from './job-connections.js';
