import type { JobStepProgress } from '@suite/jobs';

const ENDED = new Set(['passed', 'failed', 'skipped']);

/**
 * Turns a job's agent-log entries into step progress: an entry `{ step, outcome: 'started' }`
 * starts a step, its `passed`/`failed`/`skipped` entry ends it (the fields every engine writes
 * through the step executor). `stepCount`, when an entry carries it, is how many steps there are.
 */
export class StepProgressTracker {
  private readonly started = new Map<number, { text: string; at: string }>();
  private count: number | null = null;

  observe(entry: Record<string, unknown>): JobStepProgress | undefined {
    if (typeof entry.stepCount === 'number') this.count = entry.stepCount;
    const index = entry.step;
    const outcome = entry.outcome;
    if (typeof index !== 'number' || typeof outcome !== 'string') return undefined;
    const at = typeof entry.time === 'string' ? entry.time : new Date().toISOString();
    const action = typeof entry.action === 'string' ? entry.action : 'step';
    if (outcome === 'started') {
      const text = typeof entry.message === 'string' ? entry.message : '';
      this.started.set(index, { text, at });
      return this.progress(index, action, text, 'started', at, null, null, null);
    }
    if (!ENDED.has(outcome)) return undefined;
    const begun = this.started.get(index);
    this.started.delete(index);
    const text = begun?.text ?? (typeof entry.message === 'string' ? entry.message : '');
    const durationMs = typeof entry.durationMs === 'number' ? entry.durationMs : null;
    const error = typeof entry.error === 'string' ? entry.error : null;
    return this.progress(
      index,
      action,
      text,
      outcome as JobStepProgress['status'],
      begun?.at ?? null,
      at,
      durationMs,
      error,
    );
  }

  private progress(
    index: number,
    action: string,
    text: string,
    status: JobStepProgress['status'],
    startedAt: string | null,
    finishedAt: string | null,
    durationMs: number | null,
    error: string | null,
  ): JobStepProgress {
    return { index, count: this.count, text, action, status, startedAt, finishedAt, durationMs, error };
  }
}
