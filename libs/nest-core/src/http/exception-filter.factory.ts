import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loggableUrl } from '../logging/logger.options.js';

/** What Fastify or Nest refused before any handler ran. */
export type FrameworkFailure =
  'malformed-json' | 'body-too-large' | 'unsupported-media-type' | 'not-found' | 'method-not-allowed';

export function frameworkFailureOf(exception: unknown): FrameworkFailure | undefined {
  // Nest wraps Fastify's errors in an HttpException whose cause carries Fastify's code (on the
  // exception, or only in the options it was built with, as Nest's Fastify adapter does for a
  // Content-Type that is no media type at all, e.g. "garbage"). Read by shape, not `instanceof`:
  // the adapter's HttpException may come from another copy of @nestjs/common.
  const http =
    exception instanceof HttpException ||
    typeof (exception as { getStatus?: unknown } | null | undefined)?.getStatus === 'function'
      ? (exception as { getStatus(): number; cause?: unknown; options?: { cause?: unknown } })
      : undefined;
  const cause = http ? (http.cause ?? http.options?.cause ?? exception) : exception;
  switch ((cause as { code?: unknown } | null | undefined)?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'malformed-json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'body-too-large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'unsupported-media-type';
  }
  if (http) {
    const status = http.getStatus();
    if (status === 413) return 'body-too-large';
    if (status === 415) return 'unsupported-media-type';
    if (status === 404) return 'not-found';
    if (status === 405) return 'method-not-allowed';
  }
  return undefined;
}

/** The error model's hooks the filter needs (`APP_ERROR_MODEL` of @suite/errors). */
export interface ErrorModel {
  /** A dependency outage (Postgres, Redis down) as the model's own error; undefined otherwise. */
  fromDependency(error: unknown): unknown;
  /** True for what gets logged with its stack under a new error id (bugs, internal codes). */
  isUnexpected(error: unknown): boolean;
  newErrorId(): string;
}

export interface ErrorReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface ExceptionFilterOptions {
  model: ErrorModel;
  /** The app's error for each framework failure it answers in its own words; others pass as thrown. */
  framework: Partial<Record<FrameworkFailure, () => unknown>>;
  /** The contract's answer (one mapper of @suite/errors); `errorId` is set for unexpected errors. */
  reply(error: unknown, request: FastifyRequest, errorId: string | undefined): ErrorReply;
}

/**
 * The one exception filter of every HTTP app: framework failures and dependency outages become the
 * app's errors, unexpected ones are logged with their stack under an error id (URLs without query
 * values: they can carry codes and addresses), and the contract's mapper shapes the answer.
 */
export function createExceptionFilter(options: ExceptionFilterOptions): ExceptionFilter {
  const logger = new Logger('http');

  @Catch()
  class AppExceptionFilter implements ExceptionFilter {
    catch(exception: unknown, host: ArgumentsHost): void {
      const reply = host.switchToHttp().getResponse<FastifyReply>();
      const request = host.switchToHttp().getRequest<FastifyRequest>();
      const failure = frameworkFailureOf(exception);
      const fromFramework = failure ? options.framework[failure] : undefined;
      const error = fromFramework ? fromFramework() : (options.model.fromDependency(exception) ?? exception);
      const errorId = options.model.isUnexpected(error) ? options.model.newErrorId() : undefined;
      if (errorId) {
        logger.error(
          { err: exception, errorId, method: request.method, url: loggableUrl(request.url) },
          `unexpected error ${errorId}`,
        );
      }
      // A stream that fails after its headers went out cannot get an error body any more.
      if (reply.sent || reply.raw.headersSent) return;
      const answer = options.reply(error, request, errorId);
      void reply
        .status(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
    }
  }
  return new AppExceptionFilter();
}
