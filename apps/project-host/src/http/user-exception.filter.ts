import { APP_ERROR_MODEL, toUserErrorBody, USER_FRAMEWORK_ERRORS } from '@suite/errors';
import { createExceptionFilter } from '@suite/nest-core';

/** Every error of the project host becomes `{code, message}`; 500s carry a logged error id. */
export function userExceptionFilter() {
  return createExceptionFilter({
    model: APP_ERROR_MODEL,
    framework: USER_FRAMEWORK_ERRORS,
    reply: (error, _request, errorId) => toUserErrorBody(error, { errorId }),
  });
}
