import {
  AddDomainDto,
  AuthSettingsDto,
  CreateProjectDto,
  EmailsQueryDto,
  normaliseDomain,
  PAGE_SIZE_DEFAULT,
  PageQueryDto,
  SmtpSettingsDto,
  UsersQueryDto,
  validateAdminInput,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { AuthError } from '@suite/errors';
import type { Fields } from './input-fields.js';
import { appSchemeProblem } from '../user-auth/redirect-uri.js';

// Control-plane inputs: the DTOs of @suite/contracts (validateAdminInput: the first problem, worded
// `<field> <problem>`), then what only the host can check or fill in.

export interface CreateProjectInput {
  slug: string;
  name: string;
}

export function parseCreateProject(raw: unknown): CreateProjectInput {
  const { slug, name } = validateAdminInput(CreateProjectDto, raw, 'body');
  return { slug, name: name ?? slug };
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
  /** undefined keeps the saved value. */
  mcpEnabled: boolean | undefined;
};

/** Each entry, in order: a string naming an app scheme (`acme`, `acme:` and `acme://` alike). */
function redirectSchemes(raw: unknown[] | null | undefined): string[] | null {
  if (!raw) return null;
  const schemes = raw.map((entry: unknown, i) => {
    if (typeof entry !== 'string')
      throw AuthError.invalidValue('redirectSchemes', `entry ${i} must be a string`);
    const scheme = entry
      .trim()
      .toLowerCase()
      .replace(/:(\/\/)?$/, '');
    const problem = appSchemeProblem(scheme);
    if (problem) throw AuthError.invalidValue('redirectSchemes', `"${entry}" ${problem}`);
    return scheme;
  });
  return [...new Set(schemes)];
}

export function parseAuthSettings(raw: unknown): AuthSettingsInput {
  const input = validateAdminInput(AuthSettingsDto, raw, 'body');
  return {
    enabled: input.enabled,
    emailPassword: input.emailPassword,
    allowSignups: input.allowSignups,
    idpMode: input.idpMode,
    idpClientId: input.idpClientId,
    idpClientSecret: input.idpClientSecret,
    redirectSchemes: redirectSchemes(input.redirectSchemes),
    mcpEnabled: input.mcpEnabled,
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

export function parseSmtpSettings(raw: unknown): SmtpSettingsInput {
  const input = validateAdminInput(SmtpSettingsDto, raw, 'body');
  return {
    host: input.host,
    port: input.port,
    secure: input.secure,
    user: input.user ?? null,
    pass: input.pass,
    from: input.from,
  };
}

export interface AddDomainInput {
  domain: string;
  verified: boolean;
}

/** A host name such as `app.example.com`: lower-cased, without a trailing dot or a port. */
export function parseAddDomain(raw: unknown): AddDomainInput {
  const input = validateAdminInput(AddDomainDto, raw, 'body');
  return { domain: normaliseDomain(input.domain), verified: input.verified ?? false };
}

export interface PageInput {
  page: number;
  pageSize: number;
}

export function parsePage(query: Fields): PageInput {
  const input = validateAdminInput(PageQueryDto, query, 'query');
  return {
    page: input.page === undefined ? 1 : Number(input.page),
    pageSize: input.pageSize === undefined ? PAGE_SIZE_DEFAULT : Number(input.pageSize),
  };
}

/** `?search=`, on its own (parsePage reads the page of the same query). */
export function parseSearch(query: Fields): string | undefined {
  return (
    validateAdminInput(UsersQueryDto, { search: (query as { search?: unknown }).search }, 'query').search ||
    undefined
  );
}

/** `?status=`, on its own (parsePage reads the page of the same query). */
export function parseMailStatus(query: Fields): MainDb.MailLog['status'] | undefined {
  return validateAdminInput(EmailsQueryDto, { status: (query as { status?: unknown }).status }, 'query')
    .status;
}
