import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import {
  asDependencyUnavailable,
  asKnownError,
  isUnexpectedError,
  newErrorId,
  RunnerError,
  RunnerErrorCode,
  toHttpProblem,
} from '@suite/errors';
import { loggableUrl } from '@suite/nest-core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Fastify's own failures (before any handler runs), translated into the runner's error model. */
function fromFramework(error: unknown): unknown {
  if (asKnownError(error)) return error;
  const unavailable = asDependencyUnavailable(error);
  if (unavailable) return unavailable;
  // Nest wraps Fastify's errors in an HttpException whose cause carries Fastify's code.
  const fastifyError = error instanceof HttpException ? (error.cause ?? error) : error;
  const code = (fastifyError as { code?: string }).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new RunnerError(RunnerErrorCode.PayloadTooLarge, 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new RunnerError(
        RunnerErrorCode.UnsupportedMediaType,
        'Unsupported Content-Type: send the body as JSON with "Content-Type: application/json".',
      );
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return new RunnerError(RunnerErrorCode.RouteNotFound, 'Not Found');
    if (status === 405) return new RunnerError(RunnerErrorCode.RouteNotFound, 'Method Not Allowed');
  }
  return error;
}

/** Every error of the runner's HTTP surface goes through one mapper; 500s carry a logged error id. */
@Catch()
export class RunnerExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const error = fromFramework(exception) ?? exception;
    const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
    if (errorId) {
      this.logger.error(
        { err: exception, errorId, method: request.method, url: loggableUrl(request.url) },
        `unexpected error ${errorId}`,
      );
    }
    const problem = toHttpProblem(error, { errorId });
    void reply.status(problem.status).headers(problem.headers).send(problem.body);
  }
}
