import {
  type AddDomainDto,
  type AuthSettingsDto,
  type CreateProjectDto,
  normaliseAppScheme,
  normaliseDomain,
  PAGE_SIZE_DEFAULT,
  type PageQueryDto,
  type SmtpSettingsDto,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';

// Control-plane inputs: the DTOs of @suite/contracts, already validated at the controller edge
// (ADMIN_INPUT), turned into what the services store. Nothing here refuses a value.

export interface CreateProjectInput {
  slug: string;
  name: string;
}

export function toCreateProject({ slug, name }: CreateProjectDto): CreateProjectInput {
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

export function toAuthSettings(input: AuthSettingsDto): AuthSettingsInput {
  return {
    enabled: input.enabled,
    emailPassword: input.emailPassword,
    allowSignups: input.allowSignups,
    idpMode: input.idpMode,
    idpClientId: input.idpClientId,
    idpClientSecret: input.idpClientSecret,
    // The DTO let only strings naming app schemes through (`acme`, `acme:` and `acme://` alike).
    redirectSchemes: input.redirectSchemes
      ? [...new Set((input.redirectSchemes as string[]).map(normaliseAppScheme))]
      : null,
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

export function toSmtpSettings(input: SmtpSettingsDto): SmtpSettingsInput {
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
export function toAddDomain(input: AddDomainDto): AddDomainInput {
  return { domain: normaliseDomain(input.domain), verified: input.verified ?? false };
}

export interface PageInput {
  page: number;
  pageSize: number;
}

export function toPage(input: PageQueryDto): PageInput {
  return {
    page: input.page === undefined ? 1 : Number(input.page),
    pageSize: input.pageSize === undefined ? PAGE_SIZE_DEFAULT : Number(input.pageSize),
  };
}
