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
  runnerQueueEnv,
  serviceEnv,
  z,
} from '@suite/config';
import { servedLlmModels, type LlmModelRegistry } from '@suite/llm-agent';
import { webhookEnv } from '@suite/push-delivery';

export const jobsApiEnv = z.object({
  ...serviceEnv,
  ...llmEnv,
  PORT: envFields.port(8080),
  API_KEYS: envFields.list(),
  /** ARTIFACTS_DIR, ARTIFACT_STORE, ARTIFACT_DOWNLOAD, S3_*: where job artifacts live. */
  ...artifactEnv,
  /** RUNNER_MAX_QUEUED_PER_OWNER, RUNNER_MAX_RUNNING_PER_OWNER, RUNNER_DISPATCH_AHEAD: fair share. */
  ...runnerQueueEnv,
  GATEWAY_URL: envFields.httpUrl().optional(),
  MAX_BODY_BYTES: envFields.positiveInt(256 * 1024),
  DATABASE_POOL_SIZE: envFields.positiveInt(10),
  DEFAULT_MODEL: z.string().min(1).optional(),
  HOSTED_BROWSER_WS_URL: z
    .string()
    .refine((v) => /^wss?:\/\//.test(v) && URL.canParse(v), 'must be a ws:// or wss:// URL')
    .optional(),
  /** PUSH_ALLOWED_HOSTS, PUSH_DNS_SERVERS: where suite webhooks may go (as A2A push webhooks). */
  ...webhookEnv,
  /** The shortest interval a suite's schedule may have. */
  SUITE_MIN_SCHEDULE_SECONDS: envFields.positiveInt(60),
});
export type JobsApiConfig = z.infer<typeof jobsApiEnv> & { llm: LlmModelRegistry };

export function loadJobsApiConfig(env: NodeJS.ProcessEnv = process.env): JobsApiConfig {
  const config = loadConfigOrExit('jobs-api', jobsApiEnv, env, {
    sensitive: ['API_KEYS', ...LLM_SENSITIVE, ...ARTIFACT_SENSITIVE],
  });
  const served = servedLlmModels(config);
  const problems = [...('problem' in served ? [served.problem] : []), ...artifactEnvProblems(config)];
  if (problems.length || 'problem' in served) return exitOnConfigError(new ConfigError('jobs-api', problems));
  return { ...config, llm: served.registry };
}
