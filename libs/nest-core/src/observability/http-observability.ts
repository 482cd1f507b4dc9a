import { endHttpSpan, httpRequestDuration, runInHttpSpan, startHttpSpan } from '@suite/telemetry';
import type { FastifyInstance } from 'fastify';

/** Probe and scrape traffic: measured, but not traced (it would bury real requests). */
const untraced = (url: string): boolean => url.startsWith('/health') || url.startsWith('/metrics');

/**
 * Gives every request a SERVER span (continuing an incoming `traceparent`) that is active while
 * guards, interceptors and the handler run, so their logs, spans and queue jobs join its trace; and
 * records `http_request_duration_seconds` by method, route template and status code.
 */
export function registerHttpObservability(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!untraced(request.url)) startHttpSpan(request.raw, request.method, request.headers);
    done();
  });
  // Body parsing ran on stream events outside any request context; from here on Fastify calls
  // the Nest route handler synchronously, so activating the span here covers the whole chain.
  fastify.addHook('preHandler', (request, _reply, done) => {
    runInHttpSpan(request.raw, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    // The template (/v1/jobs/:id), never the concrete URL; unmatched paths share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    const result = { method: request.method, route, statusCode: reply.statusCode };
    endHttpSpan(request.raw, result);
    httpRequestDuration.observe(
      { method: result.method, route, status_code: String(result.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
