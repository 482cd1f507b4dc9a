import { RouteConfig } from '@nestjs/platform-fastify';
import { AuthError, AuthErrorCode } from '@suite/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Which bodies a route takes, beyond JSON (and text/plain and forms, which Fastify and Nest parse
 * for every route): read by the parsers below and by the per-route size limit.
 * - `deploy-archive`: `POST /v1/projects/{id}/deployments`, a tar.gz of project code.
 * - `project-api`: the project's own `/api/*`, any content type, as `ProjectBody`.
 * Any other route refuses non-JSON types with 415 after reading at most its 64 KB limit.
 */
export type BodyKind = 'deploy-archive' | 'project-api';

export const RouteBody = (kind: BodyKind): MethodDecorator => RouteConfig({ bodyKind: kind });

/** A body of a type the host does not parse, kept for project code as base64 (not a JSON array of bytes). */
export interface BinaryBody {
  readonly base64: string;
}

export function isBinaryBody(body: unknown): body is BinaryBody {
  return typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && BINARY in body;
}

export interface BodyLimits {
  /** Every route but the deployment route (whose archive has its own limit). */
  defaultBytes: number;
  /** The project's own routes (PROJECT_API_BODY_KB), whatever the content type. */
  projectApiBytes: number;
  /** A deployment archive (the deployment route's JSON keeps defaultBytes). */
  deployArchiveBytes: number;
}

const ARCHIVE_TYPES = [
  'application/gzip',
  'application/x-gzip',
  'application/x-tar+gzip',
  'application/octet-stream',
];
const BINARY = Symbol('binary body');

/**
 * Registers the size limit of every route and the parsers of non-JSON bodies; call before the
 * routes are registered (Fastify applies `onRoute` to routes added after it).
 *
 * Why per route: a parser's own limit applies to every route without one, so the archive parser's
 * 5 MB made any anonymous octet-stream request to any route a 5 MB buffer (forwarded into the
 * project's sandbox as a JSON array of numbers). Now each route has its own limit, checked against
 * Content-Length before a byte is read (413), and only the deployment route reads archives.
 */
export function registerRequestBodies(fastify: FastifyInstance, limits: BodyLimits): void {
  fastify.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const kind = bodyKindOf(route.config);
    // The deployment route keeps the parsers' own limits: JSON the default, archives their own.
    if (kind === 'deploy-archive') return;
    route.bodyLimit = kind === 'project-api' ? limits.projectApiBytes : limits.defaultBytes;
  });
  fastify.addContentTypeParser(
    ARCHIVE_TYPES,
    { parseAs: 'buffer', bodyLimit: limits.deployArchiveBytes },
    (request, body, done) => {
      const kind = routeKind(request);
      if (kind === 'deploy-archive') return done(null, body);
      if (kind === 'project-api') return done(null, binary(body as Buffer));
      done(unsupported(request), undefined);
    },
  );
  // Any other type (images, multipart, text/csv...): project routes only.
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (routeKind(request) !== 'project-api') {
      if (request.is404) return done(null, undefined);
      return done(unsupported(request), undefined);
    }
    const buffer = body as Buffer;
    done(
      null,
      /^text\//i.test(request.headers['content-type'] ?? '') ? buffer.toString('utf8') : binary(buffer),
    );
  });
}

function binary(buffer: Buffer): BinaryBody {
  return { base64: buffer.toString('base64'), [BINARY]: true } as BinaryBody;
}

function routeKind(request: FastifyRequest): BodyKind | undefined {
  return bodyKindOf(request.routeOptions.config);
}

function bodyKindOf(config: unknown): BodyKind | undefined {
  const kind = (config as { bodyKind?: unknown } | undefined)?.bodyKind;
  return kind === 'deploy-archive' || kind === 'project-api' ? kind : undefined;
}

function unsupported(request: FastifyRequest): AuthError {
  return routeKind(request) === 'deploy-archive'
    ? new AuthError(
        AuthErrorCode.UnsupportedMediaType,
        'Send the project as a tar.gz (Content-Type: application/gzip) or as JSON',
      )
    : new AuthError(AuthErrorCode.UnsupportedMediaType);
}
