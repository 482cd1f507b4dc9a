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
export { jobChannel, JobEventsPublisher, subscribeToJob, type JobEvent } from './job-events.js';
export { maskSecrets, toJobRecord } from './job-record.mapper.js';
export {
  INSTRUCTIONS_NOT_UNDERSTOOD,
  JobService,
  type CreateJobOptions,
  type CreatedJob,
  type JobServiceDeps,
  type VideoResponse,
} from './job.service.js';
export {
  INTERPRETER_MODEL,
  ModelRegistry,
  type ModelInfo,
  type ModelProvider,
  type ModelRegistryOptions,
} from './model-registry.js';
export { JobEventsHub } from './job-events-hub.js';
