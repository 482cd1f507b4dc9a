import { type RecordedVideo, type RunVideoOptions, withVideo } from '@suite/browser-agent';
import { type LlmRunResult, runLlmAgent, type RunLlmAgentOptions } from './llm-agent.js';

export interface LlmTestOptions extends RunLlmAgentOptions {
  /** Where to record the run; omit for no video. */
  video?: RunVideoOptions;
}

export interface LlmTestResult extends LlmRunResult {
  /** The capture ended with the final state; `video.finished` says when the file is complete. */
  video?: RecordedVideo;
}

/**
 * One natural-language test run by an LLM agent, shaped like browser-agent's `runInstructionTest`
 * so the worker can call either engine: record, run the loop, and always end the video's capture.
 */
export async function runLlmTest(options: LlmTestOptions): Promise<LlmTestResult> {
  const { video, ...rest } = options;
  return withVideo(options, video, () => runLlmAgent(rest));
}
