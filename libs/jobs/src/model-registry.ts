import { RunnerError, RunnerErrorCode } from '@suite/errors';

/** The built-in, offline, deterministic agent: plain English steps, no LLM. */
export const INTERPRETER_MODEL = 'instruction-interpreter';

export type ModelProvider = 'interpreter' | 'openai' | 'anthropic';

export interface ModelInfo {
  id: string;
  provider: ModelProvider;
  description: string;
  default: boolean;
}

export interface ModelRegistryOptions {
  /** DEFAULT_MODEL; wins over everything else. */
  defaultModel?: string | undefined;
  /** LLM models this deployment serves (from the configured providers). */
  llmModels?: readonly { name: string; provider: 'openai' | 'anthropic' }[];
  /** The default among the LLM models (LLM_DEFAULT_MODEL, else the first one). */
  llmDefaultModel?: string | undefined;
}

/**
 * Which models this deployment can run. Without an LLM provider only the interpreter is served and
 * is the default; asking for anything else is a 422 that says which variable would make it
 * available. With a provider, its models are served too and the default is a fast-tier LLM model.
 */
export class ModelRegistry {
  private readonly models = new Map<string, ModelInfo>();
  readonly defaultModel: string;
  /**
   * The LLM model that resolves the steps the interpreter cannot read (the hybrid engine): the LLM
   * default (LLM_DEFAULT_MODEL, else the first one), as the browser worker picks it; undefined
   * without a provider.
   */
  readonly gapModel: string | undefined;

  constructor(options: ModelRegistryOptions = {}) {
    this.models.set(INTERPRETER_MODEL, {
      id: INTERPRETER_MODEL,
      provider: 'interpreter',
      description:
        'Built-in instruction interpreter: runs plain English steps offline and deterministically.',
      default: false,
    });
    for (const model of options.llmModels ?? []) {
      this.models.set(model.name, {
        id: model.name,
        provider: model.provider,
        description: `LLM agent (${model.provider === 'openai' ? 'OpenAI-compatible API' : 'Anthropic API'}): observes the page and acts through tools; verdicts rest on deterministic assertions.`,
        default: false,
      });
    }
    const wanted =
      options.defaultModel || options.llmDefaultModel || options.llmModels?.[0]?.name || INTERPRETER_MODEL;
    if (!this.models.has(wanted)) {
      throw new Error(
        `DEFAULT_MODEL "${wanted}" is not served here; served: ${[...this.models.keys()].join(', ')}`,
      );
    }
    this.defaultModel = wanted;
    this.gapModel = options.llmDefaultModel || options.llmModels?.[0]?.name || undefined;
    this.models.get(wanted)!.default = true;
  }

  list(): ModelInfo[] {
    return [...this.models.values()];
  }

  /** The model a job runs with: the requested one when served, the default when none was asked. */
  resolve(requested: string | undefined): ModelInfo {
    const id = requested ?? this.defaultModel;
    const model = this.models.get(id);
    if (model) return model;
    throw new RunnerError(RunnerErrorCode.ModelUnavailable, unavailableReason(id, [...this.models.keys()]), {
      metadata: { model: id },
    });
  }
}

function unavailableReason(model: string, served: string[]): string {
  const hint = /^claude/i.test(model)
    ? 'set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a compatible gateway) to use Anthropic models'
    : 'set OPENAI_API_KEY (and OPENAI_BASE_URL for vLLM, Ollama or another compatible server) to use OpenAI-compatible models, or ANTHROPIC_API_KEY for Anthropic models';
  return `model '${model}' is not served by this deployment: ${hint}. Models served now: ${served.join(', ')}`;
}
