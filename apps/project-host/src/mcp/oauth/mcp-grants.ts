import { Injectable } from '@nestjs/common';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import { Clock } from '../../platform/clock.js';
import type { ProjectContext } from '../../projects/project-context.js';

export interface McpGrantView {
  clientId: string;
  clientName: string | null;
  /** Where the client is sent back to (its registered redirect URIs). */
  redirectUris: string[];
  approvedAt: string;
  /** Refresh tokens of this client that still work (one per connection the client holds). */
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
