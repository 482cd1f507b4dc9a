export {
  bootstrapHttpApp,
  exitOnBootFailure,
  type HttpBootstrapOptions,
} from './bootstrap/http-bootstrap.js';
export { registerStaticAssets } from './bootstrap/static-assets.js';
export {
  createExceptionFilter,
  frameworkFailureOf,
  type ErrorModel,
  type ErrorReply,
  type ExceptionFilterOptions,
  type FrameworkFailure,
} from './http/exception-filter.factory.js';
export { inlineScriptSource, pageSecurityHeaders, type PageSecurityOptions } from './http/page-security.js';
export { SseWriter } from './http/sse-writer.js';
export { DependencyProbe, type ProbeResult } from './health/dependency-probe.js';
export { HealthController } from './health/health.controller.js';
export { HealthModule } from './health/health.module.js';
export {
  WORKER_HEALTH_OPTIONS,
  WorkerCoreModule,
  WorkerHealthServer,
  type WorkerCoreConfig,
  type WorkerHealthOptions,
} from './health/worker-health.server.js';
export {
  HEALTH_EXTRAS,
  HEALTH_OPTIONS,
  HealthService,
  type HealthExtras,
  type HealthOptions,
  type HealthReport,
} from './health/health.service.js';
export {
  loggableUrl,
  nestPinoParams,
  pinoOptions,
  REDACTED_PATHS,
  traceFields,
  type LoggingOptions,
} from './logging/logger.options.js';
export { CoreModule, type CoreModuleOptions } from './core.module.js';
export { ConfigValueModule } from './config-value.module.js';
export {
  METRICS_OPTIONS,
  MetricsController,
  type MetricsOptions,
} from './observability/metrics.controller.js';
export { metricsAccess, type MetricsAccess, type MetricsRequest } from './observability/metrics-access.js';
export { registerHttpObservability } from './observability/http-observability.js';
