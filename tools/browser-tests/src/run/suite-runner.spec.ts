import { describe, expect, it } from '@jest/globals';
import type { JobRecord, StepEvent } from '../runner/job-types.js';
import type { FollowHandlers, RunnerClient } from '../runner/runner-client.js';
import { parseTestFile } from '../test-files/test-file.parser.js';
import { SuiteRun, type PlannedTest } from './suite-runner.js';

/**
 * A stand-in for the runner's /v1 API that plays a script per test: each submitted job of a test
 * ends with the next outcome in its list ('hold' stays queued until cancelled).
 */
class ScriptedRunner {
  readonly baseUrl = 'http://runner.test';
  readonly submitted: string[] = [];
  readonly cancelled: string[] = [];
  private readonly jobs = new Map<string, { outcome: string; title: string; release?: () => void }>();

  constructor(private readonly script: Record<string, string[]>) {}

  jobPage = (id: string) => `${this.baseUrl}/jobs/${id}`;
  absolute = (link: string) => new URL(link, this.baseUrl).toString();

  async submit(body: { metadata?: { title?: string } }): Promise<JobRecord> {
    const title = body.metadata!.title!;
    const outcome = this.script[title]!.shift() ?? 'succeeded';
    const id = `job-${this.submitted.length + 1}`;
    this.submitted.push(id);
    this.jobs.set(id, { outcome, title });
    return this.record(id, 'queued');
  }

  async follow(id: string, handlers: FollowHandlers, signal?: AbortSignal): Promise<JobRecord> {
    const job = this.jobs.get(id)!;
    if (job.outcome === 'hold') {
      await new Promise<void>((resolve) => {
        job.release = resolve;
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      return this.record(id, this.cancelled.includes(id) ? 'cancelled' : 'queued');
    }
    handlers.onJob?.(this.record(id, 'running'));
    const step: StepEvent = {
      index: 1,
      count: 1,
      text: 'Open /',
      status: job.outcome === 'succeeded' ? 'passed' : 'failed',
      error: job.outcome === 'succeeded' ? null : 'boom',
    };
    handlers.onStep?.(step);
    return this.record(id, job.outcome as JobRecord['status']);
  }

  async cancel(id: string) {
    this.cancelled.push(id);
    return { cancelled: true, status: 'cancelled' };
  }

  private record(id: string, status: JobRecord['status']): JobRecord {
    const failed = status === 'failed';
    return {
      id,
      status,
      summary: failed ? 'Step 1 of 1 failed.' : null,
      error: null,
      steps:
        status === 'queued' || status === 'running'
          ? []
          : [
              {
                index: 1,
                text: 'Open /',
                action: 'navigate',
                status: failed ? 'failed' : 'passed',
                duration_ms: 5,
                error: failed ? 'boom' : null,
              },
            ],
      created_at: new Date().toISOString(),
      started_at: null,
      finished_at: null,
      links: {
        self: `/v1/jobs/${id}`,
        log: `/v1/jobs/${id}/log`,
        video: `/v1/jobs/${id}/video`,
        ...(failed ? { screenshot: `/v1/jobs/${id}/screenshot` } : {}),
      },
    };
  }
}

const planned = (...titles: string[]): PlannedTest[] =>
  titles.map((title) => ({
    test: parseTestFile(`tests/${title}.test.md`, `---\ntitle: ${title}\n---\nOpen /`),
    request: { query: '1. Open /', metadata: { title } },
  }));

const suiteOf = (runner: ScriptedRunner, retries: number, parallel = 2) =>
  new SuiteRun({ client: runner as unknown as RunnerClient, parallel, retries, observer: {} });

describe('retries and flaky tests', () => {
  it('a test that fails, then passes on a retry is flaky; one that keeps failing is failed after every retry', async () => {
    const runner = new ScriptedRunner({
      steady: ['succeeded'],
      wobbly: ['failed', 'succeeded'],
      broken: ['failed', 'failed', 'failed'],
    });
    const run = await suiteOf(runner, 2).run(planned('steady', 'wobbly', 'broken'));
    expect(run.results.map((r) => [r.test.title, r.status, r.attempts.length])).toEqual([
      ['steady', 'passed', 1],
      ['wobbly', 'flaky', 2],
      ['broken', 'failed', 3],
    ]);
    const broken = run.results[2]!.attempts.at(-1)!;
    expect(broken.message).toBe('Step 1/1 failed: Open / — boom');
    expect(broken.failedStep).toMatchObject({ index: 1, line: 4 });
    expect(broken.links).toEqual({
      page: 'http://runner.test/jobs/job-6',
      log: 'http://runner.test/v1/jobs/job-6/log',
      video: 'http://runner.test/v1/jobs/job-6/video',
      screenshot: 'http://runner.test/v1/jobs/job-6/screenshot',
    });
  });

  it('without --retries a failing test is not run again', async () => {
    const runner = new ScriptedRunner({ once: ['failed', 'succeeded'] });
    const run = await suiteOf(runner, 0).run(planned('once'));
    expect(run.results[0]).toMatchObject({ status: 'failed' });
    expect(runner.submitted).toHaveLength(1);
  });
});

describe('interrupting a run', () => {
  it('cancels the jobs it queued that have not ended, starts nothing more, and reports them as interrupted', async () => {
    const runner = new ScriptedRunner({ a: ['hold'], b: ['hold'], c: ['succeeded'] });
    const suite = suiteOf(runner, 1, 2);
    const running = suite.run(planned('a', 'b', 'c'));
    while (runner.submitted.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(await suite.interrupt()).toEqual({ cancelled: 2, running: 0 });
    const run = await running;
    expect(run.interrupted).toBe(true);
    expect(runner.cancelled.sort()).toEqual(['job-1', 'job-2']);
    expect(runner.submitted).toHaveLength(2);
    expect(run.results.map((r) => r.status)).toEqual(['interrupted', 'interrupted', 'interrupted']);
  });
});
