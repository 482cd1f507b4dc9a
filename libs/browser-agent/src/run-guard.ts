import { LimitExceededError } from './run-limits.js';

/** Why a run was stopped from outside its steps. */
export type RunStopKind = 'job time limit' | 'cancelled';

/** The reason a stopped run's current step fails with; the message is shown as is. */
export class RunStoppedError extends Error {
  constructor(
    readonly kind: RunStopKind,
    message: string,
  ) {
    super(message);
    this.name = 'RunStoppedError';
  }

  /** The message as a sentence, for a run's summary. */
  get sentence(): string {
    const text = `${this.message.charAt(0).toUpperCase()}${this.message.slice(1)}`;
    return text.endsWith('.') ? text : `${text}.`;
  }
}

/**
 * The run's wall clock and the caller's cancellation, as one signal both engines hand to every
 * step: when it aborts, its reason is always a `RunStoppedError`.
 */
export class RunGuard {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onExternalAbort = () => this.stop(fromCaller(this.external?.reason));

  constructor(
    jobTimeoutMs: number,
    private readonly external?: AbortSignal,
  ) {
    this.timer = setTimeout(
      () =>
        this.stop(
          new RunStoppedError(
            'job time limit',
            new LimitExceededError(
              'job time limit',
              jobTimeoutMs,
              'the run was stopped because it took too long',
            ).message,
          ),
        ),
      jobTimeoutMs,
    );
    if (external?.aborted) this.onExternalAbort();
    else external?.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run was stopped, once it was. */
  get stopped(): RunStoppedError | undefined {
    return this.controller.signal.aborted ? (this.controller.signal.reason as RunStoppedError) : undefined;
  }

  /** Stops listening; call once the run is over. */
  release(): void {
    clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }

  private stop(reason: RunStoppedError): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}

/**
 * The caller's abort reason: `AbortSignal.timeout()` is its wall clock, a plain `abort()` a
 * cancellation, and an Error of its own (the worker's "time limit reached") is shown as it is.
 * By name, not instanceof: the DOMException may come from another realm.
 */
function fromCaller(reason: unknown): RunStoppedError {
  const name = (reason as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError')
    return new RunStoppedError('job time limit', "the run was stopped by the caller's time limit");
  if (reason instanceof Error && name !== 'AbortError')
    return new RunStoppedError('cancelled', reason.message);
  return new RunStoppedError('cancelled', 'the run was cancelled');
}
