import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { Logger } from 'nestjs-pino';
import { loadBrowserWorkerConfig } from './browser-worker.config.js';
import { WorkerModule } from './worker.module.js';

/** An application context, not an HTTP app: the worker only consumes the queue (and answers probes). */
async function bootstrap(): Promise<void> {
  const config = loadBrowserWorkerConfig();
  startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'browser-worker',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  app
    .get(Logger)
    .log(
      `browser-worker ${config.WORKER_ID ?? process.pid} ready (concurrency ${config.WORKER_CONCURRENCY})`,
    );
}

bootstrap().catch(exitOnBootFailure('browser-worker'));
