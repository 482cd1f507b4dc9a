import { isUuid, type MainDb } from '@suite/db';
import {
  bodyObject,
  invalid,
  optionalBoolean,
  optionalString,
  queryInteger,
  queryString,
  requiredBoolean,
  requiredInteger,
  requiredOneOf,
  requiredString,
  type Fields,
} from './input-fields.js';
import { appSchemeProblem } from '../user-auth/redirect-uri.js';

/** Slugs that name platform services on the project-host domain, or would read as if they did. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'admin',
  'app',
  'apps',
  'auth',
  'login',
  'logout',
  'signup',
  'account',
  'accounts',
  'dashboard',
  'console',
  'control',
  'control-plane',
  'platform',
  'internal',
  'system',
  'root',
  'mail',
  'email',
  'smtp',
  'imap',
  'pop',
  'mx',
  'ns',
  'ns1',
  'ns2',
  'dns',
  'ftp',
  'ssh',
  'vpn',
  'cdn',
  'static',
  'assets',
  'media',
  'files',
  'uploads',
  'docs',
  'help',
  'support',
  'status',
  'billing',
  'blog',
  'oauth',
  'sso',
  'idp',
  'id',
  'identity',
  'health',
  'metrics',
  'localhost',
]);

const SLUG = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;

export interface CreateProjectInput {
  slug: string;
  name: string;
}

export function parseCreateProject(raw: unknown): CreateProjectInput {
  const body = bodyObject(raw);
  const slug = requiredString(body, 'slug', { max: 63 });
  if (slug.length < 3) throw invalid('slug', 'must be 3 to 63 characters');
  if (!SLUG.test(slug)) {
    throw invalid(
      'slug',
      'must use lower-case letters (a-z), digits and hyphens, and start and end with a letter or digit',
    );
  }
  if (isUuid(slug)) throw invalid('slug', 'must not be a uuid (project ids are)');
  if (RESERVED_SLUGS.has(slug)) throw invalid('slug', `"${slug}" is reserved`);
  const name = optionalString(body, 'name', { trim: true, max: 100 }) ?? slug;
  return { slug, name };
}

export type AuthSettingsInput = Pick<
  MainDb.AuthSettings,
  'enabled' | 'emailPassword' | 'allowSignups' | 'idpMode'
> & {
  /** undefined keeps the saved value, null clears it. */
  idpClientId: string | null | undefined;
  idpClientSecret: string | null | undefined;
  /** App schemes allowed for redirect_uri; null (absent): any but the browser hand-off ones. */
  redirectSchemes: string[] | null;
};

const MAX_REDIRECT_SCHEMES = 20;

function redirectSchemes(body: Fields): string[] | null {
  const raw = body.redirectSchemes;
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) throw invalid('redirectSchemes', 'must be a list of app schemes, or null');
  if (raw.length > MAX_REDIRECT_SCHEMES)
    throw invalid('redirectSchemes', `must list at most ${MAX_REDIRECT_SCHEMES} schemes`);
  const schemes = raw.map((entry: unknown, i) => {
    if (typeof entry !== 'string') throw invalid('redirectSchemes', `entry ${i} must be a string`);
    const scheme = entry
      .trim()
      .toLowerCase()
      .replace(/:(\/\/)?$/, '');
    const problem = appSchemeProblem(scheme);
    if (problem) throw invalid('redirectSchemes', `"${entry}" ${problem}`);
    return scheme;
  });
  return [...new Set(schemes)];
}

export const IDP_MODES = ['platform', 'custom', 'off'] as const;

export function parseAuthSettings(raw: unknown): AuthSettingsInput {
  const body = bodyObject(raw);
  return {
    enabled: requiredBoolean(body, 'enabled'),
    emailPassword: requiredBoolean(body, 'emailPassword'),
    allowSignups: requiredBoolean(body, 'allowSignups'),
    idpMode: requiredOneOf(body, 'idpMode', IDP_MODES),
    idpClientId: optionalString(body, 'idpClientId', { trim: true, max: 512 }),
    idpClientSecret: optionalString(body, 'idpClientSecret', { max: 1024 }),
    redirectSchemes: redirectSchemes(body),
  };
}

export interface SmtpSettingsInput {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  /** undefined keeps the saved password (the API never shows it back), null clears it. */
  pass: string | null | undefined;
  from: string;
}

const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[?[0-9a-f:.]+\]?$/i;
const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$|^[^\s@<>",;]+@localhost$/i;
const NAMED_ADDRESS = /^([^<>]*)<([^<>]+)>$/;

export function parseSmtpSettings(raw: unknown): SmtpSettingsInput {
  const body = bodyObject(raw);
  const host = requiredString(body, 'host', { trim: true, max: 253 });
  if (!HOST.test(host)) throw invalid('host', 'must be a host name or an IP address');
  const port = requiredInteger(body, 'port', 1, 65535);
  const secure = requiredBoolean(body, 'secure');
  const user = optionalString(body, 'user', { max: 320 }) ?? null;
  const pass = optionalString(body, 'pass', { max: 1024 });
  const from = requiredString(body, 'from', { trim: true, max: 320 });
  const named = NAMED_ADDRESS.exec(from);
  if (!ADDRESS.test(named ? named[2]!.trim() : from)) {
    throw invalid('from', 'must be a mail address, optionally with a name: "Acme <no-reply@acme.com>"');
  }
  return { host, port, secure, user, pass, from };
}

export interface AddDomainInput {
  domain: string;
  verified: boolean;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name such as `app.example.com`: lower-cased, without a trailing dot or a port. */
export function parseAddDomain(raw: unknown): AddDomainInput {
  const body = bodyObject(raw);
  const domain = requiredString(body, 'domain', { trim: true, max: 253 }).toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    throw invalid(
      'domain',
      'must be a host name such as app.example.com (letters, digits, hyphens and dots)',
    );
  }
  if (/^\d+$/.test(labels.at(-1)!)) throw invalid('domain', 'must be a host name, not an IP address');
  return { domain, verified: optionalBoolean(body, 'verified') ?? false };
}

export interface PageInput {
  page: number;
  pageSize: number;
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export function parsePage(query: Fields): PageInput {
  return {
    page: queryInteger(query, 'page', 1, 1, 1_000_000),
    pageSize: queryInteger(query, 'pageSize', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX),
  };
}

export function parseSearch(query: Fields): string | undefined {
  const search = queryString(query, 'search')?.trim().toLowerCase();
  if (search && search.length > 320) throw invalid('search', 'must be at most 320 characters');
  return search || undefined;
}

export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;

export function parseMailStatus(query: Fields): MainDb.MailLog['status'] | undefined {
  const status = queryString(query, 'status');
  if (status === undefined || status === '') return undefined;
  return requiredOneOf({ status }, 'status', MAIL_STATUSES);
}
