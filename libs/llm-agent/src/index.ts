export { AGENT_TOOLS, planToolCall, type ToolPlan } from './agent-tools.js';
export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';
export {
  type LlmEndReason,
  type LlmRunResult,
  type RecordedAction,
  type ResumeFrom,
  runLlmAgent,
  type StepTask,
  type RunLlmAgentOptions,
} from './llm-agent.js';
export { DEFAULT_LLM_LIMITS, type LlmRunLimits, resolveLlmLimits } from './llm-limits.js';
export {
  classifyProviderError,
  type LlmMessage,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  ProviderError,
  type ProviderErrorKind,
  type TokenUsage,
  type ToolCall,
  type ToolDefinition,
  type ToolResult,
} from './llm-provider.js';
export { type LlmTestOptions, type LlmTestResult, runLlmTest } from './llm-test-runner.js';
export { type HybridTestOptions, type HybridTestResult, runHybridTest } from './hybrid-test-runner.js';
export {
  createProvider,
  DEFAULT_MODELS,
  KNOWN_PRICES,
  type LlmEnv,
  type LlmModel,
  LlmModelRegistry,
  ModelRegistryError,
  type ProviderName,
} from './llm-model-registry.js';
export { OpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export { formatSnapshot, type PageSnapshot, REF_ATTRIBUTE, takeSnapshot } from './page-snapshot.js';
export { instructionFor } from './instruction-lines.js';
export {
  type HealingReplayOptions,
  type HealingReplayResult,
  replayLlmScript,
  type ReplayOptions,
  type ReplayReport,
  runHealingReplay,
} from './script-replay.js';
/** Moved to `@suite/browser-agent`; re-exported while the apps still import them from here. */
export {
  exportBlocker,
  exportTestScript,
  jsString,
  SecretValues,
  secretEnvName,
  secretsFromMetadata,
  TEST_SCRIPT_FORMATS,
  type TestScriptFormat,
  type TestScriptOptions,
} from '@suite/browser-agent';
export { costOf, type ModelPricing, type RunUsage } from './token-usage.js';
export {
  ModelStepResolver,
  type ModelStepResolverOptions,
  type ResolvedStepResult,
  type StoredStepResolution,
} from './step-resolver.js';
export { servedLlmModels } from './served-models.js';
