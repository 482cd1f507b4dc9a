import { Injectable } from '@nestjs/common';
import type { ProjectContext } from '../projects/project-context.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { ProjectsService } from './projects.service.js';

/**
 * A project as its own hosts see it (settings with defaults, hosts, public URL, tenant database),
 * for control-plane actions that go through the end-user flows: 404 project_not_found for an
 * unknown or malformed id.
 */
@Injectable()
export class ProjectContexts {
  constructor(
    private readonly projects: ProjectsService,
    private readonly resolver: ProjectResolver,
  ) {}

  async of(projectId: string): Promise<ProjectContext> {
    const project = await this.projects.require(projectId);
    const [idHost] = this.resolver.hostsOf(project);
    const resolved = await this.resolver.resolve(idHost);
    if (resolved.kind !== 'project') throw new Error(`project ${project.id} does not resolve at its id host`);
    return resolved.context;
  }
}
