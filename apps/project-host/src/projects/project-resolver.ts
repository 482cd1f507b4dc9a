import { Inject, Injectable, Logger } from '@nestjs/common';
import { isUuid, UnknownTenantServerError, type TenantClient } from '@suite/db';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { ProjectDirectory, type ProjectKey } from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import {
  appSchemesOf,
  DEFAULT_AUTH_SETTINGS,
  type ProjectContext,
  type ProjectWithSettings,
} from './project-context.js';
import { TenantSchemaCheck } from './tenant-schema.check.js';

export type HostKind =
  | { kind: 'control-plane' }
  | { kind: 'project'; context: ProjectContext }
  | { kind: 'unknown'; host: string };

/**
 * Which project a Host header names: `<id>.<PROJECT_HOST_DOMAIN>`, `<slug>.<PROJECT_HOST_DOMAIN>` or a
 * verified custom domain; the PUBLIC_URL host is the control plane. The project's record, where its
 * database lives and the tenant client come from the ProjectDirectory (the one ctx.db uses too, with
 * its cache and its tenant-move subscription); `invalidate` drops what it cached at once after the
 * control plane changes a project.
 */
@Injectable()
export class ProjectResolver {
  private readonly logger = new Logger('project-resolver');
  private readonly controlPlaneHost: string;
  private readonly domain: string;
  private readonly scheme: string;
  private readonly port: string;
  /** PUBLIC_URL's origin under `platform dev`: the local address serves the project too. */
  private readonly localOrigin: string | undefined;
  /** Projects this process served already (bench figures are logged for the others). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly directory: ProjectDirectory,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
    private readonly schemas: TenantSchemaCheck,
  ) {
    const publicUrl = new URL(config.PUBLIC_URL);
    this.controlPlaneHost = publicUrl.hostname.toLowerCase();
    this.scheme = publicUrl.protocol;
    this.port = publicUrl.port;
    this.domain = config.PROJECT_HOST_DOMAIN.toLowerCase();
    this.localOrigin = config.PLATFORM_DEV_MODE ? publicUrl.origin : undefined;
  }

  /** Host header → host name: lower case, without the port, without a trailing dot. */
  static hostName(hostHeader: string | undefined): string {
    const raw = (hostHeader ?? '').trim().toLowerCase();
    const withoutPort = raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d+$/, '');
    return withoutPort.replace(/\.$/, '');
  }

  async resolve(hostHeader: string | undefined): Promise<HostKind> {
    const host = ProjectResolver.hostName(hostHeader);
    if (!host || host === this.controlPlaneHost || host === '127.0.0.1') return { kind: 'control-plane' };
    const key = this.keyOf(host);
    const started = performance.now();
    const project = key ? await this.directory.find(key) : null;
    if (!project) return { kind: 'unknown', host };
    const looked = performance.now();
    const context = this.context(project);
    const tenant = performance.now();
    await this.schemas.ensureCurrent(project);
    if (!this.seen.has(project.id)) {
      this.seen.add(project.id);
      if (this.seen.size > 10_000) this.seen.clear();
      // Bench figures (LOG_LEVEL=debug): what the first request to a project costs here, step by step.
      const steps = { lookup: looked - started, tenant: tenant - looked, schema: performance.now() - tenant };
      for (const [coldStep, ms] of Object.entries(steps))
        this.logger.debug({ coldStep, projectId: project.id, ms }, 'cold path step');
    }
    return { kind: 'project', context };
  }

  /** Hosts of a project, for redirect rules and the control plane's answers. */
  hostsOf(project: Pick<ProjectWithSettings, 'id' | 'slug' | 'domains'>): string[] {
    return [
      `${project.id}.${this.domain}`,
      `${project.slug}.${this.domain}`,
      ...project.domains.filter((d) => d.verified).map((d) => d.domain),
    ];
  }

  publicUrlOf(project: Pick<ProjectWithSettings, 'slug'>): string {
    return `${this.scheme}//${project.slug}.${this.domain}${this.port ? `:${this.port}` : ''}`;
  }

  /** The control plane changed a project: every process-local record is read again. */
  invalidate(): void {
    this.directory.invalidate();
  }

  /** `<label>.<domain>`: the id or the slug; any other host: a custom domain. */
  private keyOf(host: string): ProjectKey | undefined {
    const suffix = `.${this.domain}`;
    const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : undefined;
    if (label === undefined) return { domain: host };
    if (!label || label.includes('.')) return undefined;
    return isUuid(label) ? { id: label } : { slug: label };
  }

  private context(project: ProjectWithSettings): ProjectContext {
    const saved = project.authSettings;
    return {
      project,
      auth: saved
        ? {
            enabled: saved.enabled,
            emailPassword: saved.emailPassword,
            allowSignups: saved.allowSignups,
            idpMode: saved.idpMode,
            idpClientId: saved.idpClientId,
            idpClientSecret: saved.idpClientSecret,
            redirectSchemes: appSchemesOf(saved.redirectSchemes),
            mcpEnabled: saved.mcpEnabled,
          }
        : DEFAULT_AUTH_SETTINGS,
      hosts: this.hostsOf(project),
      publicUrl: this.publicUrlOf(project),
      ...(this.localOrigin ? { localOrigin: this.localOrigin } : {}),
      tenant: this.tenantOf(project),
    };
  }

  /** The project's tenant database; a server the setting no longer lists is a clear 503, never another server. */
  private tenantOf(project: ProjectWithSettings): TenantClient {
    try {
      return this.directory.tenantOf(project);
    } catch (error) {
      if (!(error instanceof UnknownTenantServerError)) throw error;
      this.logger.error({ projectId: project.id, err: error.message }, 'project on an unknown tenant server');
      throw new RunnerError(
        RunnerErrorCode.ServiceUnavailable,
        "This project's database server is not configured on this host.",
        { cause: error },
      );
    }
  }
}
