import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { isUuid, UnknownTenantServerError, type TenantClient } from '@suite/db';
import { RunnerError, RunnerErrorCode } from '@suite/errors';
import { subscribeTenantMoves } from '@suite/project-runtime';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import { PlatformResources } from '../platform/platform-resources.js';
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

const CACHE_TTL_MS = 5_000;

/**
 * Which project a Host header names: `<id>.<PROJECT_HOST_DOMAIN>`, `<slug>.<PROJECT_HOST_DOMAIN>` or a
 * verified custom domain; the PUBLIC_URL host is the control plane. Lookups are cached for a few
 * seconds; `invalidate` drops a project at once after the control plane changes it.
 */
@Injectable()
export class ProjectResolver implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('project-resolver');
  private readonly cache = new Map<string, { value: ProjectWithSettings | null; until: number }>();
  private readonly controlPlaneHost: string;
  private readonly domain: string;
  private readonly scheme: string;
  private readonly port: string;
  private readonly redisUrl: string;
  private moves?: { close(): void };

  constructor(
    private readonly resources: PlatformResources,
    @Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig,
    private readonly schemas: TenantSchemaCheck,
  ) {
    const publicUrl = new URL(config.PUBLIC_URL);
    this.controlPlaneHost = publicUrl.hostname.toLowerCase();
    this.scheme = publicUrl.protocol;
    this.port = publicUrl.port;
    this.domain = config.PROJECT_HOST_DOMAIN.toLowerCase();
    this.redisUrl = config.REDIS_URL;
  }

  /** A project moved to another tenant server (in any process): forget where it was. */
  onModuleInit(): void {
    this.moves = subscribeTenantMoves(this.redisUrl, 'project-host-tenant-moves', () => this.invalidate());
  }

  onApplicationShutdown(): void {
    this.moves?.close();
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
    const project = await this.lookup(host);
    if (!project) return { kind: 'unknown', host };
    const context = this.context(project);
    await this.schemas.ensureCurrent(project);
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

  invalidate(): void {
    this.cache.clear();
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
          }
        : DEFAULT_AUTH_SETTINGS,
      hosts: this.hostsOf(project),
      publicUrl: this.publicUrlOf(project),
      tenant: this.tenantOf(project),
    };
  }

  /** The project's tenant database; a server the setting no longer lists is a clear 503, never another server. */
  private tenantOf(project: ProjectWithSettings): TenantClient {
    try {
      return this.resources.tenant(project);
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

  private async lookup(host: string): Promise<ProjectWithSettings | null> {
    const cached = this.cache.get(host);
    if (cached && cached.until > Date.now()) return cached.value;
    const include = { authSettings: true, smtpSettings: true, domains: true } as const;
    let project: ProjectWithSettings | null = null;
    const suffix = `.${this.domain}`;
    const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : undefined;
    if (label && !label.includes('.')) {
      project = isUuid(label)
        ? await this.resources.db.project.findUnique({ where: { id: label }, include })
        : await this.resources.db.project.findUnique({ where: { slug: label }, include });
    } else if (!label) {
      const domain = await this.resources.db.customDomain.findUnique({
        where: { domain: host },
        include: { project: { include } },
      });
      project = domain?.verified ? domain.project : null;
    }
    this.cache.set(host, { value: project, until: Date.now() + CACHE_TTL_MS });
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    return project;
  }
}
