import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { CliError } from '../cli-error.js';

/** The project's `.env` (dotenv syntax), empty when the file is absent. */
export function readEnvFile(dir: string): Record<string, string> {
  const file = join(dir, '.env');
  if (!existsSync(file)) return {};
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** The project's own identity-provider client: only when the env file has both keys. */
export interface CustomIdp {
  clientId: string;
  clientSecret: string;
  /** Discovery base; the host's default provider when absent. */
  issuerUrl?: string;
}

export function customIdpOf(env: Record<string, string>): CustomIdp | null {
  const clientId = env.IDP_CLIENT_ID?.trim();
  const clientSecret = env.IDP_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  const issuerUrl = env.IDP_ISSUER_URL?.trim();
  return { clientId, clientSecret, ...(issuerUrl ? { issuerUrl } : {}) };
}

/** The body of `PUT /v1/projects/{id}/smtp`. */
export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

/**
 * SMTP settings from the env file (SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS,
 * SMTP_FROM), or null when SMTP_HOST is absent (the local mail sink is used then).
 */
export function smtpOf(env: Record<string, string>): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const secure = /^(1|true|yes)$/i.test(env.SMTP_SECURE?.trim() ?? '');
  const portText = env.SMTP_PORT?.trim() || (secure ? '465' : '587');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw new CliError(`.env: SMTP_PORT must be a port number (got "${portText}")`);
  }
  const from = env.SMTP_FROM?.trim();
  if (!from)
    throw new CliError('.env: SMTP_FROM is required with SMTP_HOST (e.g. "Acme <no-reply@acme.com>")');
  const user = env.SMTP_USER?.trim();
  return { host, port, secure, from, ...(user ? { user, pass: env.SMTP_PASS ?? '' } : {}) };
}
