import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SUITE_VERSION } from '@suite/config';
import { serveApiDocs } from '@suite/contracts';
import { AuthError, AuthErrorCode, toUserErrorBody } from '@suite/errors';
import { ProjectResolver } from '../projects/project-resolver.js';

/** The documented APIs: every project host's /api/user, and the control plane's /v1/projects and /v1/admin. */
const DOCUMENTED = /^\/(api\/user|v1\/projects|v1\/admin)(\/|$)/;

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Project Host')
    .setDescription(
      'End-user auth of every project host (`/api/user/*` on `<project>.<domain>` or a verified custom domain: ' +
        'email and password, magic link, forgot password, identity-provider sign-in, profile, email change) and the ' +
        'control plane (`/v1/projects` on this host: projects, auth and SMTP settings, custom domains, users, mail log, ' +
        'deployments). Errors are `{ "code": ..., "message": ... }`; a malformed request is 400 `invalid-request` whose ' +
        'message names each bad field (`password: is required`).',
    )
    .setVersion(SUITE_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The user\u2019s access token' },
      'access-token',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'PLATFORM_ADMIN_TOKEN (control plane only)' },
      'admin-token',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // The project's own APIs, the dashboard pages and internal callbacks are not this API.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => DOCUMENTED.test(path)),
  );
  return document;
}

/** Swagger UI at /docs and the document at /openapi.json, on the control-plane host only. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const resolver = app.get(ProjectResolver);
  serveApiDocs(app, buildOpenApiDocument(app), {
    title: 'Project Host API',
    servedTo: async (request) => (await resolver.resolve(request.headers.host)).kind === 'control-plane',
    // What any other unknown path answers on a project host.
    refused: () => toUserErrorBody(new AuthError(AuthErrorCode.NotFound)),
  });
}
