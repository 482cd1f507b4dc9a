import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { CreateProjectDto, PageQueryDto } from '@suite/contracts';
import { isUuid } from '@suite/db';
import { AuthError, AuthErrorCode, RunnerError, RunnerErrorCode } from '@suite/errors';
import { ProjectChangeAnnouncer } from '@suite/project-runtime';
import { DuplicateRecord } from '../platform/duplicate-record.js';
import type { ProjectWithSettings } from '../projects/project-context.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { toCreateProject, toPage } from './project-input.js';
import { type Page, projectView, type ProjectView } from './project.view.js';
import { ProjectsRepository } from './projects.repository.js';
import { TenantDatabases } from './tenant-databases.js';

/** Projects of the control plane: create (with their tenant database), list, show, delete. */
@Injectable()
export class ProjectsService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly records: ProjectsRepository,
    private readonly resolver: ProjectResolver,
    private readonly tenants: TenantDatabases,
    private readonly changes: ProjectChangeAnnouncer,
  ) {}

  /** The project with its settings and domains, or 404 project_not_found. */
  async require(id: string): Promise<ProjectWithSettings> {
    const project = isUuid(id) ? await this.records.findWithSettings(id) : null;
    if (!project) throw new AuthError(AuthErrorCode.ProjectNotFound, `No project has the id "${id}".`);
    return project;
  }

  view(project: ProjectWithSettings): ProjectView {
    return projectView(project, {
      hosts: this.resolver.hostsOf(project),
      publicUrl: this.resolver.publicUrlOf(project),
    });
  }

  async get(id: string): Promise<ProjectView> {
    return this.view(await this.require(id));
  }

  async list(query: PageQueryDto): Promise<Page<ProjectView>> {
    const { page, pageSize } = toPage(query);
    const { total, items: projects } = await this.records.page((page - 1) * pageSize, pageSize);
    return { items: projects.map((project) => this.view(project)), page, pageSize, total };
  }

  /**
   * Inserts the project, then creates and migrates its tenant database. When provisioning fails the
   * row is removed again, so a project that exists always has its users' database.
   */
  async create(body: CreateProjectDto): Promise<ProjectView> {
    const input = toCreateProject(body);
    if (await this.records.slugTaken(input.slug)) throw slugTaken(input.slug);
    const id = randomUUID();
    const server = this.tenants.place(await this.records.projectsPerServer());
    let project: ProjectWithSettings;
    try {
      project = await this.records.create({
        id,
        slug: input.slug,
        name: input.name,
        tenantDatabase: this.tenants.nameOf(id),
        tenantServer: server.name,
      });
    } catch (error) {
      if (error instanceof DuplicateRecord) throw slugTaken(input.slug);
      throw error;
    }
    try {
      const version = await this.tenants.provision(id, server.name);
      await this.records.recordSchemaVersion(id, version);
      project.tenantSchemaVersion = version;
    } catch (error) {
      await this.records.delete(id);
      await this.tenants.drop(project).catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(
        { err: error, projectId: id, slug: input.slug },
        'tenant database provisioning failed',
      );
      throw new RunnerError(
        RunnerErrorCode.ServiceUnavailable,
        `The project was not created: its tenant database could not be provisioned (${reason}).`,
        { cause: error },
      );
    }
    this.resolver.invalidate();
    this.logger.log({ projectId: id, slug: input.slug, tenantServer: server.name }, 'project created');
    return this.view(project);
  }

  /**
   * Ends the project's code in every process first (its sandboxes, and what they left running),
   * then drops the tenant database, so a failure leaves the project in place to try again.
   */
  async remove(id: string): Promise<void> {
    const project = await this.require(id);
    await this.changes
      .announce(project.id, 'deleted')
      .catch((error: unknown) =>
        this.logger.warn(
          { projectId: project.id, err: (error as Error).message },
          'could not announce the deletion: sandboxes of the project end when idle',
        ),
      );
    await this.tenants.drop(project);
    await this.records.delete(project.id);
    this.resolver.invalidate();
    this.logger.log({ projectId: project.id, slug: project.slug }, 'project deleted');
  }
}

function slugTaken(slug: string): AuthError {
  return new AuthError(AuthErrorCode.InvalidRequest, `slug "${slug}" is already taken`, {
    status: 409,
  });
}
