import { type RecordedRun, type RecordingOptions, runRecorded } from '@suite/browser-agent';
import { type LlmRunResult, runLlmAgent, type RunLlmAgentOptions } from './llm-agent.js';

export type LlmTestOptions = RunLlmAgentOptions & RecordingOptions;

export type LlmTestResult = LlmRunResult & RecordedRun;

/**
 * One natural-language test run by an LLM agent, shaped like browser-agent's `runInstructionTest`
 * so the worker can call either engine: record, run the loop, and always end the video's capture.
 */
export async function runLlmTest(options: LlmTestOptions): Promise<LlmTestResult> {
  return runRecorded(options, () => runLlmAgent(options));
}
