import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { AppModule } from './app.module.js';
import { registerGatewayProxy } from './gateway-proxy.js';
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
  configure: (app) => (config.GATEWAY_URL ? registerGatewayProxy(app, config.GATEWAY_URL) : undefined),
}).catch(exitOnBootFailure('jobs-api'));
