import { Injectable } from '@nestjs/common';
import { CodeDto, LoginDto, MagicLinkQueryDto, RegisterDto, validateUserInput } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { ProjectContext } from '../../projects/project-context.js';
import { IdpSignInService, type ConsentIdpOption } from '../../user-auth/idp/idp-sign-in.service.js';
import { AuthRateLimits } from '../../user-auth/limits/auth-rate-limits.js';
import { MailCodeAuthService } from '../../user-auth/services/mail-code-auth.service.js';
import { PasswordAuthService } from '../../user-auth/services/password-auth.service.js';
import type { ClientMeta } from '../../user-auth/tokens/token-pair.js';
import type { TokenUser } from '../../user-auth/user-snapshot.js';

/** The user a consent-page sign-in gives (no /api/user session is started for it). */
export type ConsentUser = Pick<TokenUser, 'id' | 'email'>;

/** Where a mailed sign-in link of the consent page lands (this host's own page, nothing else). */
export const CONSENT_MAGIC_PATH = '/oauth/authorize/magic';

const userOnly = (_tx: unknown, signedIn: TokenUser) => Promise.resolve(signedIn);

/**
 * The consent page's sign-in methods, through the very services `/api/user` uses (rate limits,
 * events, and blocking hooks awaited as the contract's Events rule 2 says), minting no
 * `/api/user` tokens. A refusal is the `AuthError` those services throw.
 */
@Injectable()
export class ConsentSignInService {
  constructor(
    private readonly passwords: PasswordAuthService,
    private readonly mailCodes: MailCodeAuthService,
    private readonly idp: IdpSignInService,
    private readonly limits: AuthRateLimits,
  ) {}

  /** Email and password: sign in, or sign up when the project takes new accounts. */
  async password(
    ctx: ProjectContext,
    action: 'signin' | 'signup',
    form: Record<string, unknown>,
    meta: ClientMeta,
  ): Promise<ConsentUser> {
    emailSignInOn(ctx);
    if (action === 'signin') {
      const input = validateUserInput(LoginDto, { email: form.email, password: form.password }, 'body');
      return this.passwords.login(ctx, input, meta, userOnly);
    }
    const input = validateUserInput(
      RegisterDto,
      { email: form.email, password: form.password, ...(form.name ? { name: form.name } : {}) },
      'body',
    );
    return this.passwords.register(ctx, input, meta, userOnly);
  }

  /**
   * Mails a sign-in link to `${origin}/oauth/authorize/magic`; the answer to show, the same
   * whether or not the address has an account.
   */
  async mailLink(ctx: ProjectContext, origin: string, email: unknown, meta: ClientMeta): Promise<string> {
    emailSignInOn(ctx);
    await this.limits.consumeIp('mail', ctx.project.id, meta.ip);
    const input = validateUserInput(MagicLinkQueryDto, { email }, 'query');
    const { message } = await this.mailCodes.mailMagicLinkTo(
      ctx,
      input.email,
      `${origin}${CONSENT_MAGIC_PATH}`,
      meta,
    );
    return message;
  }

  /** The user a mailed link's `code` signs in (spent on success). */
  async magicLink(ctx: ProjectContext, code: unknown, meta: ClientMeta): Promise<ConsentUser> {
    await this.limits.consumeIp('callback', ctx.project.id, meta.ip);
    return this.mailCodes.magicLinkCallback(
      ctx,
      validateUserInput(CodeDto, { code }, 'query'),
      meta,
      userOnly,
    );
  }

  /** How the page offers the identity provider (undefined: it does not). */
  idpOption(ctx: ProjectContext): Promise<ConsentIdpOption | undefined> {
    return this.idp.consentOption(ctx);
  }

  /** Where to send the browser to sign in with the identity provider, handed back bound to `browser`. */
  async startIdp(ctx: ProjectContext, origin: string, browser: string, meta: ClientMeta): Promise<string> {
    await this.limits.consumeIp('login', ctx.project.id, meta.ip);
    return this.idp.startForConsent(ctx, origin, browser);
  }

  /** The user the provider's hand-back `code` names, once, in the browser that started it. */
  redeemIdp(ctx: ProjectContext, code: unknown, browser: string): Promise<ConsentUser | undefined> {
    return this.idp.redeemForConsent(ctx, code, browser);
  }
}

function emailSignInOn(ctx: ProjectContext): void {
  if (!ctx.auth.emailPassword)
    throw new AuthError(AuthErrorCode.EmailPasswordDisabled, undefined, { status: 403 });
}
