import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { loadAgentGatewayConfig } from './agent-gateway.config.js';
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
    registerJsonRpcBodyParser(app.getHttpAdapter().getInstance());
    // /a2a, /a2a/rest and /mcp are Nest routes: their errors reach the wire through this filter.
    app.useGlobalFilters(gatewayExceptionFilter());
  },
}).catch(exitOnBootFailure('agent-gateway'));
