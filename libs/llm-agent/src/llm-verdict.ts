import type { Verdict } from '@suite/browser-agent';

/**
 * What the run proved, so the verdict never rests on the model's word alone: `succeeded` only when
 * the model says so, an assertion held, none failed, and the last failed step was recovered from.
 */
export class RunEvidence {
  passed = 0;
  total = 0;
  /** Actions (not assertions) that passed. */
  acted = 0;
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
    } else if (error === undefined) this.acted++;
    this.unrecoveredError = error;
  }

  /**
   * The verdict on one step the model resolved for the interpreter (hybrid engine): the model said
   * it did it, no assertion failed, its last action worked, and it did something: a check needs an
   * assertion that held, any other step a tool call that ran.
   */
  stepVerdict(check: boolean, passedSaid: boolean, said: string): { verdict: Verdict; summary: string } {
    const summary = said.trim().replace(/[.\s]+$/, '');
    const failed = (text: string) => ({ verdict: 'failed' as const, summary: text });
    if (!passedSaid) return failed(`the model could not do it: ${summary}`);
    if (this.firstFailedAssertion)
      return failed(`the model said it was done, but an assertion failed: ${this.firstFailedAssertion}`);
    if (this.unrecoveredError)
      return failed(`the model said it was done, but its last action failed: ${this.unrecoveredError}`);
    if (check && this.passed === 0)
      return failed(
        `the model said the check held but made no assertion, so nothing was verified (model's summary: ${summary})`,
      );
    if (this.passed + this.acted === 0)
      return failed(`the model said it was done but took no action (model's summary: ${summary})`);
    return { verdict: 'succeeded', summary };
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
