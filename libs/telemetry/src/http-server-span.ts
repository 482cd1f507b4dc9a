import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';

/** The server span of each request in flight, keyed by Node's request object. */
const spans = new WeakMap<object, Span>();

/**
 * Starts the SERVER span of an incoming request, continuing the caller's `traceparent` when it
 * sends one. The span is named `METHOD route` once the route template is known (see `endHttpSpan`).
 */
export function startHttpSpan(req: object, method: string, headers: IncomingHttpHeaders): Span {
  const parent = propagation.extract(context.active(), headers);
  const span = trace
    .getTracer('suite')
    .startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  spans.set(req, span);
  return span;
}

/**
 * Runs `fn` with the request's server span active, so the handler's spans, queue jobs and logs join
 * its trace. Without a span (untraced path) `fn` runs as is.
 */
export function runInHttpSpan<T>(req: object, fn: () => T): T {
  const span = spans.get(req);
  return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
}

/** Trace and span ids of a request's server span (for its access-log line). */
export function httpSpanIds(req: object | undefined): { traceId: string; spanId: string } | undefined {
  const sc = req ? spans.get(req)?.spanContext() : undefined;
  return sc && trace.isSpanContextValid(sc) ? { traceId: sc.traceId, spanId: sc.spanId } : undefined;
}

/** Names the span after the route template (never the concrete URL: it may carry ids) and ends it. */
export function endHttpSpan(
  req: object,
  result: { method: string; route: string; statusCode: number },
): void {
  const span = spans.get(req);
  // Kept in the map (it goes with the request): the access-log line still reads its ids.
  if (!span) return;
  span.updateName(`${result.method} ${result.route}`);
  span.setAttribute('http.route', result.route);
  span.setAttribute('http.response.status_code', result.statusCode);
  if (result.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
