import { Inject, Injectable } from '@nestjs/common';
import { PROJECT_HOST_CONFIG } from '../../app.tokens.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';

/** The public identity provider the platform uses when IDP_ISSUER_URL is not set. */
export const DEFAULT_IDP_ISSUER_URL = 'https://accounts.google.com';

/** The OpenID Connect client a project signs its users in with. */
export interface IdpClient {
  mode: 'platform' | 'custom';
  /** Discovery base of the provider (`/.well-known/openid-configuration` is read below it). */
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export type IdpClientResolution =
  { ok: true; client: IdpClient } | { ok: false; reason: 'disabled' | 'unconfigured' };

/**
 * Which client a project uses. The seam for the local development command, which resolves to the
 * platform identity broker unless the project's env file has both IDP_CLIENT_ID and IDP_CLIENT_SECRET.
 */
export interface IdpClientResolver {
  resolve(ctx: ProjectContext): IdpClientResolution;
}

export const IDP_CLIENT_RESOLVER = Symbol('IdpClientResolver');

/** Deployed hosts: Platform mode uses the platform's keys, Custom the project's, Off refuses. */
@Injectable()
export class ProjectIdpClientResolver implements IdpClientResolver {
  constructor(@Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig) {}

  resolve(ctx: ProjectContext): IdpClientResolution {
    const issuerUrl = this.config.IDP_ISSUER_URL ?? DEFAULT_IDP_ISSUER_URL;
    switch (ctx.auth.idpMode) {
      case 'off':
        return { ok: false, reason: 'disabled' };
      case 'platform':
        return keys('platform', issuerUrl, this.config.IDP_CLIENT_ID, this.config.IDP_CLIENT_SECRET);
      case 'custom':
        return keys('custom', issuerUrl, ctx.auth.idpClientId, ctx.auth.idpClientSecret);
      default:
        return { ok: false, reason: 'disabled' };
    }
  }
}

function keys(
  mode: IdpClient['mode'],
  issuerUrl: string,
  clientId: string | null | undefined,
  clientSecret: string | null | undefined,
): IdpClientResolution {
  if (!clientId || !clientSecret) return { ok: false, reason: 'unconfigured' };
  return { ok: true, client: { mode, issuerUrl, clientId, clientSecret } };
}
