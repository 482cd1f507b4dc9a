import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure, registerStaticAssets } from '@suite/nest-core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthError, AuthErrorCode, toUserErrorBody } from '@suite/errors';
import { startTelemetry } from '@suite/telemetry';
import { AppModule } from './app.module.js';
import { setupOpenApi } from './docs/openapi.js';
import { userExceptionFilter } from './http/user-exception.filter.js';
import { loadProjectHostConfig } from './project-host.config.js';

const config = loadProjectHostConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'project-host',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'project-host',
  host: config.HOST,
  port: config.PORT,
  bodyLimit: 64 * 1024,
  routerError: () => toUserErrorBody(new AuthError(AuthErrorCode.NotFound)),
  configure: async (app) => {
    app.useGlobalFilters(userExceptionFilter());
    setupOpenApi(app);
    await registerStaticAssets(app, join(dirname(fileURLToPath(import.meta.url)), '..', 'public'));
  },
}).catch(exitOnBootFailure('project-host'));
