import { AnthropicProvider } from './anthropic-provider.js';
import type { LlmProvider } from './llm-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import type { ModelPricing } from './token-usage.js';

export type ProviderName = 'openai' | 'anthropic';

export interface LlmModel {
  /** The name a job's `model` uses and the provider is sent. */
  name: string;
  provider: ProviderName;
  pricing?: ModelPricing;
}

/** List prices (USD per million tokens) of the models served by default; others cost "unknown". */
export const KNOWN_PRICES: Readonly<Record<string, ModelPricing>> = {
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
};

/** Served when a provider is configured and LLM_MODELS is not set; the first one is the default. */
export const DEFAULT_MODELS: Readonly<Record<ProviderName, readonly string[]>> = {
  openai: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4o-mini'],
  // Not claude-sonnet-4-5: the installed SDK warns it reaches end-of-life on 2026-11-30.
  anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
};

export interface LlmEnv {
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  /** "gpt-4.1-mini=openai,claude-sonnet-4-6=anthropic,llama3.1=openai" */
  LLM_MODELS?: string;
  /** "llama3.1=0/0,gpt-4.1-mini=0.4/1.6" (USD per million input/output tokens) */
  LLM_MODEL_PRICES?: string;
  /** Which served model is the default; the first one when unset. */
  LLM_DEFAULT_MODEL?: string;
}

export class ModelRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelRegistryError';
  }
}

/**
 * Which LLM models this deployment can run and how to reach each. A provider counts as configured
 * when its API key is set (or, for OpenAI-compatible servers that need no key, its base URL).
 */
export class LlmModelRegistry {
  private readonly byName: ReadonlyMap<string, LlmModel>;
  private readonly providers = new Map<ProviderName, LlmProvider>();

  private constructor(
    readonly models: readonly LlmModel[],
    readonly defaultModel: string | undefined,
    private readonly env: LlmEnv,
  ) {
    this.byName = new Map(models.map((m) => [m.name, m]));
  }

  /** Validates the env once; a bad value throws a message that names the variable. */
  static fromEnv(env: LlmEnv = process.env as LlmEnv): LlmModelRegistry {
    const configured = configuredProviders(env);
    const prices = { ...KNOWN_PRICES, ...parsePrices(env.LLM_MODEL_PRICES) };
    let entries: Array<{ name: string; provider: ProviderName }>;
    if (env.LLM_MODELS?.trim()) {
      entries = parseModelList(env.LLM_MODELS);
      for (const entry of entries) {
        if (!configured.has(entry.provider)) {
          const key =
            entry.provider === 'openai' ? 'OPENAI_API_KEY (or OPENAI_BASE_URL)' : 'ANTHROPIC_API_KEY';
          throw new ModelRegistryError(
            `LLM_MODELS lists "${entry.name}=${entry.provider}", but ${key} is not set`,
          );
        }
      }
    } else {
      entries = [...configured].flatMap((provider) =>
        DEFAULT_MODELS[provider].map((name) => ({ name, provider })),
      );
    }
    const models = entries.map((e) => ({ ...e, ...(prices[e.name] ? { pricing: prices[e.name] } : {}) }));
    const wanted = env.LLM_DEFAULT_MODEL?.trim();
    if (wanted && !models.some((m) => m.name === wanted))
      throw new ModelRegistryError(`LLM_DEFAULT_MODEL "${wanted}" is not one of the served models`);
    return new LlmModelRegistry(models, wanted || models[0]?.name, env);
  }

  get(name: string): LlmModel | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** One client per provider, made on first use. */
  providerFor(name: string): LlmProvider {
    const model = this.byName.get(name);
    if (!model) throw new ModelRegistryError(`the model "${name}" is not served here`);
    let provider = this.providers.get(model.provider);
    if (!provider) {
      provider = createProvider(model.provider, this.env);
      this.providers.set(model.provider, provider);
    }
    return provider;
  }
}

function configuredProviders(env: LlmEnv): Set<ProviderName> {
  const out = new Set<ProviderName>();
  if (env.OPENAI_API_KEY?.trim() || env.OPENAI_BASE_URL?.trim()) out.add('openai');
  if (env.ANTHROPIC_API_KEY?.trim()) out.add('anthropic');
  return out;
}

export function createProvider(provider: ProviderName, env: LlmEnv): LlmProvider {
  if (provider === 'openai') {
    return new OpenAiProvider({
      // Local OpenAI-compatible servers (Ollama, llama.cpp) accept any key.
      apiKey: env.OPENAI_API_KEY?.trim() || 'not-needed',
      ...(env.OPENAI_BASE_URL?.trim() ? { baseURL: env.OPENAI_BASE_URL.trim() } : {}),
    });
  }
  return new AnthropicProvider({
    apiKey: env.ANTHROPIC_API_KEY?.trim() ?? '',
    ...(env.ANTHROPIC_BASE_URL?.trim() ? { baseURL: env.ANTHROPIC_BASE_URL.trim() } : {}),
  });
}

export function parseModelList(spec: string): Array<{ name: string; provider: ProviderName }> {
  const out: Array<{ name: string; provider: ProviderName }> = [];
  for (const item of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = item.lastIndexOf('=');
    const name = at > 0 ? item.slice(0, at).trim() : '';
    const provider =
      at > 0
        ? item
            .slice(at + 1)
            .trim()
            .toLowerCase()
        : '';
    if (!name || (provider !== 'openai' && provider !== 'anthropic'))
      throw new ModelRegistryError(
        `LLM_MODELS entry "${item}" must be NAME=openai or NAME=anthropic, e.g. gpt-4.1-mini=openai`,
      );
    if (out.some((e) => e.name === name)) throw new ModelRegistryError(`LLM_MODELS lists "${name}" twice`);
    out.push({ name, provider });
  }
  return out;
}

export function parsePrices(spec: string | undefined): Record<string, ModelPricing> {
  const out: Record<string, ModelPricing> = {};
  for (const item of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(item);
    if (!match?.[1] || !match[2] || !match[3])
      throw new ModelRegistryError(
        `LLM_MODEL_PRICES entry "${item}" must be NAME=INPUT/OUTPUT in USD per million tokens, e.g. gpt-4.1-mini=0.4/1.6`,
      );
    out[match[1].trim()] = { inputPerMTok: Number(match[2]), outputPerMTok: Number(match[3]) };
  }
  return out;
}
