/**
 * The one small interface every model provider sits behind. Messages are provider-neutral; each
 * provider translates them to its own wire format and back.
 */

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model sent them (a JSON string for OpenAI-style APIs). */
  rawArguments: string;
  /** Parsed arguments, or undefined when they were not a JSON object. */
  arguments?: Record<string, unknown>;
}

export interface ToolResult {
  callId: string;
  content: string;
  isError?: boolean;
}

export type LlmMessage =
  | { role: 'user'; text: string; imageJpegBase64?: string }
  | { role: 'assistant'; text?: string; toolCalls: ToolCall[] }
  /** Results of the previous assistant turn's tool calls, plus the observation that follows them. */
  | { role: 'tool'; results: ToolResult[]; text?: string; imageJpegBase64?: string };

export interface LlmRequest {
  model: string;
  system: string;
  messages: readonly LlmMessage[];
  tools: readonly ToolDefinition[];
  maxOutputTokens: number;
  /** Aborts the call: the run's signal combined with the per-call timeout. */
  signal: AbortSignal;
  timeoutMs: number;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmResponse {
  text?: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  /** The provider's own stop reason ("tool_calls", "end_turn", …), for the log. */
  stopReason?: string;
}

export interface LlmProvider {
  /** "openai" or "anthropic", for log lines. */
  readonly name: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}

export type ProviderErrorKind = 'rate-limited' | 'server' | 'timeout' | 'connection' | 'fatal';

/** A failed provider call, classified so the agent can decide whether to retry. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** From Retry-After / retry-after-ms, when the provider sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  get retryable(): boolean {
    return this.kind !== 'fatal';
  }
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(after.trim())) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Classifies an SDK error by its shape (both official SDKs expose `status` and `headers` on API
 * errors and name their timeout/connection errors alike), without importing either SDK here.
 */
export function classifyProviderError(error: unknown, provider: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as { status?: unknown; headers?: Headers; name?: string; message?: string };
  const name = e?.name ?? '';
  const detail = (e?.message ?? String(error)).slice(0, 300);
  const status = typeof e?.status === 'number' ? e.status : undefined;
  if (/Timeout/i.test(name) || (error instanceof Error && error.name === 'TimeoutError'))
    return new ProviderError('timeout', `${provider} did not answer in time`);
  if (status === undefined && /Connection/i.test(name))
    return new ProviderError('connection', `could not reach ${provider}: ${detail}`);
  if (status === 429)
    return new ProviderError(
      'rate-limited',
      `${provider} rate-limited the request (HTTP 429)`,
      429,
      retryAfterMs(e.headers),
    );
  if (status !== undefined && (status >= 500 || status === 408 || status === 409))
    return new ProviderError(
      'server',
      `${provider} failed with HTTP ${status}: ${detail}`,
      status,
      retryAfterMs(e.headers),
    );
  if (status !== undefined)
    return new ProviderError(
      'fatal',
      `${provider} refused the request with HTTP ${status}: ${detail}`,
      status,
    );
  return new ProviderError('fatal', `${provider} call failed: ${detail}`);
}

/** Parses tool arguments; anything but a JSON object counts as malformed. */
export function parseToolArguments(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
