export { InMemoryJobQueue, InMemoryJobRepository } from './in-memory-job.repository.js';
