import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { loadProjectHostConfig } from './project-host.config.js';
import { AppModule } from './app.module.js';

const config = loadProjectHostConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'project-host',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'project-host',
  host: config.HOST,
  port: config.PORT,
}).catch(exitOnBootFailure('project-host'));
