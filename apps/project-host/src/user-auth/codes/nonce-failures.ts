import { Injectable } from '@nestjs/common';
import type { NonceKind } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { AuthEventsPublisher, type AuthEvent } from '../../events/auth-events.publisher.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { AuthStores } from '../store/auth-store.js';
import { snapshotOf } from '../user-snapshot.js';
import { NonceCodes } from './nonce-codes.js';

/** The answer to a code that does not work: auth.failed (nonce_invalid), then 400 nonce-invalid. */
@Injectable()
export class NonceFailures {
  constructor(
    private readonly codes: NonceCodes,
    private readonly stores: AuthStores,
    private readonly events: AuthEventsPublisher,
  ) {}

  /** The event names the user when the code was theirs (spent, expired or superseded). */
  async refuse(
    ctx: ProjectContext,
    kind: NonceKind,
    code: string,
    provider: AuthEvent['provider'],
  ): Promise<never> {
    const store = this.stores.of(ctx);
    const nonce = await this.codes.find(store, ctx.project.id, kind, code);
    const user = nonce?.userId ? await store.users.findById(nonce.userId) : null;
    await this.events.publish(ctx.project.id, [
      { kind: 'auth.failed', reason: 'nonce_invalid', user: user ? snapshotOf(user) : null, provider },
    ]);
    throw new AuthError(AuthErrorCode.NonceInvalid, undefined, { status: 400 });
  }
}
