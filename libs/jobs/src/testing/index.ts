export { InMemoryApiKeyRepository } from './in-memory-api-key.repository.js';
export { InMemoryJobQueue, InMemoryJobRepository } from './in-memory-job.repository.js';
export { runnerFailure } from './rejection.js';
