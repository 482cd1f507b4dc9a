import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure, registerStaticAssets } from '@suite/nest-core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunnerError, RunnerErrorCode, toHttpProblem } from '@suite/errors';
import { startTelemetry } from '@suite/telemetry';
import { AppModule } from './app.module.js';
import { setupOpenApi } from './docs/openapi.js';
import { registerGatewayProxy } from './gateway-proxy.js';
import { registerJsonBodyParser } from './http/json-body.parser.js';
import { runnerExceptionFilter } from './http/runner-exception.filter.js';
import { loadJobsApiConfig } from './jobs-api.config.js';

const config = loadJobsApiConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'jobs-api',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'jobs-api',
  host: config.HOST,
  port: config.PORT,
  bodyLimit: config.MAX_BODY_BYTES,
  bodyParser: false,
  // A path that cannot even be routed (bad percent-encoding, a 2,000-character id) names no job.
  routerError: () => toHttpProblem(new RunnerError(RunnerErrorCode.RouteNotFound, 'Not Found')),
  closingError: () =>
    toHttpProblem(
      new RunnerError(RunnerErrorCode.ServiceUnavailable, 'The server is shutting down; try again shortly.', {
        retryAfterSeconds: 1,
      }),
    ),
  configure: async (app) => {
    registerJsonBodyParser(app.getHttpAdapter().getInstance());
    app.useGlobalFilters(runnerExceptionFilter());
    setupOpenApi(app);
    await registerStaticAssets(app, join(dirname(fileURLToPath(import.meta.url)), '..', 'public'));
    if (config.GATEWAY_URL) await registerGatewayProxy(app, config.GATEWAY_URL);
  },
}).catch(exitOnBootFailure('jobs-api'));
