import {
  ARTIFACT_SENSITIVE,
  artifactEnv,
  artifactEnvProblems,
  ConfigError,
  envFields,
  exitOnConfigError,
  LLM_SENSITIVE,
  llmEnv,
  loadConfigOrExit,
  serviceEnv,
  z,
} from '@suite/config';
import { servedLlmModels, type LlmModelRegistry } from '@suite/llm-agent';
import { cpus } from 'node:os';

export const browserWorkerEnv = z.object({
  ...serviceEnv,
  ...llmEnv,
  /** Model turns an LLM agent may take in one job. */
  LLM_MAX_STEPS: envFields.positiveInt(25),
  /** Health/metrics listener; 0 disables it (e.g. many workers on one machine without ports). */
  HEALTH_PORT: envFields.port(8083),
  WORKER_ID: z.string().min(1).optional(),
  /** Jobs run at once by this process; one browser context each. Default: one per core, max 4. */
  WORKER_CONCURRENCY: envFields.positiveInt(Math.min(4, Math.max(1, cpus().length))),
  CHROMIUM_PATH: z.string().min(1).optional(),
  /** ARTIFACTS_DIR, ARTIFACT_STORE, ARTIFACT_DOWNLOAD, S3_*: where job artifacts live. */
  ...artifactEnv,
  /** Wall clock of one job, from claim to verdict. */
  JOB_TIMEOUT_MS: envFields.positiveInt(5 * 60_000),
  /** Longest wait for one action's element or effect. */
  ACTION_TIMEOUT_MS: envFields.positiveInt(10_000),
  NAVIGATION_TIMEOUT_MS: envFields.positiveInt(30_000),
  /** How soon a job of a killed worker is noticed and handed out again. */
  STALLED_INTERVAL_MS: envFields.positiveInt(30_000),
  /** Repairs and retention sweep; 0 disables it on this worker. */
  REAPER_INTERVAL_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(60_000),
  ARTIFACT_RETENTION_DAYS: envFields.positiveInt(30),
  HOSTED_BROWSER_WS_URL: z
    .string()
    .refine((v) => /^wss?:\/\//.test(v) && URL.canParse(v), 'must be a ws:// or wss:// URL')
    .optional(),
});
export type BrowserWorkerConfig = z.infer<typeof browserWorkerEnv> & { llm: LlmModelRegistry };

export function loadBrowserWorkerConfig(env: NodeJS.ProcessEnv = process.env): BrowserWorkerConfig {
  const config = loadConfigOrExit('browser-worker', browserWorkerEnv, env, {
    sensitive: [...LLM_SENSITIVE, ...ARTIFACT_SENSITIVE],
  });
  const served = servedLlmModels(config);
  const problems = [...('problem' in served ? [served.problem] : []), ...artifactEnvProblems(config)];
  if (problems.length || 'problem' in served)
    return exitOnConfigError(new ConfigError('browser-worker', problems));
  return { ...config, llm: served.registry };
}
