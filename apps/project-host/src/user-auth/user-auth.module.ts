import { Logger, Module } from '@nestjs/common';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { PlatformResources } from '../platform/platform-resources.js';
import { BackgroundTasks } from './background-tasks.js';
import { NonceCodes } from './codes/nonce-codes.js';
import { NonceFailures } from './codes/nonce-failures.js';
import { AuthSecrets } from '@suite/project-runtime';
import { UserAuthController } from './http/user-auth.controller.js';
import { ProjectAccessStrategy } from './http/project-access.strategy.js';
import { AccessTokenGuard, UserAuthGuard } from './http/user-auth.guards.js';
import { AuthRateLimits } from './limits/auth-rate-limits.js';
import { IDP_CLIENT_RESOLVER, ProjectIdpClientResolver } from './idp/idp-client.resolver.js';
import { IdpSignInService } from './idp/idp-sign-in.service.js';
import { IdpStateStore } from './idp/idp-state.store.js';
import { IdpCallbackController, IdpStartController } from './idp/idp.controller.js';
import { OidcClients } from './idp/oidc-clients.js';
import { AuthMailer } from './mail/auth-mailer.js';
import { PasswordHasher } from './passwords/password-hasher.js';
import { AccountClaims } from './services/account-claim.js';
import { MailCodeAuthService } from './services/mail-code-auth.service.js';
import { PasswordAuthService } from './services/password-auth.service.js';
import { ProfileService } from './services/profile.service.js';
import { AccessTokens } from './tokens/access-tokens.js';
import { RefreshGraceCache } from './tokens/refresh-grace.cache.js';
import { RefreshSessions } from './tokens/refresh-sessions.js';
import { PrismaSigningKeyRepository, SigningKeyRepository } from './tokens/signing-key.repository.js';
import { SigningKeyStore } from './tokens/signing-key.store.js';
import { AuthStores } from './store/auth-store.js';
import { PrismaAuthStores } from './store/prisma-auth-store.js';

/**
 * The reserved `/api/user/*` routes of every project host: email/password, magic link, forgot
 * password, profile and email change, identity-provider sign-in (idp/), with their tokens, codes, rate limits, mails and events.
 * Exports what other features need to read access tokens (defineApi) and to sign users in (idp).
 */
@Module({
  controllers: [UserAuthController, IdpStartController, IdpCallbackController],
  providers: [
    {
      provide: AuthSecrets,
      inject: [PROJECT_HOST_CONFIG],
      useFactory: (config: ProjectHostConfig) => {
        if (!config.AUTH_SECRET) {
          new Logger('user-auth').warn(
            'AUTH_SECRET is not set: using a development secret derived from PLATFORM_ADMIN_TOKEN (set AUTH_SECRET in production)',
          );
        }
        return AuthSecrets.fromConfig(config);
      },
    },
    {
      provide: PasswordHasher,
      inject: [PROJECT_HOST_CONFIG],
      useFactory: (config: ProjectHostConfig) => new PasswordHasher(config.BCRYPT_COST),
    },
    { provide: AuthStores, useClass: PrismaAuthStores },
    {
      provide: SigningKeyRepository,
      inject: [PlatformResources],
      useFactory: (r: PlatformResources): SigningKeyRepository => new PrismaSigningKeyRepository(r.db),
    },
    SigningKeyStore,
    AccessTokens,
    RefreshGraceCache,
    RefreshSessions,
    NonceCodes,
    NonceFailures,
    AuthRateLimits,
    AuthMailer,
    BackgroundTasks,
    UserAuthGuard,
    ProjectAccessStrategy,
    AccessTokenGuard,
    PasswordAuthService,
    AccountClaims,
    MailCodeAuthService,
    ProfileService,
    { provide: IDP_CLIENT_RESOLVER, useClass: ProjectIdpClientResolver },
    OidcClients,
    IdpStateStore,
    IdpSignInService,
  ],
  exports: [
    AccessTokens,
    RefreshSessions,
    SigningKeyStore,
    AuthRateLimits,
    AuthSecrets,
    AuthMailer,
    // The control plane's user detail and mail resend go through the same flows.
    AuthStores,
    MailCodeAuthService,
    ProfileService,
    // The MCP consent page signs users in and up through the same flow (limits, events, hooks).
    PasswordAuthService,
    IdpSignInService,
  ],
})
export class UserAuthModule {}
