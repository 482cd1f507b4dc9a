import {
  type InstructionTestOptions,
  type InstructionTestResult,
  interpretQuery,
  runInstructionTest,
  runInterpreter,
  runRecorded,
} from '@suite/browser-agent';
import type { LlmRunLimits } from './llm-limits.js';
import type { LlmProvider } from './llm-provider.js';
import { ModelStepResolver, type StoredStepResolution } from './step-resolver.js';
import type { ModelPricing, RunUsage } from './token-usage.js';
import { formatUsd } from './token-usage.js';

export interface HybridTestOptions extends Omit<InstructionTestOptions, 'limits'> {
  limits?: Partial<LlmRunLimits>;
  provider: LlmProvider;
  /** The served model that fills the gaps. */
  model: string;
  pricing?: ModelPricing;
  /** name → value (`metadata.secrets`): typed into the page, placeholders for the model. */
  secrets?: Readonly<Record<string, string>>;
  /** Resolutions stored by earlier runs of the same test. */
  stored?: readonly StoredStepResolution[];
}

export interface HybridTestResult extends InstructionTestResult {
  /** Model calls this run made (0 when every step was interpreted or replayed). */
  usage: RunUsage;
  /** Steps resolved or healed by the model in this run, to store with the test. */
  resolved: StoredStepResolution[];
}

/**
 * One natural-language test run by the hybrid engine: the interpreter runs every step it reads and
 * resolves; a step it cannot read, or whose target it cannot find, goes to the model for that step
 * only (or replays what the model did for it in an earlier run), then the interpreter goes on.
 * Queries over the interpreter's limits, or without steps, are rejected as `runInstructionTest` does.
 */
export async function runHybridTest(options: HybridTestOptions): Promise<HybridTestResult> {
  const { log } = options;
  const noUsage: RunUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  const interpreted = interpretQuery(options.query);
  if (!interpreted.ok && (interpreted.limit || interpreted.steps.length + interpreted.unknown.length === 0)) {
    const rejected = await runInstructionTest(options);
    return { ...rejected, usage: noUsage, resolved: [] };
  }
  const { steps } = interpreted;
  const unknown = interpreted.ok ? [] : interpreted.unknown;
  const resolver = new ModelStepResolver({
    page: options.page,
    query: options.query,
    log,
    provider: options.provider,
    model: options.model,
    ...(options.pricing ? { pricing: options.pricing } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
    ...(options.stored ? { stored: options.stored } : {}),
  });
  const storedCount = options.stored?.length ?? 0;
  log.info(
    `parsed ${steps.length} of ${steps.length + unknown.length} steps; ${options.provider.name} model ${options.model} resolves only the steps the interpreter cannot read or find a target for` +
      (storedCount > 0
        ? `; ${storedCount} ${storedCount === 1 ? 'step has' : 'steps have'} a stored resolution, replayed without the model`
        : ''),
  );
  const result = await runRecorded(options, () =>
    runInterpreter({
      page: options.page,
      steps,
      unknown,
      log,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.highlightMouse !== undefined ? { highlightMouse: options.highlightMouse } : {}),
      ...(options.initialUrl ? { initialUrl: options.initialUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      secretValues: [...(options.secretValues ?? []), ...Object.values(options.secrets ?? {})],
      ...(options.secrets ? { secrets: options.secrets } : {}),
      resolveStep: resolver.resolve,
      resolvesFirst: resolver.resolvesFirst,
    }),
  );
  const usage = resolver.usage;
  log.info(
    `hybrid: ${usage.llmCalls} model ${usage.llmCalls === 1 ? 'call' : 'calls'}, ${usage.inputTokens} input + ${usage.outputTokens} output tokens, estimated ${formatUsd(usage.costUsd)}`,
  );
  await log.flush();
  return { ...result, usage, resolved: resolver.resolved };
}
