import { Injectable } from '@nestjs/common';
import { AuthSecrets, sha256Hex } from '@suite/project-runtime';
import { timingSafeEqual } from 'node:crypto';
import type { ProjectContext } from '../../projects/project-context.js';
import { FORM_TTL_MS } from './consent-cookies.js';

/** What the consent page seals: the checked request (forms), the signed-in user, a pending request (cookie). */
export type Sealable = 'request' | 'ticket' | 'pending';

interface Sealed<T> {
  value: T;
  exp: number;
}

/**
 * The consent page's crypto: the CSRF token of a browser's cookie (an HMAC per project) and the
 * sealed values its forms and cookie carry, each bound to the project, its kind and what it
 * must travel with, and good for FORM_TTL_MS.
 */
@Injectable()
export class ConsentSeals {
  constructor(private readonly secrets: AuthSecrets) {}

  csrfToken(ctx: ProjectContext, cookie: string): string {
    return this.secrets.hmacHex('consent-hmac', ctx.project.id, cookie);
  }

  /** The form's token is the HMAC of this browser's CSRF cookie (both present). */
  csrfMatches(ctx: ProjectContext, cookie: string | undefined, token: unknown): cookie is string {
    if (!cookie || typeof token !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(ctx, cookie));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** What a sign-in ticket is bound to: the sealed request it was issued for and the CSRF cookie. */
  ticketBinding(sealedRequest: string, browser: string): string {
    return `${sha256Hex(sealedRequest)}:${browser}`;
  }

  seal(ctx: ProjectContext, what: Sealable, value: unknown, bind: string): string {
    const body: Sealed<unknown> = { value, exp: Date.now() + FORM_TTL_MS };
    return this.secrets.seal(
      'consent-seal',
      JSON.stringify(body),
      `consent-${what}:${ctx.project.id}:${bind}`,
    );
  }

  /** The sealed value, if it is one of this kind, project and binding and has not expired. */
  open<T>(ctx: ProjectContext, what: Sealable, sealed: unknown, bind: string): T | undefined {
    if (typeof sealed !== 'string' || sealed.length > 8_000) return undefined;
    const opened = this.secrets.open('consent-seal', sealed, `consent-${what}:${ctx.project.id}:${bind}`);
    if (!opened) return undefined;
    const body = JSON.parse(opened.toString('utf8')) as Sealed<T>;
    return body.exp > Date.now() ? body.value : undefined;
  }
}
