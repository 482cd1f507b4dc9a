import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import {
  asDependencyUnavailable,
  asKnownError,
  isUnexpectedError,
  jsonRpcHttpStatus,
  newErrorId,
  RunnerError,
  RunnerErrorCode,
  toHttpProblem,
  toJsonRpcError,
} from '@suite/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';

function fromFramework(error: unknown): unknown {
  if (asKnownError(error)) return error;
  const unavailable = asDependencyUnavailable(error);
  if (unavailable) return unavailable;
  const fastifyError = error instanceof HttpException ? (error.cause ?? error) : error;
  const code = (fastifyError as { code?: string }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new RunnerError(RunnerErrorCode.PayloadTooLarge, 'The request body is too large.');
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) return new RunnerError(RunnerErrorCode.RouteNotFound, 'Not Found');
    if (status === 405) return new RunnerError(RunnerErrorCode.RouteNotFound, 'Method Not Allowed');
  }
  return error;
}

/** Errors that escape a handler: JSON-RPC bodies on /a2a and /mcp, the runner's HTTP bodies elsewhere. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const error = fromFramework(exception);
    const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
    if (errorId) {
      this.logger.error(
        { err: exception, errorId, method: request.method, url: request.url },
        `unexpected error ${errorId}`,
      );
    }
    if (reply.sent || reply.raw.headersSent) return;
    if (/^\/(a2a|mcp)(\/|\?|$)/.test(request.url)) {
      const known = asKnownError(error);
      const status =
        known?.family === 'runner' && known.code === RunnerErrorCode.PayloadTooLarge
          ? 413
          : known?.family === 'runner' && known.code === RunnerErrorCode.RouteNotFound
            ? 404
            : jsonRpcHttpStatus(error);
      void reply.status(status).send(toJsonRpcError(error, null, { errorId }));
      return;
    }
    const problem = toHttpProblem(error, { errorId });
    void reply.status(problem.status).headers(problem.headers).send(problem.body);
  }
}
