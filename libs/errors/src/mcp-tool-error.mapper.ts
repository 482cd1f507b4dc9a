import { a2aErrorSpec, A2aErrorCode } from './a2a-error.js';
import { AuthErrorCode } from './auth-error.js';
import { asKnownError, isUnexpectedError, newErrorId, type MapperOptions } from './known-error.js';
import { RunnerErrorCode } from './runner-error.js';
import { unreachable } from './unreachable.js';
import { formatLoc, type ValidationIssue } from './validation-issue.js';

export type McpToolErrorContent = {
  code: string;
  message: string;
  issues?: ValidationIssue[];
  retryAfterSeconds?: number;
  errorId?: string;
};

/** An MCP CallToolResult reporting a failed tool call (a type alias so it fits the SDK's type). */
export type McpToolErrorResult = {
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: McpToolErrorContent };
};

/**
 * What the calling agent should do next. Tool errors are read by models, and a model corrects
 * its call far more often when the text says how.
 */
type Remedy = 'fix_arguments' | 'check_id' | 'credentials' | 'retry_later' | 'none';

/** The `/mcp` answer for any thrown value: readable text plus the same facts as structured data. */
export function toMcpToolError(error: unknown, options: MapperOptions = {}): McpToolErrorResult {
  if (isUnexpectedError(error)) {
    const errorId = options.errorId ?? newErrorId();
    const message = 'Internal error';
    return result(`${message} (error id ${errorId}). It was logged; retrying may help, or report the id.`, {
      code: 'internal',
      message,
      errorId,
    });
  }
  const known = asKnownError(error)!;
  let code: string;
  let remedy: Remedy;
  switch (known.family) {
    case 'runner':
      code = known.code;
      remedy = runnerRemedy(known.code);
      break;
    case 'auth':
      code = known.code;
      remedy = authRemedy(known.code);
      break;
    case 'a2a':
      code = a2aErrorSpec(known.code).reason.toLowerCase();
      remedy = a2aRemedy(known.code);
      break;
    default:
      return unreachable(known);
  }
  const { issues, retryAfterSeconds } = known.details;
  const content: McpToolErrorContent = { code, message: known.message };
  if (issues?.length) content.issues = [...issues];
  if (retryAfterSeconds !== undefined) content.retryAfterSeconds = retryAfterSeconds;

  const lines = issues?.length
    ? [
        `Invalid arguments (${code}):`,
        ...issues.map((problem) => `- ${formatLoc(problem.loc)}: ${problem.msg}`),
      ]
    : [`${known.message} (${code}).`];
  const hint = remedyText(remedy, retryAfterSeconds);
  if (hint) lines.push(hint);
  return result(lines.join('\n'), content);
}

function result(text: string, error: McpToolErrorContent): McpToolErrorResult {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error } };
}

function remedyText(remedy: Remedy, retryAfterSeconds: number | undefined): string | undefined {
  switch (remedy) {
    case 'fix_arguments':
      return 'Fix the arguments and call the tool again.';
    case 'check_id':
      return 'Check the id (list the jobs to find it) and call the tool again.';
    case 'credentials':
      return 'The credentials of this connection do not allow this call.';
    case 'retry_later':
      return retryAfterSeconds === undefined
        ? 'Try again later.'
        : `Try again in ${Math.ceil(retryAfterSeconds)} seconds.`;
    case 'none':
      return undefined;
    default:
      return unreachable(remedy);
  }
}

function runnerRemedy(code: RunnerErrorCode): Remedy {
  switch (code) {
    case RunnerErrorCode.ValidationFailed:
    case RunnerErrorCode.ModelUnavailable:
    case RunnerErrorCode.EnvUnavailable:
    case RunnerErrorCode.PayloadTooLarge:
    case RunnerErrorCode.UnsupportedMediaType:
      return 'fix_arguments';
    case RunnerErrorCode.JobNotFound:
      return 'check_id';
    case RunnerErrorCode.Unauthorized:
    case RunnerErrorCode.Forbidden:
      return 'credentials';
    case RunnerErrorCode.RateLimited:
    case RunnerErrorCode.ServiceUnavailable:
    case RunnerErrorCode.TemporarilyUnavailable:
      return 'retry_later';
    case RunnerErrorCode.JobNotCancelable:
    case RunnerErrorCode.ArtifactNotFound:
    case RunnerErrorCode.SuiteNotFound:
    case RunnerErrorCode.RouteNotFound:
    case RunnerErrorCode.Internal:
      return 'none';
    default:
      return unreachable(code);
  }
}

function authRemedy(code: AuthErrorCode): Remedy {
  switch (code) {
    case AuthErrorCode.InvalidRequest:
    case AuthErrorCode.NonceInvalid:
    case AuthErrorCode.CurrentPasswordRequired:
    case AuthErrorCode.InvalidRedirectUri:
    case AuthErrorCode.InvalidAuthHook:
      return 'fix_arguments';
    case AuthErrorCode.InvalidCredentials:
    case AuthErrorCode.IdentityNotFound:
    case AuthErrorCode.Unauthorized:
      return 'credentials';
    case AuthErrorCode.IdpOauthUnconfigured:
    case AuthErrorCode.ProjectCodeUnavailable:
    case AuthErrorCode.RateLimited:
      return 'retry_later';
    case AuthErrorCode.PayloadTooLarge:
    case AuthErrorCode.UnsupportedMediaType:
      return 'fix_arguments';
    case AuthErrorCode.IdentityAlreadyExists:
    case AuthErrorCode.AuthDisabled:
    case AuthErrorCode.EmailPasswordDisabled:
    case AuthErrorCode.SignupDisabled:
    case AuthErrorCode.IdpOauthDisabled:
    case AuthErrorCode.NotImplemented:
    case AuthErrorCode.ProjectNotFound:
    case AuthErrorCode.NotFound:
    case AuthErrorCode.Internal:
      return 'none';
    default:
      return unreachable(code);
  }
}

function a2aRemedy(code: A2aErrorCode): Remedy {
  switch (code) {
    case A2aErrorCode.JsonParse:
    case A2aErrorCode.InvalidRequest:
    case A2aErrorCode.MethodNotFound:
    case A2aErrorCode.InvalidParams:
    case A2aErrorCode.ContentTypeNotSupported:
    case A2aErrorCode.VersionNotSupported:
    case A2aErrorCode.ExtensionSupportRequired:
      return 'fix_arguments';
    case A2aErrorCode.TaskNotFound:
      return 'check_id';
    case A2aErrorCode.TaskNotCancelable:
    case A2aErrorCode.PushNotificationNotSupported:
    case A2aErrorCode.UnsupportedOperation:
    case A2aErrorCode.InvalidAgentResponse:
    case A2aErrorCode.ExtendedAgentCardNotConfigured:
    case A2aErrorCode.Internal:
      return 'none';
    default:
      return unreachable(code);
  }
}
