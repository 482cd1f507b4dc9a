import { Injectable } from '@nestjs/common';
import {
  OAuthClientMetadataSchema,
  type OAuthClientMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomToken, sha256Hex } from '@suite/project-runtime';
import { timingSafeEqual } from 'node:crypto';
import type { ProjectContext } from '../../projects/project-context.js';
import { OAuthError } from './oauth-error.js';
import { redirectUriProblem } from './redirect-uris.js';

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';
const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_post', 'client_secret_basic'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;

export interface OAuthClientRecord {
  id: string;
  name: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  secretHash: string | null;
  /** Metadata as registered (what the consent page shows comes from here). */
  metadata: OAuthClientMetadata;
}

/**
 * The project's MCP clients (platform_auth.oauth_clients of its tenant database): dynamic client
 * registration (RFC 7591), metadata checked with the MCP SDK's own schema plus our redirect rules.
 * Public clients (`none`, what MCP clients use) prove nothing but PKCE; confidential ones get a
 * secret, stored as its sha256.
 */
@Injectable()
export class OAuthClients {
  async register(
    ctx: ProjectContext,
    body: unknown,
  ): Promise<
    OAuthClientMetadata & { client_id: string; client_id_issued_at: number; client_secret?: string }
  > {
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new OAuthError(
        'invalid_client_metadata',
        `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid client metadata'}`,
      );
    }
    const metadata = parsed.data;
    if (metadata.redirect_uris.length === 0 || metadata.redirect_uris.length > MAX_REDIRECT_URIS) {
      throw new OAuthError('invalid_redirect_uri', `redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    for (const uri of metadata.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthError('invalid_redirect_uri', `${uri} ${problem}`);
    }
    const authMethod = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as ClientAuthMethod;
    if (!AUTH_METHODS.includes(authMethod)) {
      throw new OAuthError(
        'invalid_client_metadata',
        `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
      );
    }
    const grants = metadata.grant_types ?? ['authorization_code'];
    if (grants.some((grant) => !GRANT_TYPES.includes(grant))) {
      throw new OAuthError(
        'invalid_client_metadata',
        `grant_types may hold ${GRANT_TYPES.join(' and ')} only`,
      );
    }
    if ((metadata.response_types ?? ['code']).some((type) => type !== 'code')) {
      throw new OAuthError('invalid_client_metadata', 'response_types may hold code only');
    }
    const id = `mcp_${randomToken().slice(0, 24)}`;
    const secret = authMethod === 'none' ? undefined : randomToken();
    const stored: OAuthClientMetadata = {
      ...metadata,
      client_name: metadata.client_name?.slice(0, 200),
      token_endpoint_auth_method: authMethod,
      grant_types: grants,
      response_types: ['code'],
    };
    const created = await ctx.tenant.oAuthClient.create({
      data: {
        id,
        name: stored.client_name ?? null,
        redirectUris: stored.redirect_uris,
        authMethod,
        secretHash: secret ? sha256Hex(secret) : null,
        metadata: stored as object,
      },
    });
    return {
      ...stored,
      client_id: id,
      client_id_issued_at: Math.floor(created.createdAt.getTime() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    };
  }

  async find(ctx: ProjectContext, clientId: unknown): Promise<OAuthClientRecord | undefined> {
    if (typeof clientId !== 'string' || !/^mcp_[A-Za-z0-9_-]{1,64}$/.test(clientId)) return undefined;
    const row = await ctx.tenant.oAuthClient.findUnique({ where: { id: clientId } });
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      redirectUris: row.redirectUris,
      authMethod: row.authMethod as ClientAuthMethod,
      secretHash: row.secretHash,
      metadata: row.metadata as OAuthClientMetadata,
    };
  }

  /** Whether `secret` proves the client (always for public clients, which have none). */
  authenticates(client: OAuthClientRecord, secret: string | undefined): boolean {
    if (client.authMethod === 'none') return true;
    if (!secret || !client.secretHash) return false;
    return timingSafeEqual(Buffer.from(sha256Hex(secret)), Buffer.from(client.secretHash));
  }
}
