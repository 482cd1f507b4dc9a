import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { loadAgentGatewayConfig } from './agent-gateway.config.js';
import { AppModule } from './app.module.js';

const config = loadAgentGatewayConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'agent-gateway',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'agent-gateway',
  host: config.HOST,
  port: config.PORT,
}).catch(exitOnBootFailure('agent-gateway'));
