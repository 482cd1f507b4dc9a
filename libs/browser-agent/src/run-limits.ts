export interface RunLimits {
  /** Opening a URL, going back/forward, reloading, and navigations started by a click or a key. */
  navigationTimeoutMs: number;
  /** Finding an element and acting on it (it must exist, be visible, enabled and not covered). */
  actionTimeoutMs: number;
  /** How long an assertion keeps retrying before it fails ("wait until …" uses the action timeout). */
  assertionTimeoutMs: number;
  /** Wall-clock limit for the whole run. */
  jobTimeoutMs: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  navigationTimeoutMs: 30_000,
  actionTimeoutMs: 10_000,
  assertionTimeoutMs: 5_000,
  jobTimeoutMs: 5 * 60_000,
};

export type LimitName =
  | 'navigation timeout'
  | 'action timeout'
  | 'assertion timeout'
  | 'job time limit'
  /** A step's own budget (its timeouts plus slack); only a hung browser call reaches it. */
  | 'step time limit';

/** A step failed because a limit ran out; the message names the limit and its value. */
export class LimitExceededError extends Error {
  constructor(
    readonly limit: LimitName,
    readonly limitMs: number,
    detail: string,
  ) {
    super(`${detail} (${limit} of ${limitMs} ms)`);
    this.name = 'LimitExceededError';
  }
}

/** A step failed for a reason a person can act on; the message is shown as is. */
export class StepFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepFailedError';
  }
}

/** The element a step was about to act on left the page (a re-render replaced it): find it again. */
export class DetachedElementError extends StepFailedError {
  constructor(describe: string) {
    super(`${describe} was removed from the page while the step acted on it`);
    this.name = 'DetachedElementError';
  }
}

export function resolveLimits(limits: Partial<RunLimits> | undefined): RunLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}
