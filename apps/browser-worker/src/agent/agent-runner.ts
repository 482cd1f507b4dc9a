import type { JobStepDto } from '@suite/contracts';
import type { BrowserSession, RecordedVideo, RunOutcome } from '@suite/browser-agent';
import type { MainDb } from '@suite/db';

/** What the worker hands an agent, and what it gets back. Engines (interpreter, LLM) implement it. */
export interface AgentRunContext {
  job: MainDb.Job;
  /** Appends one structured log entry (NDJSON line) and publishes progress. */
  log: (entry: Record<string, unknown>) => Promise<void>;
  /** Where the video goes; the agent records only when it opened a browser. */
  videoPath: string;
  /** Aborted when the job's wall clock runs out or the worker shuts down hard. */
  signal: AbortSignal;
  onStep?: (step: JobStepDto) => void;
}

export interface AgentRunResult {
  /** How the run ended; the job's status, summary and error follow from it (`finishedRunOf`). */
  outcome: RunOutcome;
  steps: JobStepDto[];
  /**
   * Whether a video was written: false when none was captured, else a promise the encoder
   * settles once the file is complete (true) or could not be (false). The job ends without
   * waiting for it; its video link follows the promise (see JobRunService).
   */
  videoWritten: boolean | Promise<boolean>;
  /** The page as a failed run left it (PNG, secrets masked); the worker stores it like the video. */
  screenshot?: Buffer;
}

export interface AgentRunner {
  run(context: AgentRunContext): Promise<AgentRunResult>;
}

export const AGENT_RUNNER = Symbol('AGENT_RUNNER');

/** Thrown for failures of the machinery (browser crashed, disk full), not of the test: retried. */
export class InfrastructureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InfrastructureError';
  }
}

/** The run's video as the worker tracks it: nothing captured, or the file being finished. */
export function videoOutcome(video: RecordedVideo | undefined): false | Promise<boolean> {
  return video?.captured ? video.finished.then((finished) => finished.ok) : false;
}

/**
 * Closes a job's browser context once the recorder has let go of its page: the browser's own
 * recorder takes a still of the final state and collects its file just after the run, and the job
 * does not wait for that.
 */
export async function closeAfterRecording(
  session: BrowserSession,
  video: RecordedVideo | undefined,
): Promise<void> {
  if (!video) return session.close();
  void video.released.then(() => session.close());
}
