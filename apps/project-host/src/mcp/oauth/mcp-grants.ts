import { Injectable } from '@nestjs/common';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import { Clock } from '../../platform/clock.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { isClientMetadataUrl } from './client-metadata-documents.js';

export interface McpGrantView {
  clientId: string;
  clientName: string | null;
  /** Where the client is sent back to (its registered redirect URIs). */
  redirectUris: string[];
  approvedAt: string;
  /** Refresh tokens of this client that still work (one per connection the client holds). */
  liveConnections: number;
}

/** A connected client of one user as the control plane shows it. */
export interface McpConnectionView {
  clientId: string;
  clientName: string | null;
  /** Registered here (`mcp_…`), or named by the https URL of its client ID metadata document. */
  kind: 'registered' | 'metadata-document';
  redirectUris: string[];
  user: { id: string; email: string };
  /** When the user approved the client (the consent). */
  grantedAt: string;
  /**
   * When the client last got tokens (the code exchange or its latest refresh); null when it never
   * exchanged a code. Access-token calls of `/mcp` are not recorded.
   */
  lastTokenAt: string | null;
  /** Refresh tokens of this client and user that still work. */
  liveConnections: number;
}

/**
 * A user's MCP clients: the consents given on the consent page and the grants (session families
 * with the client's id) they led to. Revoking one forgets the consent and ends every grant of
 * that client for the user at once (its access tokens too, through the auth-state cache).
 */
@Injectable()
export class McpGrants {
  constructor(
    private readonly state: AuthStateCache,
    private readonly clock: Clock,
  ) {}

  async list(ctx: ProjectContext, userId: string): Promise<McpGrantView[]> {
    const now = this.clock.now();
    const consents = await ctx.tenant.oAuthConsent.findMany({
      where: { userId },
      include: { client: true },
      orderBy: { createdAt: 'asc' },
    });
    const live = await ctx.tenant.session.groupBy({
      by: ['clientId'],
      where: { userId, clientId: { not: null }, revokedAt: null, rotatedAt: null, expiresAt: { gt: now } },
      _count: { _all: true },
    });
    const counts = new Map(live.map((row) => [row.clientId, row._count._all]));
    return consents.map((consent) => ({
      clientId: consent.clientId,
      clientName: consent.client.name,
      redirectUris: consent.client.redirectUris,
      approvedAt: consent.createdAt.toISOString(),
      liveConnections: counts.get(consent.clientId) ?? 0,
    }));
  }

  /** Every user's connected clients (consents), newest first, for the control plane. */
  async page(
    ctx: ProjectContext,
    query: { userId?: string; skip: number; take: number },
  ): Promise<{ total: number; items: McpConnectionView[] }> {
    const where = query.userId ? { userId: query.userId } : {};
    const [total, consents] = await Promise.all([
      ctx.tenant.oAuthConsent.count({ where }),
      ctx.tenant.oAuthConsent.findMany({
        where,
        include: { client: true, user: { select: { email: true } } },
        orderBy: [{ createdAt: 'desc' }, { clientId: 'asc' }],
        skip: query.skip,
        take: query.take,
      }),
    ]);
    if (consents.length === 0) return { total, items: [] };
    const userIds = [...new Set(consents.map((consent) => consent.userId))];
    const clientIds = [...new Set(consents.map((consent) => consent.clientId))];
    const now = this.clock.now();
    const [latest, live] = await Promise.all([
      ctx.tenant.session.groupBy({
        by: ['userId', 'clientId'],
        where: { userId: { in: userIds }, clientId: { in: clientIds } },
        _max: { createdAt: true },
      }),
      ctx.tenant.session.groupBy({
        by: ['userId', 'clientId'],
        where: {
          userId: { in: userIds },
          clientId: { in: clientIds },
          revokedAt: null,
          rotatedAt: null,
          expiresAt: { gt: now },
        },
        _count: { _all: true },
      }),
    ]);
    const key = (userId: string, clientId: string | null) => `${userId} ${clientId}`;
    const lastToken = new Map(latest.map((row) => [key(row.userId, row.clientId), row._max.createdAt]));
    const liveCount = new Map(live.map((row) => [key(row.userId, row.clientId), row._count._all]));
    return {
      total,
      items: consents.map((consent) => ({
        clientId: consent.clientId,
        clientName: consent.client.name,
        kind: isClientMetadataUrl(consent.clientId) ? 'metadata-document' : 'registered',
        redirectUris: consent.client.redirectUris,
        user: { id: consent.userId, email: consent.user.email },
        grantedAt: consent.createdAt.toISOString(),
        lastTokenAt: lastToken.get(key(consent.userId, consent.clientId))?.toISOString() ?? null,
        liveConnections: liveCount.get(key(consent.userId, consent.clientId)) ?? 0,
      })),
    };
  }

  /** True when the user had approved the client (or still held a grant of it). */
  async revoke(ctx: ProjectContext, userId: string, clientId: string): Promise<boolean> {
    const [consents, sessions] = await ctx.tenant.$transaction([
      ctx.tenant.oAuthConsent.deleteMany({ where: { userId, clientId } }),
      ctx.tenant.session.updateMany({
        where: { userId, clientId, revokedAt: null },
        data: { revokedAt: this.clock.now() },
      }),
    ]);
    await this.state.invalidate(ctx.project.id, [userId]);
    return consents.count + sessions.count > 0;
  }
}
