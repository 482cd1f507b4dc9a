import type { MainDb } from '@suite/db';
import { domainTxtRecord } from '@suite/project-runtime';
import {
  appSchemesOf,
  DEFAULT_AUTH_SETTINGS,
  type ProjectWithSettings,
} from '../projects/project-context.js';

// What the control plane shows of a project. Secrets (the custom identity-provider client secret,
// the SMTP password) are never shown back, only whether one is set.

export interface AuthSettingsView {
  enabled: boolean;
  emailPassword: boolean;
  allowSignups: boolean;
  idpMode: MainDb.AuthSettings['idpMode'];
  idpClientId: string | null;
  hasClientSecret: boolean;
  /** App schemes allowed for redirect_uri; null: any app scheme but the browser hand-off ones. */
  redirectSchemes: string[] | null;
  /** Whether `/mcp` and its OAuth authorization server are on. */
  mcpEnabled: boolean;
}

export interface SmtpSettingsView {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  hasPassword: boolean;
  from: string;
  updatedAt: string;
}

export interface DomainView {
  id: string;
  domain: string;
  verified: boolean;
  verifiedAt: string | null;
  verificationToken: string;
  /** The DNS TXT record that proves control of the domain. */
  dnsRecord: { type: 'TXT'; name: string; value: string };
  createdAt: string;
}

export interface ProjectView {
  id: string;
  slug: string;
  name: string;
  /** Host names that serve the project: its id host, its slug host and its verified domains. */
  hosts: string[];
  publicUrl: string;
  auth: AuthSettingsView;
  /** null until SMTP is configured; mail cannot be delivered before. */
  smtp: SmtpSettingsView | null;
  domains: DomainView[];
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export function authSettingsView(saved: MainDb.AuthSettings | null): AuthSettingsView {
  const settings = saved ?? DEFAULT_AUTH_SETTINGS;
  return {
    enabled: settings.enabled,
    emailPassword: settings.emailPassword,
    allowSignups: settings.allowSignups,
    idpMode: settings.idpMode,
    idpClientId: settings.idpClientId,
    hasClientSecret: Boolean(settings.idpClientSecret),
    redirectSchemes: appSchemesOf(settings.redirectSchemes),
    mcpEnabled: settings.mcpEnabled,
  };
}

export function smtpSettingsView(saved: MainDb.SmtpSettings | null): SmtpSettingsView | null {
  if (!saved) return null;
  return {
    host: saved.host,
    port: saved.port,
    secure: saved.secure,
    user: saved.user,
    hasPassword: Boolean(saved.pass),
    from: saved.from,
    updatedAt: saved.updatedAt.toISOString(),
  };
}

export function domainView(domain: MainDb.CustomDomain): DomainView {
  return {
    id: domain.id,
    domain: domain.domain,
    verified: domain.verified,
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    verificationToken: domain.verificationToken,
    dnsRecord: { type: 'TXT', ...domainTxtRecord(domain.domain, domain.verificationToken) },
    createdAt: domain.createdAt.toISOString(),
  };
}

export function projectView(
  project: ProjectWithSettings,
  where: { hosts: string[]; publicUrl: string },
): ProjectView {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    hosts: where.hosts,
    publicUrl: where.publicUrl,
    auth: authSettingsView(project.authSettings),
    smtp: smtpSettingsView(project.smtpSettings),
    domains: [...project.domains]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map(domainView),
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}
