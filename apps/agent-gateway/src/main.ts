import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { loadAgentGatewayConfig } from './agent-gateway.config.js';
import { A2A_REST_BASE, A2aRestController } from './a2a/a2a-rest.controller.js';
import { A2aController } from './a2a/a2a.controller.js';
import { AppModule } from './app.module.js';
import { gatewayExceptionFilter } from './http/gateway-exception.filter.js';
import { registerJsonRpcBodyParser } from './http/json-rpc-body.parser.js';

const config = loadAgentGatewayConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'agent-gateway',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'agent-gateway',
  host: config.HOST,
  port: config.PORT,
  bodyLimit: config.MAX_BODY_BYTES,
  bodyParser: false,
  configure: (app) => {
    const fastify = app.getHttpAdapter().getInstance();
    registerJsonRpcBodyParser(fastify);
    // Nest folds "/a2a/" into "/a2a"; clients that keep the card URL's trailing slash still land here.
    const a2a = app.get(A2aController);
    fastify.post('/a2a/', (request, reply) => a2a.rpc(request, reply));
    // The HTTP+JSON binding: its paths hold colons ("/tasks/{id}:cancel"), so it routes them itself.
    const rest = app.get(A2aRestController);
    fastify.all(A2A_REST_BASE, (request, reply) => rest.handle(request, reply));
    fastify.all(`${A2A_REST_BASE}/*`, (request, reply) => rest.handle(request, reply));
    app.useGlobalFilters(gatewayExceptionFilter());
  },
}).catch(exitOnBootFailure('agent-gateway'));
