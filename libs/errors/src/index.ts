export { AppError, type AppErrorOptions, type ErrorDetails, type ErrorFamily } from './app-error.js';
export { RunnerError, RunnerErrorCode } from './runner-error.js';
export {
  AuthError,
  AuthErrorCode,
  defaultAuthMessage,
  type AuthErrorOptions,
  type FieldProblem,
} from './auth-error.js';
export { A2A_ERROR_DOMAIN, A2aError, A2aErrorCode, a2aErrorSpec, type A2aErrorSpec } from './a2a-error.js';
export {
  expectedOneOf,
  formatLoc,
  issue,
  jsonInvalidIssue,
  type ValidationIssue,
  type ValidationLoc,
} from './validation-issue.js';
export {
  asKnownError,
  isUnexpectedError,
  newErrorId,
  type KnownError,
  type MapperOptions,
} from './known-error.js';
export { authHttpStatus, httpHeadersOf, httpStatusOf, runnerHttpStatus } from './http-status.js';
export {
  INTERNAL_SERVER_ERROR,
  toHttpProblem,
  type HttpErrorBody,
  type HttpProblem,
  type HttpValidationErrorBody,
} from './http-problem.mapper.js';
export { toUserErrorBody, type UserErrorBody, type UserErrorResponse } from './user-error-body.mapper.js';
export {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  jsonRpcHttpStatus,
  SERVER_ERROR_CODE,
  SUITE_ERROR_DOMAIN,
  toJsonRpcError,
  type BadRequestDetail,
  type ErrorInfoDetail,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcId,
} from './json-rpc-error.mapper.js';
export { toA2aRestError, type A2aRestError, type A2aRestErrorBody } from './a2a-rest-error.mapper.js';
export {
  toMcpToolError,
  type McpToolErrorContent,
  type McpToolErrorResult,
} from './mcp-tool-error.mapper.js';
export {
  APP_ERROR_MODEL,
  asDependencyUnavailable,
  isDependencyUnavailable,
} from './dependency-unavailable.js';
export { RUNNER_FRAMEWORK_ERRORS, USER_FRAMEWORK_ERRORS } from './framework-errors.js';
export { unreachable } from './unreachable.js';
