import { APP_ERROR_MODEL, RUNNER_FRAMEWORK_ERRORS, toHttpProblem } from '@suite/errors';
import { createExceptionFilter } from '@suite/nest-core';

/** Every error of the runner's HTTP surface as a /v1 problem (FastAPI shapes); 500s carry a logged error id. */
export function runnerExceptionFilter() {
  return createExceptionFilter({
    model: APP_ERROR_MODEL,
    framework: RUNNER_FRAMEWORK_ERRORS,
    reply: (error, _request, errorId) => toHttpProblem(error, { errorId }),
  });
}
