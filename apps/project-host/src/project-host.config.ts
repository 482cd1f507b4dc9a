import { envFields, loadConfigOrExit, serviceEnv, z } from '@suite/config';

export const projectHostEnv = z.object({
  ...serviceEnv,
  PORT: envFields.port(8082),
  PLATFORM_ADMIN_TOKEN: z
    .string({ error: 'is required (the control-plane bearer token)' })
    .min(16, 'must be at least 16 characters'),
  PUBLIC_URL: envFields.httpUrl().default('http://localhost:8082'),
  PROJECT_HOST_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as localhost or example.com')
    .default('localhost'),
  /** Server URL with rights to CREATE DATABASE, for tenant databases (defaults to DATABASE_URL's server). */
  TENANT_ADMIN_DATABASE_URL: envFields.postgresUrl().optional(),
  IDP_CLIENT_ID: z.string().optional(),
  IDP_CLIENT_SECRET: z.string().optional(),
  IDP_ISSUER_URL: envFields.httpUrl().optional(),
});
export type ProjectHostConfig = z.infer<typeof projectHostEnv>;

export const loadProjectHostConfig = (env: NodeJS.ProcessEnv = process.env): ProjectHostConfig =>
  loadConfigOrExit('project-host', projectHostEnv, env, {
    sensitive: ['PLATFORM_ADMIN_TOKEN', 'IDP_CLIENT_SECRET'],
  });
