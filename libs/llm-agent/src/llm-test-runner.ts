import {
  type AgentLog,
  VideoRecorder,
  type VideoRecorderOptions,
  type VideoResult,
} from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { type LlmRunResult, runLlmAgent, type RunLlmAgentOptions } from './llm-agent.js';

export interface LlmTestOptions extends RunLlmAgentOptions {
  /** Where to record the run; omit for no video. */
  video?: Omit<VideoRecorderOptions, 'highlightMouse'>;
}

export interface LlmTestResult extends LlmRunResult {
  video?: VideoResult;
}

/**
 * One natural-language test run by an LLM agent, shaped like browser-agent's `runInstructionTest`
 * so the worker can call either engine: record, run the loop, and always finalise the video.
 */
export async function runLlmTest(options: LlmTestOptions): Promise<LlmTestResult> {
  const { video, ...rest } = options;
  return withVideo(options, video, () => runLlmAgent(rest));
}

/** Records `work` on `options.page` when a video was asked for, and always finalises the file. */
export async function withVideo<T extends object>(
  options: { page: Page; log: AgentLog; highlightMouse?: boolean },
  videoOptions: LlmTestOptions['video'],
  work: () => Promise<T>,
): Promise<T & { video?: VideoResult }> {
  const { log } = options;
  const recorder = videoOptions
    ? new VideoRecorder({ ...videoOptions, highlightMouse: options.highlightMouse ?? false })
    : undefined;
  await recorder?.start(options.page);
  let result: T | undefined;
  let video: VideoResult | undefined;
  try {
    result = await work();
  } finally {
    video = await recorder?.stop();
    if (video) {
      if (video.ok)
        log.info(`recorded ${Math.round(video.durationMs / 100) / 10} s of video to ${video.path}`);
      else
        log.write({
          outcome: 'info',
          level: 'warn',
          message: 'the video could not be recorded',
          error: video.error,
        });
    }
    await log.flush();
  }
  return { ...result, ...(video ? { video } : {}) };
}
