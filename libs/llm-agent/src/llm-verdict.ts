import type { Verdict } from '@suite/browser-agent';

/**
 * What the run proved, so the verdict never rests on the model's word alone: `succeeded` only when
 * the model says so, an assertion held, none failed, and the last failed step was recovered from.
 */
export class RunEvidence {
  passed = 0;
  total = 0;
  private firstFailedAssertion: string | undefined;
  private unrecoveredError: string | undefined;

  /** Assertions that already held in a replay this run continues. */
  constructor(assertionsPassed = 0) {
    this.passed = assertionsPassed;
    this.total = assertionsPassed;
  }

  /** One step's outcome; `error` is set when it failed. */
  step(isAssertion: boolean, error: string | undefined): void {
    if (isAssertion) {
      this.total++;
      if (error === undefined) this.passed++;
      else this.firstFailedAssertion ??= error;
    }
    this.unrecoveredError = error;
  }

  /** The verdict when the model called done(passed, summary); `said` is already free of secrets. */
  verdict(passedSaid: boolean, said: string): { verdict: Verdict; summary: string } {
    const summary = said.trim().replace(/[.\s]+$/, '');
    const failed = (text: string) => ({ verdict: 'failed' as const, summary: text });
    if (!passedSaid) return failed(`The agent reported the test failed: ${summary}.`);
    if (this.firstFailedAssertion) {
      const count = this.total - this.passed;
      return failed(
        `The agent said the test passed, but ${count} ${count === 1 ? 'assertion' : 'assertions'} failed: ${this.firstFailedAssertion}. Agent's summary: ${summary}.`,
      );
    }
    if (this.unrecoveredError) {
      return failed(
        `The agent said the test passed, but its last action failed: ${this.unrecoveredError}. Agent's summary: ${summary}.`,
      );
    }
    if (this.passed === 0) {
      return failed(
        `The agent said the test passed but made no assertion, so nothing was verified. Agent's summary: ${summary}.`,
      );
    }
    const held = `${this.passed} ${this.passed === 1 ? 'assertion' : 'assertions'} held`;
    return { verdict: 'succeeded', summary: `${summary} (${held}).` };
  }
}
