import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

export interface TelemetryOptions {
  serviceName: string;
  serviceVersion?: string;
  /** OTLP/HTTP base endpoint (e.g. http://collector:4318). Without it spans are created (so logs
   * carry trace ids and context propagates) but nothing is exported. */
  otlpEndpoint?: string | undefined;
}

export interface Telemetry {
  readonly exporting: boolean;
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK once per process. Call it before the app module is created so the
 * tracer provider and W3C propagator are registered for everything that follows.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (process.env.OTEL_LOG_LEVEL === 'debug') diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.DEBUG);
  const endpoint = options.otlpEndpoint?.replace(/\/+$/, '');
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      [ATTR_SERVICE_VERSION]: options.serviceVersion ?? '1.0.0',
    }),
    // Without an endpoint a no-op processor keeps a real tracer provider registered (trace ids for
    // logs, propagation to workers) while stopping the SDK from falling back to its env-driven
    // default exporter, which would try localhost:4318.
    ...(endpoint
      ? { traceExporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }) }
      : { spanProcessors: [new NoopSpanProcessor()] }),
    instrumentations: [],
  });
  sdk.start();
  return {
    exporting: Boolean(endpoint),
    shutdown: () => sdk.shutdown(),
  };
}
