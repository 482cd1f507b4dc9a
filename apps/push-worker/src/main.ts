import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { Logger } from 'nestjs-pino';
import { loadPushWorkerConfig } from './push-worker.config.js';
import { PushWorkerModule } from './push-worker.module.js';

/** An application context, not an HTTP app: it consumes the push-follows and push-notifications queues (and answers probes). */
async function bootstrap(): Promise<void> {
  const config = loadPushWorkerConfig();
  startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'push-worker',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const app = await NestFactory.createApplicationContext(PushWorkerModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  app.get(Logger).log(`push-worker ready (concurrency ${config.PUSH_CONCURRENCY})`);
}

bootstrap().catch(exitOnBootFailure('push-worker'));
