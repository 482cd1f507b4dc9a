import { Inject, Injectable } from '@nestjs/common';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { DEFAULT_IDP_ISSUER_URL } from '../user-auth/idp/idp-client.resolver.js';
import { authSettingsView, type AuthSettingsView } from './project.view.js';
import { ProjectsService } from './projects.service.js';

/** A project's auth settings with what the platform provides for them. */
export interface AuthOverviewView extends AuthSettingsView {
  /** The platform's identity provider, which Platform mode signs users in with. */
  platformIdp: {
    /** IDP_CLIENT_ID and IDP_CLIENT_SECRET are set; without them Platform mode answers 503 idp_oauth_unconfigured. */
    configured: boolean;
    issuerUrl: string;
  };
}

@Injectable()
export class AuthOverviewService {
  constructor(
    private readonly projects: ProjectsService,
    @Inject(PROJECT_HOST_CONFIG)
    private readonly config: Pick<
      ProjectHostConfig,
      'IDP_CLIENT_ID' | 'IDP_CLIENT_SECRET' | 'IDP_ISSUER_URL'
    >,
  ) {}

  async get(projectId: string): Promise<AuthOverviewView> {
    const project = await this.projects.require(projectId);
    return {
      ...authSettingsView(project.authSettings),
      platformIdp: {
        configured: Boolean(this.config.IDP_CLIENT_ID && this.config.IDP_CLIENT_SECRET),
        issuerUrl: this.config.IDP_ISSUER_URL ?? DEFAULT_IDP_ISSUER_URL,
      },
    };
  }
}
