import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { AppError } from '@suite/errors';
import { authOutcomes } from '@suite/telemetry';
import { tap, type Observable } from 'rxjs';

/** Handler name → the `action` label of suite_auth_outcomes_total (a closed set). */
const ACTIONS: Readonly<Record<string, string>> = {
  register: 'register',
  login: 'login',
  refresh: 'refresh',
  magicLink: 'magic-link',
  magicLinkCallback: 'magic-link',
  forgotPassword: 'forgot-password',
  forgotPasswordCallback: 'forgot-password',
  updateMe: 'profile-update',
  emailChangeCallback: 'email-change',
};

/**
 * Counts each auth action's outcome: `success`, or the error code it answered with (codes are a
 * closed enum, so the label stays low-cardinality). Rejections by guards (rate limits, auth
 * disabled) happen before this runs and are not counted here.
 */
@Injectable()
export class AuthOutcomeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = ACTIONS[context.getHandler().name];
    if (!action) return next.handle();
    return next.handle().pipe(
      tap({
        next: () => authOutcomes.inc({ action, outcome: 'success' }),
        error: (error: unknown) =>
          authOutcomes.inc({ action, outcome: error instanceof AppError ? String(error.code) : 'internal' }),
      }),
    );
  }
}
