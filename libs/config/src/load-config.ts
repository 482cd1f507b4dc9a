import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { SERVICE_SENSITIVE } from './service-env.js';

export interface LoadConfigOptions {
  /** Variables whose values must never be echoed in error messages or logs. */
  sensitive?: readonly string[];
}

/**
 * Parses `env` with `schema`. Keys of the schema are the variable names, so every problem names the
 * variable. Values of sensitive variables are never repeated back.
 */
export function loadConfig<S extends z.ZodObject>(
  service: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): z.infer<S> {
  // An empty string means "unset" for env vars, as in most twelve-factor tooling.
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const sensitive = new Set([...SERVICE_SENSITIVE, ...(options.sensitive ?? [])]);
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = raw[String(issue.path[0])];
    const shown = value === undefined ? 'unset' : sensitive.has(name) ? '(hidden)' : JSON.stringify(value);
    return `${name} ${issue.message.replace(/^Invalid input: /, '')} (got ${shown})`;
  });
  throw new ConfigError(service, problems);
}

/** Prints a ConfigError's readable message and exits 1; anything else is rethrown. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

/** Boot-time variant: prints the readable message and exits 1 instead of throwing a stack trace. */
export function loadConfigOrExit<S extends z.ZodObject>(
  service: string,
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): z.infer<S> {
  try {
    return loadConfig(service, schema, env, options);
  } catch (error) {
    return exitOnConfigError(error);
  }
}

/** A copy of `config` safe to log: sensitive values and credentials inside URLs are masked. */
export function maskConfig(
  config: Record<string, unknown>,
  sensitive: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (sensitive.includes(key) || SERVICE_SENSITIVE.includes(key))
      out[key] = value === undefined ? undefined : '***';
    else if (typeof value === 'string' && /^[a-z]+:\/\/[^/]*@/.test(value)) out[key] = maskUrl(value);
    else out[key] = value;
  }
  return out;
}

export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '***';
  }
}
