import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import {
  asDependencyUnavailable,
  asKnownError,
  AuthError,
  AuthErrorCode,
  isUnexpectedError,
  newErrorId,
  toUserErrorBody,
} from '@suite/errors';
import { loggableUrl } from '@suite/nest-core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Framework failures (before a handler runs) in the project host's error model. */
function fromFramework(error: unknown): unknown {
  if (asKnownError(error)) return error;
  const unavailable = asDependencyUnavailable(error);
  if (unavailable) return unavailable;
  const cause = error instanceof HttpException ? (error.cause ?? error) : error;
  switch ((cause as { code?: string }).code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AuthError(AuthErrorCode.InvalidRequest, 'The body must be a JSON object.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AuthError(AuthErrorCode.PayloadTooLarge);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AuthError(AuthErrorCode.UnsupportedMediaType);
  }
  if (error instanceof HttpException && (error.getStatus() === 404 || error.getStatus() === 405)) {
    return new AuthError(AuthErrorCode.NotFound);
  }
  return error;
}

/** Every error of the project host becomes `{code, message}`; 500s carry a logged error id. */
@Catch()
export class UserExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const error = fromFramework(exception);
    const errorId = isUnexpectedError(error) ? newErrorId() : undefined;
    if (errorId) {
      this.logger.error(
        // Query values are secrets here (magic-link codes, emails): only their names are logged.
        { err: exception, errorId, method: request.method, url: loggableUrl(request.url) },
        `unexpected error ${errorId}`,
      );
    }
    const mapped = toUserErrorBody(error, { errorId });
    void reply.status(mapped.status).headers(mapped.headers).send(mapped.body);
  }
}
