import { resolveLimits, type RunLimits } from '@suite/browser-agent';

/** The interpreter's browser limits (jobTimeoutMs is the wall clock) plus the agent loop's own. */
export interface LlmRunLimits extends RunLimits {
  /** Model turns; each turn may make several tool calls. */
  maxSteps: number;
  /** One model call, including reading its answer. */
  llmCallTimeoutMs: number;
  /** Failed tool calls in a row (browser errors, malformed or unknown calls, turns without a call). */
  maxConsecutiveErrors: number;
  /** How often the very same call (tool, arguments) may run in a row on an unchanged page. */
  maxRepeatedActions: number;
  /** Retries of one model call after 429, 5xx, timeouts and connection errors. */
  maxRetries: number;
  /** First back-off when the provider sent no Retry-After; doubles per retry. */
  retryBaseDelayMs: number;
  /** Longest single wait between retries, Retry-After included. */
  maxRetryDelayMs: number;
  maxOutputTokens: number;
  /** Full observations kept in the prompt; older ones are replaced by a one-line note. */
  keepObservations: number;
  maxElements: number;
  maxTextChars: number;
}

export const DEFAULT_LLM_LIMITS: Omit<LlmRunLimits, keyof RunLimits> = {
  maxSteps: 25,
  llmCallTimeoutMs: 60_000,
  maxConsecutiveErrors: 4,
  maxRepeatedActions: 3,
  maxRetries: 3,
  retryBaseDelayMs: 1_000,
  maxRetryDelayMs: 30_000,
  maxOutputTokens: 1_024,
  keepObservations: 2,
  maxElements: 150,
  maxTextChars: 3_000,
};

export function resolveLlmLimits(limits: Partial<LlmRunLimits> | undefined): LlmRunLimits {
  return { ...resolveLimits(limits), ...DEFAULT_LLM_LIMITS, ...stripUndefined(limits ?? {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
