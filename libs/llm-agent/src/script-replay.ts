import {
  type InstructionTestOptions,
  type InstructionTestResult,
  runInstructionTest,
} from '@suite/browser-agent';
import { SecretValues } from './secret-values.js';

export interface ReplayOptions extends Omit<InstructionTestOptions, 'query'> {
  /** `LlmRunResult.script` of a passed run. */
  script: string;
  secrets?: Readonly<Record<string, string>>;
}

/**
 * Replays a passed LLM run with the built-in interpreter: no model, no cost, same assertions.
 * Secrets are filled in from their placeholders and masked in the log like the agent does.
 */
export async function replayLlmScript(options: ReplayOptions): Promise<InstructionTestResult> {
  const { script, secrets: values, ...rest } = options;
  const secrets = new SecretValues(values);
  for (const value of secrets.values) options.log.addSecret(value);
  return runInstructionTest({ ...rest, query: secrets.reveal(script) });
}
