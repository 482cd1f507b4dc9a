import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { Logger } from 'nestjs-pino';
import { loadProjectWorkerConfig } from './project-worker.config.js';
import { ProjectWorkerModule } from './project-worker.module.js';

/**
 * An application context, not an HTTP app: it consumes the project host's queues (mail, auth hooks,
 * project jobs, custom-domain checks, tenant upgrades) and answers probes on HEALTH_PORT.
 */
async function bootstrap(): Promise<void> {
  const config = loadProjectWorkerConfig();
  startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'project-worker',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const app = await NestFactory.createApplicationContext(ProjectWorkerModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  app
    .get(Logger)
    .log('project-worker ready (mail, auth-hooks, project-jobs, domain checks, tenant upgrades)');
}

bootstrap().catch(exitOnBootFailure('project-worker'));
