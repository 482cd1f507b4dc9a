import type { MainDb, TenantClient } from '@suite/db';
import type { ProjectRecord } from '@suite/project-runtime';

/** The project's row with its settings and domains, as the ProjectDirectory reads it. */
export type ProjectWithSettings = ProjectRecord;

/** The project a request is for, resolved from its Host header. */
export interface ProjectContext {
  project: ProjectWithSettings;
  /** Auth settings with the spec's defaults applied when none were saved yet. */
  auth: Pick<
    MainDb.AuthSettings,
    | 'enabled'
    | 'emailPassword'
    | 'allowSignups'
    | 'idpMode'
    | 'idpClientId'
    | 'idpClientSecret'
    | 'mcpEnabled'
  > & {
    /** App schemes allowed for redirect_uri; null (or absent): any but the browser hand-off ones. */
    redirectSchemes?: readonly string[] | null;
  };
  /** Host names that serve this project: the id host, the slug host and verified custom domains. */
  hosts: string[];
  /** The public address of the project (scheme and port of PUBLIC_URL, the slug host). */
  publicUrl: string;
  /**
   * `platform dev` only (PLATFORM_DEV_MODE): the local address (PUBLIC_URL) whose proxy serves
   * this project's MCP and consent page, naming itself in X-Forwarded-Host. Never set on deployed hosts.
   */
  localOrigin?: string;
  /** The project's tenant database (schema platform_auth). */
  tenant: TenantClient;
}

export const DEFAULT_AUTH_SETTINGS: ProjectContext['auth'] = {
  enabled: true,
  emailPassword: true,
  allowSignups: true,
  idpMode: 'platform',
  idpClientId: null,
  idpClientSecret: null,
  redirectSchemes: null,
  mcpEnabled: true,
};

/** The saved `redirect_schemes` JSON as a list of schemes (null when none was set). */
export function appSchemesOf(saved: unknown): string[] | null {
  if (!Array.isArray(saved)) return null;
  return saved.filter((scheme): scheme is string => typeof scheme === 'string');
}
