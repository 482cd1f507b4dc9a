import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AddDomainDto, AuthSettingsDto, SmtpSettingsDto } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { DuplicateRecord } from '../platform/duplicate-record.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { invalid } from './input-fields.js';
import { toAddDomain, toAuthSettings, toSmtpSettings } from './project-input.js';
import {
  authSettingsView,
  type AuthSettingsView,
  domainView,
  type DomainView,
  smtpSettingsView,
  type SmtpSettingsView,
} from './project.view.js';
import { ProjectsRepository } from './projects.repository.js';
import { ProjectsService } from './projects.service.js';
import type { MainDb } from '@suite/db';
import { DomainChecksQueue } from './domain-checks.queue.js';

/**
 * A project's auth settings, SMTP server and custom domains. Secrets left out of a PUT keep their
 * saved value (the API never shows them back); null clears them. Every change is visible to the
 * project's hosts at once.
 */
@Injectable()
export class ProjectSettingsService {
  private readonly hostDomain: string;
  private readonly controlPlaneHost: string;
  /** DOMAIN_VERIFIED_BY_ADMIN: development only, `verified: true` skips the DNS check. */
  private readonly adminMayVerify: boolean;
  /** DOMAIN_CHECK_WAIT_MS: how long an answer waits for the project worker's DNS check. */
  private readonly checkWaitMs: number;

  constructor(
    private readonly records: ProjectsRepository,
    private readonly resolver: ProjectResolver,
    private readonly projects: ProjectsService,
    private readonly checks: DomainChecksQueue,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
  ) {
    this.hostDomain = config.PROJECT_HOST_DOMAIN.toLowerCase();
    this.controlPlaneHost = new URL(config.PUBLIC_URL).hostname.toLowerCase();
    this.adminMayVerify = config.DOMAIN_VERIFIED_BY_ADMIN;
    this.checkWaitMs = config.DOMAIN_CHECK_WAIT_MS;
  }

  async updateAuth(projectId: string, body: AuthSettingsDto): Promise<AuthSettingsView> {
    const project = await this.projects.require(projectId);
    const input = toAuthSettings(body);
    const saved = project.authSettings;
    const data = {
      enabled: input.enabled,
      emailPassword: input.emailPassword,
      allowSignups: input.allowSignups,
      idpMode: input.idpMode,
      idpClientId: input.idpClientId === undefined ? (saved?.idpClientId ?? null) : input.idpClientId,
      idpClientSecret:
        input.idpClientSecret === undefined ? (saved?.idpClientSecret ?? null) : input.idpClientSecret,
      redirectSchemes: input.redirectSchemes ?? null,
      mcpEnabled: input.mcpEnabled ?? saved?.mcpEnabled ?? true,
    };
    if (data.idpMode === 'custom') {
      if (!data.idpClientId) throw invalid('idpClientId', 'is required when idpMode is "custom"');
      if (!data.idpClientSecret) throw invalid('idpClientSecret', 'is required when idpMode is "custom"');
    }
    const row = await this.records.saveAuthSettings(project.id, data);
    this.resolver.invalidate();
    return authSettingsView(row);
  }

  async updateSmtp(projectId: string, body: SmtpSettingsDto): Promise<SmtpSettingsView> {
    const project = await this.projects.require(projectId);
    const input = toSmtpSettings(body);
    const data = {
      host: input.host,
      port: input.port,
      secure: input.secure,
      user: input.user,
      pass: input.pass === undefined ? (project.smtpSettings?.pass ?? null) : input.pass,
      from: input.from,
    };
    const row = await this.records.saveSmtpSettings(project.id, data);
    this.resolver.invalidate();
    return smtpSettingsView(row)!;
  }

  /**
   * Adds a custom domain with a fresh DNS TXT verification token and looks the record up at once:
   * the domain serves the project only when the record holds the token. `verified: true` marks it
   * verified without the check only with the development setting DOMAIN_VERIFIED_BY_ADMIN (else it
   * is ignored). Adding a domain the project already has checks it again and answers it; another
   * project's domain is a 409.
   */
  async addDomain(projectId: string, body: AddDomainDto): Promise<{ created: boolean; domain: DomainView }> {
    const project = await this.projects.require(projectId);
    const input = toAddDomain(body);
    if (input.domain === this.hostDomain || input.domain.endsWith(`.${this.hostDomain}`)) {
      throw invalid(
        'domain',
        `must not be under ${this.hostDomain}: hosts there are given to projects by id and slug`,
      );
    }
    if (input.domain === this.controlPlaneHost)
      throw invalid('domain', 'is the control plane\u2019s own host');

    const byAdmin = input.verified && this.adminMayVerify;
    const existing = await this.records.findDomain(input.domain);
    if (existing && existing.projectId !== project.id) throw domainTaken(input.domain);
    if (existing) {
      if (existing.verified) return { created: false, domain: domainView(existing) };
      if (!byAdmin) return { created: false, domain: domainView(await this.checked(existing)) };
      const updated = await this.records.markDomain(existing.id, { verified: true, verifiedAt: new Date() });
      this.resolver.invalidate();
      return { created: false, domain: domainView(updated) };
    }
    try {
      const created = await this.records.addDomain({
        projectId: project.id,
        domain: input.domain,
        verified: byAdmin,
        verifiedAt: byAdmin ? new Date() : null,
        verificationToken: randomBytes(16).toString('hex'),
      });
      this.resolver.invalidate();
      return { created: true, domain: domainView(byAdmin ? created : await this.checked(created)) };
    } catch (error) {
      if (error instanceof DuplicateRecord) throw domainTaken(input.domain);
      throw error;
    }
  }

  /** POST …/domains/{domain}/verify: the DNS check now (the admin added the record). */
  async verifyDomain(projectId: string, name: string): Promise<DomainView> {
    const project = await this.projects.require(projectId);
    const domain = await this.records.findDomain(name.toLowerCase().replace(/\.$/, ''));
    if (!domain || domain.projectId !== project.id) {
      throw new AuthError(AuthErrorCode.NotFound, `domain "${name}" is not a domain of this project`, {
        status: 404,
      });
    }
    return domainView(await this.checked(domain));
  }

  /**
   * The domain after a DNS check of its TXT record: the project worker looks it up (the host only
   * asks, and waits DOMAIN_CHECK_WAIT_MS for it); a check not done in time stays queued, and the
   * domain is answered as it was (pending).
   */
  private async checked(domain: MainDb.CustomDomain): Promise<MainDb.CustomDomain> {
    if (domain.verified) return domain;
    await this.checks.checkNow(domain.id, this.checkWaitMs);
    const now = (await this.records.findDomain(domain.domain)) ?? domain;
    if (now.verified) this.resolver.invalidate();
    return now;
  }
}

function domainTaken(domain: string): AuthError {
  return new AuthError(
    AuthErrorCode.InvalidRequest,
    `domain "${domain}" is already used by another project`,
    {
      status: 409,
    },
  );
}
