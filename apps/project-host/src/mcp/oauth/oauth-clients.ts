import { Injectable } from '@nestjs/common';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomToken, sha256Hex } from '@suite/project-runtime';
import { timingSafeEqual } from 'node:crypto';
import type { ProjectContext } from '../../projects/project-context.js';
import { type ClientAuthMethod, checkClientMetadata } from './client-metadata.js';
import { ClientMetadataDocuments, isClientMetadataUrl } from './client-metadata-documents.js';

export type { ClientAuthMethod } from './client-metadata.js';

export interface OAuthClientRecord {
  id: string;
  /** Registered here (`mcp_…`), or named by the https URL of its client ID metadata document. */
  kind: 'registered' | 'metadata-document';
  name: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  secretHash: string | null;
  /** Metadata as registered or as the document said (what the consent page shows comes from here). */
  metadata: OAuthClientMetadata;
}

/**
 * The project's MCP clients (platform_auth.oauth_clients of its tenant database): dynamic client
 * registration (RFC 7591), metadata checked with the MCP SDK's own schema plus our redirect rules.
 * Public clients (`none`, what MCP clients use) prove nothing but PKCE; confidential ones get a
 * secret, stored as its sha256. A client whose id is an https URL is described by its client ID
 * metadata document instead: fetched (or taken from the cache) when an authorization starts, and
 * stored under that id when a user approves it (refreshed at every approval), so consents and
 * grants name it as they name registered clients.
 */
@Injectable()
export class OAuthClients {
  constructor(private readonly documents: ClientMetadataDocuments) {}

  async register(
    ctx: ProjectContext,
    body: unknown,
  ): Promise<
    OAuthClientMetadata & { client_id: string; client_id_issued_at: number; client_secret?: string }
  > {
    const stored = checkClientMetadata(body, 'client_secret_basic');
    const authMethod = stored.token_endpoint_auth_method;
    const id = `mcp_${randomToken().slice(0, 24)}`;
    const secret = authMethod === 'none' ? undefined : randomToken();
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

  /**
   * The client of an authorization request: a registered one, or one whose metadata document is
   * fetched (or cached) now. Throws `OAuthError` `invalid_client` when that document is refused.
   * Nothing is stored for a document yet: `remember` does that once a user approves the client,
   * so anyone pointing the consent page at documents of their own fills no table.
   */
  async resolve(ctx: ProjectContext, clientId: unknown): Promise<OAuthClientRecord | undefined> {
    if (!isClientMetadataUrl(clientId)) return this.find(ctx, clientId);
    const { metadata } = await this.documents.get(clientId);
    return {
      id: clientId,
      kind: 'metadata-document',
      name: metadata.client_name ?? null,
      redirectUris: metadata.redirect_uris,
      authMethod: 'none',
      secretHash: null,
      metadata,
    };
  }

  /**
   * Stores a metadata-document client as its document says now (consents and grants refer to the
   * row), or refreshes the stored one; registered clients are stored already.
   */
  async remember(ctx: ProjectContext, client: OAuthClientRecord): Promise<void> {
    if (client.kind !== 'metadata-document') return;
    const data = {
      name: client.name,
      redirectUris: client.redirectUris,
      authMethod: client.authMethod,
      secretHash: null,
      metadata: client.metadata as object,
    };
    await ctx.tenant.oAuthClient.upsert({
      where: { id: client.id },
      create: { id: client.id, ...data },
      update: data,
    });
  }

  /**
   * A client as stored, without fetching anything: the token endpoint's view (a metadata-document
   * client was stored when its authorization started).
   */
  async find(ctx: ProjectContext, clientId: unknown): Promise<OAuthClientRecord | undefined> {
    const known =
      typeof clientId === 'string' &&
      (/^mcp_[A-Za-z0-9_-]{1,64}$/.test(clientId) ||
        (isClientMetadataUrl(clientId) && clientId.length <= 2_000));
    if (!known) return undefined;
    const row = await ctx.tenant.oAuthClient.findUnique({ where: { id: clientId } });
    return row ? recordOf(row) : undefined;
  }

  /** Whether `secret` proves the client (always for public clients, which have none). */
  authenticates(client: OAuthClientRecord, secret: string | undefined): boolean {
    if (client.authMethod === 'none') return true;
    if (!secret || !client.secretHash) return false;
    return timingSafeEqual(Buffer.from(sha256Hex(secret)), Buffer.from(client.secretHash));
  }
}

function recordOf(row: {
  id: string;
  name: string | null;
  redirectUris: string[];
  authMethod: string;
  secretHash: string | null;
  metadata: unknown;
}): OAuthClientRecord {
  return {
    id: row.id,
    kind: isClientMetadataUrl(row.id) ? 'metadata-document' : 'registered',
    name: row.name,
    redirectUris: row.redirectUris,
    authMethod: row.authMethod as ClientAuthMethod,
    secretHash: row.secretHash,
    metadata: row.metadata as OAuthClientMetadata,
  };
}
