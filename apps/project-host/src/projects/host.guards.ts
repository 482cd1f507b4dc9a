import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { FastifyRequest } from 'fastify';
import type { ProjectContext } from './project-context.js';
import { ProjectResolver } from './project-resolver.js';

export type ProjectRequest = FastifyRequest & { projectContext?: ProjectContext };

/** Routes of a project host (`/api/user/*`, the project's APIs): an unknown host is a clear 404. */
@Injectable()
export class ProjectHostGuard implements CanActivate {
  constructor(private readonly resolver: ProjectResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ProjectRequest>();
    const resolved = await this.resolver.resolve(request.headers.host);
    if (resolved.kind !== 'project') {
      throw new AuthError(
        AuthErrorCode.ProjectNotFound,
        resolved.kind === 'unknown'
          ? `No project is served at ${resolved.host}.`
          : 'This is the control plane; project routes are served on project hosts (<project>.<domain>).',
        { status: 404 },
      );
    }
    request.projectContext = resolved.context;
    return true;
  }
}

/** Control-plane routes answer only on the PUBLIC_URL host, never on a project's host. */
@Injectable()
export class ControlPlaneHostGuard implements CanActivate {
  constructor(private readonly resolver: ProjectResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const resolved = await this.resolver.resolve(request.headers.host);
    if (resolved.kind !== 'control-plane') {
      throw new AuthError(AuthErrorCode.ProjectNotFound, 'Not Found', { status: 404 });
    }
    return true;
  }
}

export const CurrentProject = createParamDecorator(
  (_: unknown, context: ExecutionContext): ProjectContext => {
    const project = context.switchToHttp().getRequest<ProjectRequest>().projectContext;
    if (!project) throw new Error('CurrentProject used on a route without ProjectHostGuard');
    return project;
  },
);
