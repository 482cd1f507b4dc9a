import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure, registerStaticAssets } from '@suite/nest-core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthError, AuthErrorCode, toUserErrorBody } from '@suite/errors';
import { startTelemetry } from '@suite/telemetry';
import { AppModule } from './app.module.js';
import { MAX_TOTAL_BYTES } from './project-code/project-files.js';
import { setupOpenApi } from './docs/openapi.js';
import { registerRequestBodies } from './http/request-bodies.js';
import { userExceptionFilter } from './http/user-exception.filter.js';
import { loadProjectHostConfig } from './project-host.config.js';

const config = loadProjectHostConfig();
/** JSON bodies of the control plane and /api/user; project routes and deploy archives have their own. */
const BODY_LIMIT = 64 * 1024;
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'project-host',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'project-host',
  host: config.HOST,
  port: config.PORT,
  bodyLimit: BODY_LIMIT,
  maxHeaderBytes: config.MAX_HEADER_KB * 1024,
  routerError: () => toUserErrorBody(new AuthError(AuthErrorCode.NotFound)),
  configure: async (app) => {
    // Before any route exists: the per-route body limits are set as routes are added.
    registerRequestBodies(app.getHttpAdapter().getInstance(), {
      defaultBytes: BODY_LIMIT,
      projectApiBytes: config.PROJECT_API_BODY_KB * 1024,
      deployArchiveBytes: MAX_TOTAL_BYTES,
    });
    app.useGlobalFilters(userExceptionFilter());
    setupOpenApi(app);
    await registerStaticAssets(app, join(dirname(fileURLToPath(import.meta.url)), '..', 'public'));
  },
}).catch(exitOnBootFailure('project-host'));
