import type { MainClient, MainDb } from '@suite/db';
import { sqlPool } from '@suite/db';

/** A project's row with what serving it needs: its auth and SMTP settings and its custom domains. */
export type ProjectRecord = MainDb.Project & {
  authSettings: MainDb.AuthSettings | null;
  smtpSettings: MainDb.SmtpSettings | null;
  domains: MainDb.CustomDomain[];
};

/** How a project is named: its id, its slug, or a verified custom domain. */
export type ProjectKey = { id: string } | { slug: string } | { domain: string };

// One statement for the row and its settings (a cold request used to wait for four): the settings
// as JSON of their rows, the domains as an array of them.
const SELECT = `
SELECT p.id, p.slug, p.name, p.tenant_database, p.tenant_server, p.tenant_schema_version,
       p.tenant_moving_since, p.created_at, p.updated_at,
       to_jsonb(a) AS auth, to_jsonb(s) AS smtp,
       COALESCE((SELECT jsonb_agg(to_jsonb(d) ORDER BY d.created_at, d.id)
                   FROM custom_domains d WHERE d.project_id = p.id), '[]'::jsonb) AS domains
  FROM projects p
  LEFT JOIN auth_settings a ON a.project_id = p.id
  LEFT JOIN smtp_settings s ON s.project_id = p.id`;

const STATEMENTS = {
  id: { name: 'project-record-by-id', text: `${SELECT} WHERE p.id = $1::uuid` },
  slug: { name: 'project-record-by-slug', text: `${SELECT} WHERE p.slug = $1` },
  domain: {
    name: 'project-record-by-domain',
    text: `${SELECT} WHERE p.id = (SELECT project_id FROM custom_domains WHERE domain = $1 AND verified)`,
  },
} as const;

interface Row {
  id: string;
  slug: string;
  name: string;
  tenant_database: string;
  tenant_server: string;
  tenant_schema_version: string | null;
  tenant_moving_since: Date | null;
  created_at: Date;
  updated_at: Date;
  auth: Record<string, unknown> | null;
  smtp: Record<string, unknown> | null;
  domains: Record<string, unknown>[];
}

/** Reads a project's record in one round trip to the main database; null when none is named so. */
export async function readProjectRecord(db: MainClient, key: ProjectKey): Promise<ProjectRecord | null> {
  const [by, value] =
    'id' in key
      ? (['id', key.id] as const)
      : 'slug' in key
        ? (['slug', key.slug] as const)
        : (['domain', key.domain] as const);
  const { rows } = await sqlPool(db).query<Row>({ ...STATEMENTS[by], values: [value] });
  const row = rows[0];
  return row ? recordOf(row) : null;
}

const date = (value: unknown): Date => new Date(value as string);
const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : date(value);

function recordOf(row: Row): ProjectRecord {
  const a = row.auth;
  const s = row.smtp;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    tenantDatabase: row.tenant_database,
    tenantServer: row.tenant_server,
    tenantSchemaVersion: row.tenant_schema_version,
    tenantMovingSince: row.tenant_moving_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    authSettings: a
      ? {
          projectId: a.project_id as string,
          enabled: a.enabled as boolean,
          emailPassword: a.email_password as boolean,
          allowSignups: a.allow_signups as boolean,
          idpMode: a.idp_mode as MainDb.AuthSettings['idpMode'],
          idpClientId: (a.idp_client_id as string | null) ?? null,
          idpClientSecret: (a.idp_client_secret as string | null) ?? null,
          redirectSchemes: (a.redirect_schemes as MainDb.AuthSettings['redirectSchemes']) ?? null,
          mcpEnabled: a.mcp_enabled as boolean,
          updatedAt: date(a.updated_at),
        }
      : null,
    smtpSettings: s
      ? {
          projectId: s.project_id as string,
          host: s.host as string,
          port: s.port as number,
          secure: s.secure as boolean,
          user: (s.user as string | null) ?? null,
          pass: (s.pass as string | null) ?? null,
          from: s.from as string,
          updatedAt: date(s.updated_at),
        }
      : null,
    domains: row.domains.map((d) => ({
      id: d.id as string,
      projectId: d.project_id as string,
      domain: d.domain as string,
      verified: d.verified as boolean,
      verificationToken: d.verification_token as string,
      verifiedAt: dateOrNull(d.verified_at),
      createdAt: date(d.created_at),
    })),
  };
}
