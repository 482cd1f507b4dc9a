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

export const agentGatewayEnv = z.object({
  ...serviceEnv,
  ...llmEnv,
  PORT: envFields.port(8081),
  API_KEYS: envFields.list(),
  /** The runner's public origin: the agent card's interface URL and artifact links are built on it. */
  PUBLIC_RUNNER_URL: envFields
    .httpUrl()
    .default('http://127.0.0.1:8080')
    .transform((v) => v.replace(/\/+$/, '')),
  /** ARTIFACTS_DIR, ARTIFACT_STORE, ARTIFACT_DOWNLOAD, S3_*: where job artifacts live. */
  ...artifactEnv,
  /** RUNNER_MAX_QUEUED_PER_OWNER, RUNNER_MAX_RUNNING_PER_OWNER, RUNNER_DISPATCH_AHEAD: fair share. */
  ...runnerQueueEnv,
  MAX_BODY_BYTES: envFields.positiveInt(256 * 1024),
  DATABASE_POOL_SIZE: envFields.positiveInt(10),
  DEFAULT_MODEL: z.string().min(1).optional(),
  HOSTED_BROWSER_WS_URL: z
    .string()
    .refine((v) => /^wss?:\/\//.test(v) && URL.canParse(v), 'must be a ws:// or wss:// URL')
    .optional(),
  /** A blocking SendMessage answers with the still-working task after this long. */
  A2A_BLOCKING_TIMEOUT_MS: envFields.positiveInt(120_000),
  /** PUSH_ALLOWED_HOSTS, PUSH_DNS_SERVERS: where webhooks may go (checked when a config is stored). */
  ...webhookEnv,
  /** Push notification configs one task may hold. */
  PUSH_CONFIGS_PER_TASK: envFields.positiveInt(10),
  /** Configs one owner may hold on open tasks and create within an hour, all tasks together. */
  PUSH_CONFIGS_PER_OWNER: envFields.positiveInt(1000),
  /** Extra Host header values /mcp accepts besides the listener's and PUBLIC_RUNNER_URL's. */
  MCP_ALLOWED_HOSTS: envFields.list(),
  /** Origins /mcp accepts from browsers besides PUBLIC_RUNNER_URL's (requests without Origin pass). */
  MCP_ALLOWED_ORIGINS: envFields.list(),
});
export type AgentGatewayConfig = z.infer<typeof agentGatewayEnv> & { llm: LlmModelRegistry };

export function loadAgentGatewayConfig(env: NodeJS.ProcessEnv = process.env): AgentGatewayConfig {
  const config = loadConfigOrExit('agent-gateway', agentGatewayEnv, env, {
    sensitive: ['API_KEYS', ...LLM_SENSITIVE, ...ARTIFACT_SENSITIVE],
  });
  const served = servedLlmModels(config);
  const problems = [...('problem' in served ? [served.problem] : []), ...artifactEnvProblems(config)];
  if (problems.length || 'problem' in served)
    return exitOnConfigError(new ConfigError('agent-gateway', problems));
  return { ...config, llm: served.registry };
}
