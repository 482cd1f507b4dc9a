import type { FastifyRequest } from 'fastify';
import type { ProjectContext } from '../projects/project-context.js';
import type { McpTokenBinding } from './mcp-access-tokens.js';

/**
 * The project host's origin as the client reached it: the scheme of PUBLIC_URL and the Host the
 * request named (ProjectHostGuard resolved it to this project, so it is one of the project's own
 * names). Issuer and resource follow it, so discovery from any of the project's hosts is
 * self-consistent (RFC 8414 issuer = metadata URL prefix; RFC 9728 resource = the URL called).
 * Under `platform dev`, its proxy serves the project at the local address (PUBLIC_URL) and says so
 * in X-Forwarded-Host: the origin is then that address, the one the client called.
 */
export function hostOrigin(ctx: ProjectContext, request: FastifyRequest): string {
  if (ctx.localOrigin && request.headers['x-forwarded-host'] === new URL(ctx.localOrigin).host) {
    return ctx.localOrigin;
  }
  const scheme = new URL(ctx.publicUrl).protocol;
  return `${scheme}//${String(request.headers.host ?? new URL(ctx.publicUrl).host).toLowerCase()}`;
}

export function bindingOf(ctx: ProjectContext, request: FastifyRequest): McpTokenBinding {
  const issuer = hostOrigin(ctx, request);
  return { projectId: ctx.project.id, issuer, resource: `${issuer}/mcp` };
}

/** RFC 9728: the metadata of the resource `<origin>/mcp` lives at this path of the origin. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
