import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';

export const jobsApiEnv = z.object({
  ...serviceEnv,
  PORT: envFields.port(8080),
  API_KEYS: envFields.list(),
  ARTIFACTS_DIR: z.string().min(1).default('.data/artifacts'),
  GATEWAY_URL: envFields.httpUrl().optional(),
  MAX_BODY_BYTES: envFields.positiveInt(256 * 1024),
});
export type JobsApiConfig = z.infer<typeof jobsApiEnv>;

export const loadJobsApiConfig = (env: NodeJS.ProcessEnv = process.env): JobsApiConfig =>
  loadConfigOrExit('jobs-api', jobsApiEnv, env, { sensitive: ['API_KEYS'] });
