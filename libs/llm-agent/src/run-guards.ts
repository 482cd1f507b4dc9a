import { createHash } from 'node:crypto';
import type { RunStoppedError } from '@suite/browser-agent';
import type { LlmRunLimits } from './llm-limits.js';
import type { PageSnapshot } from './page-snapshot.js';

/** Why the loop stopped. */
export type LlmEndReason =
  | 'done'
  | 'step limit'
  | 'job time limit'
  | 'consecutive errors'
  | 'repeated action'
  | 'provider error'
  /** Something unexpected (the page or browser went away). */
  | 'agent error'
  | 'llm call timeout'
  | 'cancelled'
  | 'start page';

/** Ends the loop; `message` becomes the run's summary. */
export class RunEnded extends Error {
  constructor(
    readonly reason: LlmEndReason,
    message: string,
  ) {
    super(message);
  }

  /** The run was stopped from outside (wall clock, cancel), as the executor reports it. */
  static stopped(stop: RunStoppedError): RunEnded {
    return new RunEnded(stop.kind, stop.sentence);
  }
}

/**
 * The agent loop's own limits, beyond the browser's (those are the step executor's): failed tool
 * calls in a row and the very same call on an unchanged page. Each throws `RunEnded` when reached.
 */
export class RunGuards {
  private consecutiveErrors = 0;
  private lastCallKey = '';
  private repeats = 0;

  constructor(private readonly limits: LlmRunLimits) {}

  /** A tool call or turn that failed; throws once too many failed in a row. */
  failed(message: string): void {
    this.consecutiveErrors++;
    if (this.consecutiveErrors >= this.limits.maxConsecutiveErrors) {
      throw new RunEnded(
        'consecutive errors',
        `The agent stopped after ${this.consecutiveErrors} failed tool calls in a row (limit ${this.limits.maxConsecutiveErrors}); the last one: ${message}.`,
      );
    }
  }

  succeeded(): void {
    this.consecutiveErrors = 0;
  }

  /**
   * The same call on an unchanged page is a loop; the same call that keeps changing the page
   * ("Next" through a carousel) is not.
   */
  checkRepeat(call: { name: string; arguments?: unknown }, url: string, snapshot?: PageSnapshot): void {
    const key = `${call.name} ${JSON.stringify(call.arguments)} @ ${url} # ${pageFingerprint(snapshot)}`;
    this.repeats = key === this.lastCallKey ? this.repeats + 1 : 1;
    this.lastCallKey = key;
    if (this.repeats > this.limits.maxRepeatedActions) {
      throw new RunEnded(
        'repeated action',
        `The agent repeated the same action (${call.name} ${cut(JSON.stringify(call.arguments), 120)}) ${this.repeats} times in a row on an unchanged page (limit ${this.limits.maxRepeatedActions}).`,
      );
    }
  }

  stepLimit(): RunEnded {
    return new RunEnded(
      'step limit',
      `The agent did not finish within ${this.limits.maxSteps} steps (step limit of ${this.limits.maxSteps}).`,
    );
  }
}

function pageFingerprint(snapshot: PageSnapshot | undefined): string {
  if (!snapshot) return '';
  return createHash('sha1')
    .update(`${snapshot.url}\n${snapshot.title}\n${snapshot.outline.join('\n')}\n${snapshot.text}`)
    .digest('base64');
}

/** One line of at most `max` characters, for log lines and summaries. */
export function cut(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
