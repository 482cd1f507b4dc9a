import { type AgentLog, sleep } from '@suite/browser-agent';
import { AGENT_TOOLS } from './agent-tools.js';
import type { Conversation } from './conversation.js';
import { SYSTEM_PROMPT } from './conversation.js';
import type { LlmRunLimits } from './llm-limits.js';
import { classifyProviderError, type LlmProvider, type LlmResponse } from './llm-provider.js';
import { RunEnded } from './run-guards.js';
import { formatUsd, type UsageMeter } from './token-usage.js';

/**
 * One model turn: the call, its bounded retries (429, 5xx, timeouts, connection errors; Retry-After
 * honoured) and a log line with its tokens and cost. A call that keeps failing ends the run.
 */
export class ModelCaller {
  constructor(
    private readonly provider: LlmProvider,
    private readonly model: string,
    private readonly limits: LlmRunLimits,
    private readonly meter: UsageMeter,
    private readonly log: AgentLog,
    /** The run's signal; when it aborts, the caller turns its reason into the run's end. */
    private readonly signal: AbortSignal,
  ) {}

  async call(turn: number, conversation: Conversation): Promise<LlmResponse> {
    const { provider } = this;
    for (let attempt = 1; ; attempt++) {
      this.signal.throwIfAborted();
      const started = Date.now();
      try {
        const response = await provider.complete({
          model: this.model,
          system: SYSTEM_PROMPT,
          messages: conversation.messages,
          tools: AGENT_TOOLS,
          maxOutputTokens: this.limits.maxOutputTokens,
          signal: this.signal,
          timeoutMs: this.limits.llmCallTimeoutMs,
        });
        const { call, total } = this.meter.add(response.usage);
        const calls = response.toolCalls.map((c) => c.name).join(', ') || 'no tool call';
        this.log.info(
          `agent step ${turn}: ${provider.name} ${this.model} answered in ${Date.now() - started} ms (${calls}); tokens ${call.inputTokens} in + ${call.outputTokens} out, ${formatUsd(call.costUsd)}; job so far ${total.inputTokens} in + ${total.outputTokens} out, ${formatUsd(total.costUsd)}`,
          { durationMs: Date.now() - started },
        );
        return response;
      } catch (caught) {
        if (this.signal.aborted) throw caught;
        const error = classifyProviderError(caught, provider.name);
        const timedOut = error.kind === 'timeout';
        const detail = timedOut
          ? `${provider.name} did not answer within ${this.limits.llmCallTimeoutMs} ms (LLM call timeout)`
          : error.message;
        if (!error.retryable || attempt > this.limits.maxRetries) {
          this.log.write({
            outcome: 'info',
            level: 'error',
            message: `agent step ${turn}: the model call failed after ${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}`,
            error: detail,
          });
          throw new RunEnded(
            timedOut ? 'llm call timeout' : 'provider error',
            `The model provider failed after ${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}: ${detail}.`,
          );
        }
        const wait = Math.min(
          error.retryAfterMs ?? this.limits.retryBaseDelayMs * 2 ** (attempt - 1),
          this.limits.maxRetryDelayMs,
        );
        this.log.write({
          outcome: 'info',
          level: 'warn',
          message: `agent step ${turn}: ${detail}; retrying in ${(wait / 1000).toFixed(1)} s${error.retryAfterMs !== undefined ? ' (as Retry-After asked)' : ''} (retry ${attempt} of ${this.limits.maxRetries})`,
        });
        await sleep(wait, this.signal);
      }
    }
  }
}
