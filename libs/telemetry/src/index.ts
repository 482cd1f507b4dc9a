export { startTelemetry, type Telemetry, type TelemetryOptions } from './telemetry-sdk.js';
export {
  currentTraceIds,
  extractTraceContext,
  injectTraceContext,
  withSpan,
  type TraceCarrier,
} from './trace-context.js';
