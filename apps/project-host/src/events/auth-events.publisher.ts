import { Injectable, Logger } from '@nestjs/common';
import { injectTraceContext } from '@suite/telemetry';
import { PlatformResources } from '../platform/platform-resources.js';

/** The spec's hook event kinds. */
export type AuthEventKind =
  | 'user.created'
  | 'user.signed_in'
  | 'user.signed_out'
  | 'user.updated'
  | 'user.password_updated'
  | 'user.deleted'
  | 'magic_link_requested'
  | 'password_reset_requested'
  | 'auth.failed';

/** What a hook may see of a user: never passwords, tokens, codes or identity-provider subjects. */
export interface UserSnapshot {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
}

export interface AuthEvent {
  kind: AuthEventKind;
  user: UserSnapshot | null;
  provider: 'email' | 'magic_link' | 'idp' | 'dashboard';
  /** auth.failed only: invalid_credentials, identity_already_exists, signup_disabled, nonce_invalid, refresh_rejected, idp_oauth_failed */
  reason?: string;
  at: string;
}

/**
 * The internal event stream the project's auth hooks consume (BullMQ queue `auth-hooks`, one job per
 * batch, in order). Publish only after the auth mutation committed. Publishing never fails the
 * request; the returned promise lets a blocking hook runner await the batch later.
 */
@Injectable()
export class AuthEventsPublisher {
  private readonly logger = new Logger('auth-events');

  constructor(private readonly resources: PlatformResources) {}

  async publish(projectId: string, events: Omit<AuthEvent, 'at'>[]): Promise<string | undefined> {
    if (events.length === 0) return undefined;
    const at = new Date().toISOString();
    try {
      const job = await this.resources.hookQueue.add('batch', {
        projectId,
        events: events.map((event) => ({ ...event, at })),
        trace: injectTraceContext(),
      });
      return job.id;
    } catch (error) {
      this.logger.error(
        { err: error, projectId, kinds: events.map((e) => e.kind) },
        'could not publish auth events',
      );
      return undefined;
    }
  }
}
