import { describe, expect, it } from '@jest/globals';
import { AnthropicProvider } from './anthropic-provider.js';
import { LlmModelRegistry, ModelRegistryError } from './llm-model-registry.js';
import { OpenAiProvider } from './openai-provider.js';

describe('LlmModelRegistry', () => {
  it('serves nothing when no provider is configured', () => {
    const registry = LlmModelRegistry.fromEnv({});
    expect(registry.models).toEqual([]);
    expect(registry.defaultModel).toBeUndefined();
  });

  it('serves default models with prices for each provider whose key is set', () => {
    const registry = LlmModelRegistry.fromEnv({ OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'sk-ant-1' });
    expect(registry.models.map((m) => `${m.name}=${m.provider}`)).toEqual([
      'gpt-4.1-mini=openai',
      'gpt-4.1=openai',
      'gpt-4o-mini=openai',
      'claude-sonnet-4-6=anthropic',
      'claude-haiku-4-5=anthropic',
    ]);
    expect(registry.defaultModel).toBe('gpt-4.1-mini');
    expect(registry.get('claude-haiku-4-5')?.pricing).toEqual({ inputPerMTok: 1, outputPerMTok: 5 });
    expect(registry.providerFor('gpt-4.1')).toBeInstanceOf(OpenAiProvider);
    expect(registry.providerFor('claude-haiku-4-5')).toBeInstanceOf(AnthropicProvider);
    expect(registry.providerFor('gpt-4.1')).toBe(registry.providerFor('gpt-4o-mini'));
  });

  it('takes the served models, their prices and the default from LLM_MODELS and friends', () => {
    const registry = LlmModelRegistry.fromEnv({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_MODELS: ' llama3.1:8b=openai , gpt-4.1-mini=openai',
      LLM_MODEL_PRICES: 'llama3.1:8b=0/0',
      LLM_DEFAULT_MODEL: 'llama3.1:8b',
    });
    expect(registry.models).toEqual([
      { name: 'llama3.1:8b', provider: 'openai', pricing: { inputPerMTok: 0, outputPerMTok: 0 } },
      { name: 'gpt-4.1-mini', provider: 'openai', pricing: { inputPerMTok: 0.4, outputPerMTok: 1.6 } },
    ]);
    expect(registry.defaultModel).toBe('llama3.1:8b');
    expect(registry.has('gpt-4.1')).toBe(false);
  });

  it('rejects a bad configuration with a message that names the variable', () => {
    expect(() => LlmModelRegistry.fromEnv({ LLM_MODELS: 'claude-haiku-4-5=anthropic' })).toThrow(
      new ModelRegistryError(
        'LLM_MODELS lists "claude-haiku-4-5=anthropic", but ANTHROPIC_API_KEY is not set',
      ),
    );
    expect(() => LlmModelRegistry.fromEnv({ OPENAI_API_KEY: 'k', LLM_MODELS: 'gpt-4.1-mini' })).toThrow(
      /LLM_MODELS entry "gpt-4.1-mini" must be NAME=openai or NAME=anthropic/,
    );
    expect(() => LlmModelRegistry.fromEnv({ OPENAI_API_KEY: 'k', LLM_MODEL_PRICES: 'x=cheap' })).toThrow(
      /LLM_MODEL_PRICES entry "x=cheap" must be NAME=INPUT\/OUTPUT/,
    );
    expect(() => LlmModelRegistry.fromEnv({ OPENAI_API_KEY: 'k', LLM_DEFAULT_MODEL: 'gpt-5' })).toThrow(
      'LLM_DEFAULT_MODEL "gpt-5" is not one of the served models',
    );
  });
});
