export { startTelemetry, type Telemetry, type TelemetryOptions } from './telemetry-sdk.js';
export {
  currentTraceIds,
  extractTraceContext,
  injectTraceContext,
  withSpan,
  type TraceCarrier,
} from './trace-context.js';
export { endHttpSpan, httpSpanIds, runInHttpSpan, startHttpSpan } from './http-server-span.js';
export {
  authOutcomes,
  browserRequestsBlocked,
  browserRestarts,
  collectProcessMetrics,
  hookDuration,
  httpRequestDuration,
  jobDuration,
  jobQueueWait,
  jobSteps,
  mailOutcomes,
  metricsRegistry,
  observeConnectionBudget,
  observeJobStates,
  observeQueueStates,
  renderMetrics,
  type ConnectionBudgetStats,
} from './metrics.js';
export { traceSteps, type StepLogEntry } from './step-spans.js';
