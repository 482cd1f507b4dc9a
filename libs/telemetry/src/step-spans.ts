import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { jobSteps } from './metrics.js';

/** The fields of a structured agent-log entry that describe a step (see @suite/browser-agent). */
export interface StepLogEntry {
  step?: unknown;
  action?: unknown;
  outcome?: unknown;
  /** ISO timestamp of the entry; spans start and end at the agent's own clock. */
  time?: unknown;
}

const FINAL = new Set(['passed', 'failed', 'skipped']);

/**
 * Turns a job's step log into child spans of the active span (the job span) and counts step
 * outcomes in `suite_job_steps_total`: an entry `{ step, outcome: 'started' }` opens the step's span,
 * the step's `passed`/`failed`/`skipped` entry closes it. Returns the observer to call per entry.
 * Spans left open when the run ends are closed by `end()`.
 */
export function traceSteps(): { observe: (entry: StepLogEntry) => void; end: () => void } {
  const parent = context.active();
  const tracer = trace.getTracer('suite');
  const open = new Map<number, Span>();
  const at = (time: unknown): Date => (typeof time === 'string' ? new Date(time) : new Date());
  return {
    observe(entry) {
      if (typeof entry.step !== 'number' || typeof entry.outcome !== 'string') return;
      const action = typeof entry.action === 'string' ? entry.action : 'step';
      if (entry.outcome === 'started') {
        open.get(entry.step)?.end();
        open.set(
          entry.step,
          tracer.startSpan(
            `browser-step ${action}`,
            { startTime: at(entry.time), attributes: { 'step.index': entry.step, 'step.action': action } },
            parent,
          ),
        );
        return;
      }
      if (!FINAL.has(entry.outcome)) return;
      jobSteps.inc({ outcome: entry.outcome });
      // A skipped step never started: it still gets a (zero-length) span so the trace shows it.
      const span =
        open.get(entry.step) ??
        tracer.startSpan(
          `browser-step ${action}`,
          { startTime: at(entry.time), attributes: { 'step.index': entry.step, 'step.action': action } },
          parent,
        );
      open.delete(entry.step);
      span.setAttribute('step.outcome', entry.outcome);
      if (entry.outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(at(entry.time));
    },
    end() {
      for (const span of open.values()) span.end();
      open.clear();
    },
  };
}
