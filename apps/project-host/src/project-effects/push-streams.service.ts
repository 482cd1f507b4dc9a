import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { SseWriter } from '@suite/nest-core';
import {
  looksLikeToken,
  ProjectPush,
  randomToken,
  sha256Hex,
  type PushMessage,
} from '@suite/project-runtime';
import { queuePrefix } from '@suite/queue';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { AuthStateCache } from '../events/auth-state.cache.js';
import { EphemeralStore } from '../platform/ephemeral-store.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import type { ProjectContext } from '../projects/project-context.js';
import { PushStreamRegistry } from './push-stream-registry.js';
import { AccessTokens } from '../user-auth/tokens/access-tokens.js';
import { audienceOf, RefreshSessions } from '../user-auth/tokens/refresh-sessions.js';

/** Who a push stream is for: the user, the session (family) and when the access token expires. */
export interface StreamGrant {
  sub: string;
  sid: string;
  /** Seconds since the epoch. */
  exp: number;
}

/** How a stream request authenticated (header, one-time ticket, or the older query token). */
export interface StreamCredentials {
  authorization?: string | undefined;
  /** As the query carried it: a repeated parameter is an array, and refused. */
  ticket?: unknown;
  accessToken?: unknown;
}

/** Why the host ended a stream (`event: ended`, `{ reason }`); `expired` has an event of its own. */
type EndReason = 'signed-out' | 'too-many-streams';

interface OpenStream {
  ctx: ProjectContext;
  grant: StreamGrant;
  end(reason: EndReason): void;
}

/**
 * The signed-in users' push streams on this process. A stream lives as long as its session: when
 * a user's auth state changes anywhere in the deployment (sign-out, password reset, sign-out
 * everywhere, an account claim, a detected token theft: AuthStateCache's pub/sub), every stream of
 * that user here checks its session again and ends when it is over. Streams of the user's other,
 * still signed-in sessions stay open. Each user holds at most PUSH_STREAMS_PER_USER streams, every
 * replica together (PushStreamRegistry; per process while Redis is away): a newer one ends the
 * oldest, so a reloaded tab or a crashed replica's leftovers never lock the user out.
 */
@Injectable()
export class PushStreams implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('project-push');
  /** project:user → the user's streams here by id, oldest first. */
  private readonly streams = new Map<string, Map<string, OpenStream>>();
  private stopWatching?: () => void;

  constructor(
    private readonly push: ProjectPush,
    private readonly tokens: AccessTokens,
    private readonly sessions: RefreshSessions,
    private readonly state: AuthStateCache,
    private readonly store: EphemeralStore,
    private readonly registry: PushStreamRegistry,
    @Inject(PROJECT_HOST_CONFIG)
    private readonly config: Pick<ProjectHostConfig, 'PUSH_STREAMS_PER_USER' | 'PUSH_TICKET_TTL_SECONDS'>,
  ) {}

  onModuleInit(): void {
    this.stopWatching = this.state.watch({
      changed: (projectId, userIds) => {
        for (const userId of userIds) this.recheck(this.streams.get(`${projectId}:${userId}`)?.values());
      },
      resync: () => {
        for (const streams of this.streams.values()) this.recheck(streams.values());
      },
    });
    this.registry.onEviction((projectId, userId, streamIds) => {
      const mine = this.streams.get(`${projectId}:${userId}`);
      for (const id of streamIds) mine?.get(id)?.end('too-many-streams');
    });
  }

  onModuleDestroy(): void {
    this.stopWatching?.();
  }

  /**
   * A single-use ticket for one stream, for clients that cannot send headers (EventSource): it
   * keeps the access token out of URLs (and so out of proxy and access logs).
   */
  async issueTicket(
    ctx: ProjectContext,
    authorization: string | undefined,
  ): Promise<{ ticket: string; expiresIn: number }> {
    const grant = await this.verify(ctx, bearerOf(authorization), 'Send Authorization: Bearer <accessToken>');
    const ticket = randomToken();
    const ttlSeconds = this.config.PUSH_TICKET_TTL_SECONDS;
    await this.store.set(this.ticketKey(ctx, ticket), JSON.stringify(grant), ttlSeconds * 1000);
    return { ticket, expiresIn: ttlSeconds };
  }

  /** Who may open the stream: a Bearer header, a ticket (spent here), or `?access_token=`. */
  async authenticate(ctx: ProjectContext, credentials: StreamCredentials): Promise<StreamGrant> {
    if (credentials.ticket !== undefined) {
      const stored =
        typeof credentials.ticket === 'string' && looksLikeToken(credentials.ticket)
          ? await this.store.take(this.ticketKey(ctx, credentials.ticket))
          : null;
      const grant = stored ? (JSON.parse(stored) as StreamGrant) : undefined;
      if (!grant || grant.exp * 1000 <= Date.now() || !(await this.sessions.isLive(ctx, grant))) {
        throw new AuthError(AuthErrorCode.Unauthorized, 'The push ticket is invalid, used or expired');
      }
      return grant;
    }
    // `?access_token=` is kept for clients written before tickets; it ends with the session too.
    const query = typeof credentials.accessToken === 'string' ? credentials.accessToken : undefined;
    const token = bearerOf(credentials.authorization) ?? query;
    return this.verify(ctx, token, 'Send Authorization: Bearer <accessToken>, or ?ticket=');
  }

  /** Serves the stream on `raw` (the reply is the caller's to hijack first). */
  async open(ctx: ProjectContext, grant: StreamGrant, raw: ServerResponse): Promise<void> {
    const sse = new SseWriter(raw);
    const key = `${ctx.project.id}:${grant.sub}`;
    const stream: OpenStream = {
      ctx,
      grant,
      end: (reason) => {
        sse.send({ reason }, 'ended');
        sse.end();
      },
    };
    const id = randomUUID();
    const cap = this.config.PUSH_STREAMS_PER_USER;
    let streams = this.streams.get(key);
    if (!streams) this.streams.set(key, (streams = new Map()));
    streams.set(id, stream);
    // The cap of this process holds even while Redis is away; the registry's holds across replicas.
    for (const [oldId, oldest] of streams) {
      if (streams.size <= cap) break;
      streams.delete(oldId);
      oldest.end('too-many-streams');
    }
    const evicted = await this.registry
      .register(ctx.project.id, grant.sub, id, cap)
      .catch((error: unknown) => {
        this.logger.warn({ err: error, projectId: ctx.project.id }, 'could not count a push stream');
        return [];
      });
    for (const oldId of evicted) streams.get(oldId)?.end('too-many-streams');
    const stop = await this.push.subscribe(ctx.project.id, grant.sub, (message: PushMessage) =>
      sse.send(message, 'push'),
    );
    const expiry = setTimeout(
      () => {
        sse.send({}, 'expired');
        sse.end();
      },
      Math.max(0, grant.exp * 1000 - Date.now()),
    );
    const closed = (): void => {
      clearTimeout(expiry);
      stop();
      const current = this.streams.get(key);
      current?.delete(id);
      if (current?.size === 0) this.streams.delete(key);
      this.registry.unregister(ctx.project.id, grant.sub, id).catch(() => undefined);
    };
    if (raw.destroyed || raw.writableEnded) return closed();
    raw.on('close', closed);
    sse.send({ userId: grant.sub }, 'ready');
    // A sign-out while the stream was being set up was heard before the stream was listed.
    this.recheck([stream]);
    this.logger.debug({ projectId: ctx.project.id }, 'push stream opened');
  }

  /** Ends every stream whose session is no longer signed in. */
  private recheck(streams: Iterable<OpenStream> | undefined): void {
    for (const stream of [...(streams ?? [])]) {
      this.sessions.isLive(stream.ctx, stream.grant).then(
        (live) => {
          if (!live) stream.end('signed-out');
        },
        (error: unknown) =>
          this.logger.warn({ err: error, projectId: stream.ctx.project.id }, 'could not check a push stream'),
      );
    }
  }

  private async verify(
    ctx: ProjectContext,
    token: string | undefined,
    missing: string,
  ): Promise<StreamGrant> {
    const claims = token ? await this.tokens.verify(audienceOf(ctx), token) : undefined;
    if (!claims || !(await this.sessions.isLive(ctx, claims))) {
      throw new AuthError(
        AuthErrorCode.Unauthorized,
        token ? 'The access token is invalid or expired' : missing,
      );
    }
    return { sub: claims.sub, sid: claims.sid, exp: claims.exp };
  }

  private ticketKey(ctx: ProjectContext, ticket: string): string {
    return `${queuePrefix()}:push-ticket:${ctx.project.id}:${sha256Hex(ticket)}`;
  }
}

function bearerOf(header: string | undefined): string | undefined {
  return typeof header === 'string' ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1] : undefined;
}
