import { createParser } from 'eventsource-parser';
import { CliError, EXIT_USAGE } from '../cli/cli-error.js';
import {
  isFinal,
  type CreateJobRequest,
  type InstructionCheck,
  type JobRecord,
  type StepEvent,
} from './job-types.js';
import type { SuiteBody, SuiteRecord, SuiteRunRecord } from './suite-types.js';

/** A request the runner refused for this test alone (422 and the like): the test fails with it. */
export class RunnerRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The runner's answer as JSON (a 422's `detail`), when it sent one. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'RunnerRequestError';
  }
}

export interface FollowHandlers {
  onJob?: (job: JobRecord) => void;
  onStep?: (step: StepEvent) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The runner's `/v1` API as this command uses it. Authentication and connection failures are
 * CliErrors (exit 2, the whole run stops); anything else a test's own failure.
 */
export class RunnerClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly key: string,
    private readonly requestTimeoutMs = 30_000,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Where a person opens the job: the runner's job page (asks for the key once). */
  jobPage(id: string): string {
    return `${this.baseUrl}/jobs/${id}`;
  }

  absolute(link: string): string {
    return new URL(link, `${this.baseUrl}/`).toString();
  }

  /** Queues a job; waits as the runner says (429 + Retry-After) while the owner's queue is full. */
  async submit(body: CreateJobRequest, signal?: AbortSignal): Promise<JobRecord> {
    for (;;) {
      // Not aborted by Ctrl-C mid-request: a job the runner queued must come back, to be cancelled.
      const res = await this.fetch('/v1/jobs', { method: 'POST', body: JSON.stringify(body) });
      if (res.status === 429) {
        const wait = Number(res.headers.get('retry-after') ?? '5');
        await res.body?.cancel();
        await sleep((Number.isFinite(wait) && wait > 0 ? wait : 5) * 1_000, signal);
        if (signal?.aborted) throw new RunnerRequestError(0, 'interrupted before it was queued');
        continue;
      }
      return (await this.json(res)) as JobRecord;
    }
  }

  async check(body: CreateJobRequest): Promise<InstructionCheck> {
    const res = await this.fetch('/v1/instructions/check', { method: 'POST', body: JSON.stringify(body) });
    return (await this.json(res)) as InstructionCheck;
  }

  async get(id: string): Promise<JobRecord> {
    return (await this.json(await this.fetch(`/v1/jobs/${id}`))) as JobRecord;
  }

  /** DELETE: cancels a queued job; a running one is left to finish (the runner never force-kills). */
  async cancel(id: string): Promise<{ cancelled: boolean; status: string }> {
    return (await this.json(await this.fetch(`/v1/jobs/${id}`, { method: 'DELETE' }))) as {
      cancelled: boolean;
      status: string;
    };
  }

  /** The owner's suite of this exact name (`GET /v1/suites?name=`), if there is one. */
  async findSuite(name: string): Promise<SuiteRecord | undefined> {
    const res = await this.fetch(`/v1/suites?name=${encodeURIComponent(name)}`);
    const { suites } = (await this.json(res)) as { suites: SuiteRecord[] };
    return suites.find((suite) => suite.name === name);
  }

  /** Creates the suite, or replaces the one given by `id` (PUT replaces the whole suite). */
  async saveSuite(body: SuiteBody, id?: string): Promise<SuiteRecord> {
    const res = await this.fetch(id ? `/v1/suites/${id}` : '/v1/suites', {
      method: id ? 'PUT' : 'POST',
      body: JSON.stringify(body),
    });
    return (await this.json(res)) as SuiteRecord;
  }

  /** Starts a run of a stored suite: the runner queues one job per test. */
  async startSuiteRun(id: string): Promise<SuiteRunRecord> {
    const res = await this.fetch(`/v1/suites/${id}/runs`, { method: 'POST', body: '{}' });
    return (await this.json(res)) as SuiteRunRecord;
  }

  /** The hub's page of a suite run (links to each job page). */
  suiteRunPage(suiteId: string, runId: string): string {
    return `${this.baseUrl}/suites/${suiteId}/runs/${runId}`;
  }

  /** Checks the key with a cheap authenticated read, so a bad key stops the run before anything is queued. */
  async verify(): Promise<void> {
    await this.json(await this.fetch('/v1/jobs?limit=1'));
  }

  /**
   * Follows a job over `GET /v1/jobs/{id}/events` until it ends, reconnecting when the stream
   * drops (the first event of each stream is the current record, so nothing is missed for good).
   */
  async follow(id: string, handlers: FollowHandlers, signal?: AbortSignal): Promise<JobRecord> {
    let last: JobRecord | undefined;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) return last ?? this.get(id);
      try {
        const res = await this.fetch(
          `/v1/jobs/${id}/events`,
          { headers: { accept: 'text/event-stream' } },
          signal,
          false,
        );
        if (!res.ok) await this.json(res);
        const parser = createParser({
          onEvent: (event) => {
            if (event.event === 'job') {
              last = JSON.parse(event.data) as JobRecord;
              handlers.onJob?.(last);
            } else if (event.event === 'step') handlers.onStep?.(JSON.parse(event.data) as StepEvent);
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (last && isFinal(last)) break;
        }
      } catch (error) {
        if (error instanceof CliError || signal?.aborted) throw error;
        // a dropped stream: read the record, then subscribe again
      }
      if (last && isFinal(last)) return last;
      last = await this.get(id);
      if (isFinal(last)) return last;
      await sleep(Math.min(5_000, 250 * 2 ** Math.min(attempt, 4)), signal);
    }
  }

  private async fetch(
    path: string,
    init: RequestInit = {},
    signal?: AbortSignal,
    timeout = true,
  ): Promise<Response> {
    const signals = [signal, timeout ? AbortSignal.timeout(this.requestTimeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          'user-agent': 'browser-tests',
          ...(init.headers as Record<string, string> | undefined),
        },
        signal: signals.length > 0 ? AbortSignal.any(signals) : null,
      });
      if (res.status === 401 || res.status === 403) {
        const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
        throw new CliError(
          `the runner at ${this.baseUrl} refused the API key (${res.status}${typeof body.detail === 'string' ? `: ${body.detail}` : ''}); pass a valid key with --key or BROWSER_TESTS_KEY`,
          EXIT_USAGE,
        );
      }
      return res;
    } catch (error) {
      if (error instanceof CliError || signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `cannot reach the runner at ${this.baseUrl} (${cause?.code ?? cause?.message ?? (error as Error).message}); is it running? (--runner or BROWSER_TESTS_RUNNER)`,
        EXIT_USAGE,
      );
    }
  }

  private async json(res: Response): Promise<unknown> {
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.ok) return body;
    if (res.status === 404 && !(body as { code?: string } | undefined)?.code)
      throw new CliError(
        `${this.baseUrl} does not look like a browser test runner (404 on ${res.url})`,
        EXIT_USAGE,
      );
    throw new RunnerRequestError(res.status, describeError(res.status, body, text), body);
  }
}

/** A 422 `detail` array, a `{detail, code}` body or the raw text, as one line. */
function describeError(status: number, body: unknown, text: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (Array.isArray(detail))
    return `the runner refused the test (${status}): ${detail
      .map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`)
      .join('; ')}`;
  if (typeof detail === 'string') return `the runner refused the test (${status}): ${detail}`;
  return `the runner answered ${status}: ${text.slice(0, 300)}`;
}
