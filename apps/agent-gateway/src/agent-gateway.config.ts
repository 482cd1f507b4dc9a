import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';

export const agentGatewayEnv = z.object({
  ...serviceEnv,
  PORT: envFields.port(8081),
  API_KEYS: envFields.list(),
  PUBLIC_RUNNER_URL: envFields.httpUrl().default('http://127.0.0.1:8080'),
});
export type AgentGatewayConfig = z.infer<typeof agentGatewayEnv>;

export const loadAgentGatewayConfig = (env: NodeJS.ProcessEnv = process.env): AgentGatewayConfig =>
  loadConfigOrExit('agent-gateway', agentGatewayEnv, env, { sensitive: ['API_KEYS'] });
