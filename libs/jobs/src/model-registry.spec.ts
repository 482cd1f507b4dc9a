import { describe, expect, it } from '@jest/globals';
import { INTERPRETER_MODEL, ModelRegistry } from './model-registry.js';

describe('ModelRegistry', () => {
  it('serves only the interpreter, as the default, when no LLM provider is configured', () => {
    const registry = new ModelRegistry();
    expect(registry.list().map((m) => [m.id, m.default])).toEqual([[INTERPRETER_MODEL, true]]);
    expect(registry.resolve(undefined).id).toBe(INTERPRETER_MODEL);
  });

  it('refuses an unserved model naming the variable that would serve it', () => {
    const registry = new ModelRegistry();
    expect(() => registry.resolve('gpt-4.1-mini')).toThrow(/set OPENAI_API_KEY/);
    expect(() => registry.resolve('claude-haiku-4-5')).toThrow(/set ANTHROPIC_API_KEY/);
  });

  it('serves configured LLM models and makes a fast-tier one the default', () => {
    const registry = new ModelRegistry({
      llmModels: [
        { name: 'gpt-4.1-mini', provider: 'openai' },
        { name: 'claude-haiku-4-5', provider: 'anthropic' },
      ],
    });
    expect(registry.resolve(undefined).id).toBe('gpt-4.1-mini');
    expect(registry.resolve('claude-haiku-4-5').provider).toBe('anthropic');
    expect(registry.resolve(INTERPRETER_MODEL).provider).toBe('interpreter');
  });

  it('lets DEFAULT_MODEL and LLM_DEFAULT_MODEL choose, and refuses a default it does not serve', () => {
    const llmModels = [{ name: 'gpt-4.1-mini', provider: 'openai' as const }];
    expect(new ModelRegistry({ llmModels, defaultModel: INTERPRETER_MODEL }).defaultModel).toBe(
      INTERPRETER_MODEL,
    );
    expect(new ModelRegistry({ llmModels, llmDefaultModel: 'gpt-4.1-mini' }).defaultModel).toBe(
      'gpt-4.1-mini',
    );
    expect(() => new ModelRegistry({ defaultModel: 'nope' })).toThrow(/DEFAULT_MODEL "nope" is not served/);
  });
});
