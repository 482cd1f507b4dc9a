import { context, propagation, trace, type Context, type Span, SpanStatusCode } from '@opentelemetry/api';

/** W3C trace context as plain JSON, so it can ride inside a queue payload or a database row. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** Serialises the active (or given) context into a carrier. Empty when there is no active span. */
export function injectTraceContext(ctx: Context = context.active()): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  const out: TraceCarrier = {};
  if (carrier.traceparent) out.traceparent = carrier.traceparent;
  if (carrier.tracestate) out.tracestate = carrier.tracestate;
  return out;
}

/** The context a carrier describes, to be used as the parent of the consumer's spans. */
export function extractTraceContext(carrier: TraceCarrier | null | undefined): Context {
  return propagation.extract(context.active(), { ...(carrier ?? {}) });
}

/** Runs `fn` inside a new active span; records errors and always ends the span. */
export async function withSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T>,
  options: { parent?: Context; attributes?: Record<string, string | number | boolean> } = {},
): Promise<T> {
  const tracer = trace.getTracer('suite');
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(name, { attributes: options.attributes ?? {} }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Trace and span ids of the active span, for structured logs. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  const sc = span?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return { traceId: sc.traceId, spanId: sc.spanId };
}
