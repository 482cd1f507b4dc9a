import type { ValidationIssue } from './validation-issue.js';

/** The module whose code enum an error carries; mappers switch on it, then on `code`. */
export type ErrorFamily = 'runner' | 'auth' | 'a2a';

export interface ErrorDetails {
  /** Validation problems in pydantic/FastAPI shape; set on validation failures. */
  readonly issues?: readonly ValidationIssue[];
  /**
   * Facts a client may act on, e.g. `{ jobId }`. Strings only, because they travel as
   * google.rpc.ErrorInfo metadata (a string map) on JSON-RPC.
   */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Seconds a client should wait before retrying (rate limits, temporary outages). */
  readonly retryAfterSeconds?: number;
}

export interface AppErrorOptions extends ErrorDetails {
  readonly cause?: unknown;
}

/**
 * The one error business code throws. Each module has a subclass with its own code enum; each
 * transport has one mapper that turns any of them into its wire format, so services never build
 * HTTP, JSON-RPC or MCP bodies themselves.
 */
export abstract class AppError<TCode extends string | number = string | number> extends Error {
  abstract readonly family: ErrorFamily;
  readonly code: TCode;
  readonly details: ErrorDetails;

  protected constructor(code: TCode, message: string, options: AppErrorOptions = {}) {
    const { cause, ...details } = options;
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}
