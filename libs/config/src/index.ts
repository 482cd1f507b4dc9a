export { z } from 'zod';
export { ARTIFACT_SENSITIVE, artifactEnv, artifactEnvProblems } from './artifact-env.js';
export { ConfigError } from './config-error.js';
export { envFields } from './env-fields.js';
export {
  exitOnConfigError,
  loadConfig,
  loadConfigOrExit,
  maskConfig,
  maskUrl,
  type LoadConfigOptions,
} from './load-config.js';
export { runnerQueueEnv, type RunnerQueueEnv } from './runner-queue-env.js';
export { LLM_SENSITIVE, llmEnv, SERVICE_SENSITIVE, serviceEnv } from './service-env.js';

/** The suite's public version (both specs: 1.0.0). */
export const SUITE_VERSION = '1.0.0';
