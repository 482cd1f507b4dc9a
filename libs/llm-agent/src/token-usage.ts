import type { TokenUsage } from './llm-provider.js';

/** US dollars per million tokens. */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface RunUsage extends TokenUsage {
  llmCalls: number;
  /** Estimated from the model's price list; undefined when the price is unknown. */
  costUsd?: number;
}

export function costOf(usage: TokenUsage, pricing: ModelPricing | undefined): number | undefined {
  if (!pricing) return undefined;
  return (usage.inputTokens * pricing.inputPerMTok + usage.outputTokens * pricing.outputPerMTok) / 1_000_000;
}

export function formatUsd(cost: number | undefined): string {
  if (cost === undefined) return 'cost unknown';
  return `$${cost < 0.01 ? cost.toFixed(5) : cost.toFixed(4)}`;
}

export class UsageMeter {
  private total: RunUsage = { inputTokens: 0, outputTokens: 0, llmCalls: 0 };

  constructor(private readonly pricing: ModelPricing | undefined) {}

  add(usage: TokenUsage): { call: TokenUsage & { costUsd?: number }; total: RunUsage } {
    const callCost = costOf(usage, this.pricing);
    const inputTokens = this.total.inputTokens + usage.inputTokens;
    const outputTokens = this.total.outputTokens + usage.outputTokens;
    const costUsd = costOf({ inputTokens, outputTokens }, this.pricing);
    this.total = {
      inputTokens,
      outputTokens,
      llmCalls: this.total.llmCalls + 1,
      ...(costUsd !== undefined ? { costUsd } : {}),
    };
    return {
      call: { ...usage, ...(callCost !== undefined ? { costUsd: callCost } : {}) },
      total: this.snapshot(),
    };
  }

  snapshot(): RunUsage {
    return { ...this.total };
  }
}
