import { beforeEach, describe, expect, it } from '@jest/globals';
import { CreateJobDto, ListJobsQueryDto, validateBody, validateQuery } from '@suite/contracts';
import { RunnerErrorCode, toHttpProblem, toJsonRpcError, toMcpToolError } from '@suite/errors';
import { LocalArtifactStore } from './artifact-store.js';
import { INSTRUCTIONS_NOT_UNDERSTOOD } from './job-state.js';
import { JobService } from './job.service.js';
import { ModelRegistry } from './model-registry.js';
import { InMemoryJobQueue, InMemoryJobRepository, runnerFailure } from './testing/index.js';

const ada = { owner: 'ada', keyId: 'k1' };
const bob = { owner: 'bob', keyId: 'k2' };

const failure = runnerFailure;

/** Requests as each transport's edge hands them to the service (validated DTOs). */
const request = (body: Record<string, unknown>) => validateBody(CreateJobDto, body).value;
const listQuery = (query: Record<string, string>) => validateQuery(ListJobsQueryDto, query).value;

describe('JobService', () => {
  let jobs: InMemoryJobRepository;
  let queue: InMemoryJobQueue;
  let service: JobService;

  beforeEach(() => {
    jobs = new InMemoryJobRepository();
    queue = new InMemoryJobQueue();
    service = new JobService({
      jobs,
      queue,
      models: new ModelRegistry(),
      store: new LocalArtifactStore('unused'),
      hostedBrowser: false,
    });
  });

  it('stores a new job as queued and queues its id', async () => {
    const job = await service.create(ada, request({ query: 'Open /', initial_url: 'http://127.0.0.1/' }));
    expect(job).toMatchObject({ status: 'queued', query: 'Open /', model: 'instruction-interpreter' });
    expect([...queue.entries.keys()]).toEqual([job.id]);
  });

  it('keeps no job the queue refused, and says the queue is unavailable', async () => {
    queue.failNext = true;
    const error = await failure(service.create(ada, request({ query: 'Open /' })));
    expect(error.code).toBe(RunnerErrorCode.ServiceUnavailable);
    expect(error.message).toBe('The job queue is unavailable; try again shortly.');
    expect(jobs.jobs.size).toBe(0);
  });

  it('shows another owner’s job as not found', async () => {
    const job = jobs.seed({ owner: 'ada' });
    const error = await failure(service.get(bob, job.id));
    expect(error.code).toBe(RunnerErrorCode.JobNotFound);
    expect(error.message).toBe(`Job ${JSON.stringify(job.id)} was not found.`);
  });

  it('cancels a queued job, drops its queue entry and publishes the change', async () => {
    const job = jobs.seed({ owner: 'ada' });
    queue.entries.set(job.id, {});
    expect(await service.cancel(ada, job.id)).toEqual({
      id: job.id,
      status: 'cancelled',
      cancelled: true,
      message: 'Job cancelled before it started.',
    });
    expect(queue.entries.has(job.id)).toBe(false);
    expect(jobs.events).toEqual([
      expect.objectContaining({ type: 'status', jobId: job.id, status: 'cancelled' }),
    ]);
  });

  it('leaves a running job alone and says why', async () => {
    const job = jobs.seed({ owner: 'ada', status: 'running' });
    expect(await service.cancel(ada, job.id)).toEqual({
      id: job.id,
      status: 'running',
      cancelled: false,
      message:
        'The job is running and was not stopped: running jobs are not force-killed. It will finish on its own.',
    });
    expect(jobs.events).toEqual([]);
  });

  it('shows a job waiting for input as failed, in records, lists, filters and cancel answers', async () => {
    const waiting = jobs.seed({
      owner: 'ada',
      status: 'needs_input',
      error: INSTRUCTIONS_NOT_UNDERSTOOD,
      finishedAt: new Date(),
    });
    jobs.seed({ owner: 'ada', status: 'succeeded' });
    expect(await service.get(ada, waiting.id)).toMatchObject({
      status: 'failed',
      error: 'instructions not understood',
    });
    const failed = await service.list(ada, listQuery({ status: 'failed' }));
    expect(failed.jobs.map((job) => [job.id, job.status])).toEqual([[waiting.id, 'failed']]);
  });

  it('lists by search (query or title, any case) and pages after a job of the caller’s own', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const a = jobs.seed({ owner: 'ada', query: 'Open the Checkout page', createdAt: day(1) });
    const b = jobs.seed({
      owner: 'ada',
      query: 'Click x',
      metadata: { title: 'checkout flow' },
      createdAt: day(2),
    });
    jobs.seed({ owner: 'ada', query: 'Click y', createdAt: day(3) });
    const bobs = jobs.seed({ owner: 'bob', query: 'checkout', createdAt: day(4) });
    const ids = async (query: Record<string, string>) =>
      (await service.list(ada, listQuery(query))).jobs.map((j) => j.id);
    expect(await ids({ q: 'CHECKOUT' })).toEqual([b.id, a.id]);
    expect(await ids({ q: 'checkout', limit: '1', before: b.id })).toEqual([a.id]);
    const refused = await failure(service.list(ada, listQuery({ before: bobs.id })));
    expect(refused.details.issues?.[0]).toMatchObject({ loc: ['query', 'before'], type: 'value_error' });
  });

  it('cancels a job waiting for input: it reads cancelled from then on', async () => {
    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    expect(await service.cancel(ada, waiting.id)).toMatchObject({ status: 'cancelled', cancelled: true });
    expect(await service.get(ada, waiting.id)).toMatchObject({ status: 'cancelled', error: null });
    expect(jobs.events.at(-1)).toMatchObject({ type: 'status', status: 'cancelled' });
  });

  it('leaves a finished job alone and says so', async () => {
    const failed = jobs.seed({ owner: 'ada', status: 'failed', error: 'step 2 failed' });
    expect((await service.cancel(ada, failed.id)).message).toBe(
      'The job already ended (failed); nothing to cancel.',
    );
  });

  it('queues a job waiting for input again with new instructions, keeping its id', async () => {
    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    const again = await service.resubmit(ada, waiting.id, 'Open /thanks');
    expect(again).toMatchObject({ id: waiting.id, status: 'queued', query: 'Open /thanks', error: null });
    expect(queue.entries.has(waiting.id)).toBe(true);
    expect(jobs.events.at(-1)).toMatchObject({ type: 'status', status: 'queued' });
  });

  it('refuses new instructions for a job that is not waiting for them', async () => {
    const failed = jobs.seed({ owner: 'ada', status: 'failed', error: 'step 2 failed' });
    const error = await failure(service.resubmit(ada, failed.id, 'Open /'));
    expect(error.code).toBe(RunnerErrorCode.JobNotCancelable);
    expect(error.message).toBe(`Job ${failed.id} is not waiting for new instructions.`);
    expect(queue.entries.size).toBe(0);
  });

  it('refuses instructions over the interpreter limits in every transport, queueing nothing', async () => {
    const tooMany = Array.from({ length: 201 }, (_, i) => `Click "Item ${i}"`).join('\n');
    const error = await failure(service.create(ada, request({ query: tooMany })));
    expect(error.code).toBe(RunnerErrorCode.ValidationFailed);
    const limit =
      'the instructions have more than 200 steps (the limit is 200); split the test into smaller tests';
    // /v1: a FastAPI 422 whose detail names the limit.
    const problem = toHttpProblem(error);
    expect(problem.status).toBe(422);
    expect(problem.body).toMatchObject({
      detail: [{ type: 'value_error', loc: ['body', 'query'], msg: `Value error, ${limit}` }],
    });
    // A2A: a JSON-RPC error; MCP: an isError result, both with the same issue.
    expect(JSON.stringify(toJsonRpcError(error, 1))).toContain(limit);
    expect(toMcpToolError(error)).toMatchObject({ isError: true });
    expect(JSON.stringify(toMcpToolError(error))).toContain(limit);
    expect(jobs.jobs.size).toBe(0);
    expect(queue.entries.size).toBe(0);

    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    const long = `Click the ${'very '.repeat(300)}big button`;
    const again = await failure(service.resubmit(ada, waiting.id, long));
    expect(toHttpProblem(again).status).toBe(422);
    expect(again.message).toMatch(/step 1 is 1,520 characters long .*the limit is 1,000 per step/);
    expect(queue.entries.size).toBe(0);
  });
});
