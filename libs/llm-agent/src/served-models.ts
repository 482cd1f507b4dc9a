import { LlmModelRegistry, ModelRegistryError, type LlmEnv } from './llm-model-registry.js';

/**
 * The LLM models a process serves, read once at boot. A bad setting is reported as
 * `{ problem }` naming the variable, so the caller can stop with a readable message.
 */
export function servedLlmModels(env: LlmEnv): { registry: LlmModelRegistry } | { problem: string } {
  try {
    return { registry: LlmModelRegistry.fromEnv(env) };
  } catch (error) {
    if (error instanceof ModelRegistryError) return { problem: error.message };
    throw error;
  }
}
