import { AppError, type AppErrorOptions } from './app-error.js';
import { unreachable } from './unreachable.js';

/** JSON-RPC 2.0 errors and the A2A v1.0 errors, by their wire code. */
export enum A2aErrorCode {
  JsonParse = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  Internal = -32603,
  TaskNotFound = -32001,
  TaskNotCancelable = -32002,
  PushNotificationNotSupported = -32003,
  UnsupportedOperation = -32004,
  ContentTypeNotSupported = -32005,
  InvalidAgentResponse = -32006,
  ExtendedAgentCardNotConfigured = -32007,
  ExtensionSupportRequired = -32008,
  VersionNotSupported = -32009,
}

/** The google.rpc.ErrorInfo domain of the reasons A2A defines. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';

export interface A2aErrorSpec {
  /** ErrorInfo `reason`: the A2A error name without "Error", in UPPER_SNAKE. */
  readonly reason: string;
  /** The message A2A suggests; throw sites may be more specific. */
  readonly message: string;
  /** The HTTP status A2A v1.0 assigns to the error in its HTTP+JSON binding. */
  readonly httpStatus: number;
}

export function a2aErrorSpec(code: A2aErrorCode): A2aErrorSpec {
  switch (code) {
    case A2aErrorCode.JsonParse:
      return { reason: 'JSON_PARSE', message: 'Invalid JSON payload', httpStatus: 400 };
    case A2aErrorCode.InvalidRequest:
      return { reason: 'INVALID_REQUEST', message: 'Request payload validation error', httpStatus: 400 };
    case A2aErrorCode.MethodNotFound:
      return { reason: 'METHOD_NOT_FOUND', message: 'Method not found', httpStatus: 404 };
    case A2aErrorCode.InvalidParams:
      return { reason: 'INVALID_PARAMS', message: 'Invalid parameters', httpStatus: 400 };
    case A2aErrorCode.Internal:
      return { reason: 'INTERNAL', message: 'Internal error', httpStatus: 500 };
    case A2aErrorCode.TaskNotFound:
      return { reason: 'TASK_NOT_FOUND', message: 'Task not found', httpStatus: 404 };
    case A2aErrorCode.TaskNotCancelable:
      return { reason: 'TASK_NOT_CANCELABLE', message: 'Task cannot be canceled', httpStatus: 409 };
    case A2aErrorCode.PushNotificationNotSupported:
      return {
        reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
        message: 'Push notifications are not supported',
        httpStatus: 400,
      };
    case A2aErrorCode.UnsupportedOperation:
      return { reason: 'UNSUPPORTED_OPERATION', message: 'This operation is not supported', httpStatus: 400 };
    case A2aErrorCode.ContentTypeNotSupported:
      return { reason: 'CONTENT_TYPE_NOT_SUPPORTED', message: 'Incompatible content types', httpStatus: 415 };
    case A2aErrorCode.InvalidAgentResponse:
      return { reason: 'INVALID_AGENT_RESPONSE', message: 'Invalid agent response', httpStatus: 502 };
    case A2aErrorCode.ExtendedAgentCardNotConfigured:
      return {
        reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
        message: 'Extended agent card is not configured',
        httpStatus: 400,
      };
    case A2aErrorCode.ExtensionSupportRequired:
      return {
        reason: 'EXTENSION_SUPPORT_REQUIRED',
        message: 'Extension support is required',
        httpStatus: 400,
      };
    case A2aErrorCode.VersionNotSupported:
      return {
        reason: 'VERSION_NOT_SUPPORTED',
        message: 'Protocol version is not supported',
        httpStatus: 400,
      };
    default:
      return unreachable(code);
  }
}

export class A2aError extends AppError<A2aErrorCode> {
  readonly family = 'a2a' as const;

  constructor(code: A2aErrorCode, message: string = a2aErrorSpec(code).message, options?: AppErrorOptions) {
    super(code, message, options);
  }
}
