import { randomUUID } from 'node:crypto';
import type { MainDb } from '@suite/db';
import type { JobEvent, JobStepProgress } from '../job-events.js';
import { toSnapshot } from '../job-events.js';
import type { NewJob, NewTaskParts } from '../job-insert.repository.js';
import { JobQueue, type QueueJobRef, type QueuedState } from '../job-queue.js';
import { jobTransitions, type JobTransition } from '../job-transitions.js';
import {
  type CreatedJob,
  type FinishedRun,
  type JobFilter,
  type JobPage,
  JobRepository,
  type RunArtifacts,
  type RunRecord,
} from '../job.repository.js';

/** The job repository in memory, for unit tests of the services above it; `events` is what it published. */
export class InMemoryJobRepository extends JobRepository {
  readonly jobs = new Map<string, MainDb.Job>();
  readonly events: JobEvent[] = [];
  readonly steps = new Map<string, JobStepProgress[]>();
  private clock = Date.parse('2026-01-01T00:00:00Z');

  /** A job as a test needs it, stored as it is. */
  seed(fields: Partial<MainDb.Job> = {}): MainDb.Job {
    const now = this.now();
    const job: MainDb.Job = {
      id: randomUUID(),
      owner: 'owner',
      query: 'Open /',
      initialUrl: 'http://127.0.0.1/',
      model: 'instruction-interpreter',
      env: 'local_browser',
      highlightMouse: true,
      metadata: null,
      status: 'queued',
      summary: null,
      steps: [],
      error: null,
      attempts: 0,
      workerId: null,
      traceContext: null,
      contextId: null,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
      updatedAt: now,
      logPath: null,
      videoPath: null,
      screenshotPath: null,
      actions: null,
      replay: null,
      ...fields,
    };
    this.jobs.set(job.id, job);
    return job;
  }

  create(job: NewJob, task?: NewTaskParts): Promise<CreatedJob> {
    if (task?.message) throw new Error('the in-memory repository stores no A2A messages');
    const { traceContext, metadata, ...rest } = job;
    return Promise.resolve({
      job: this.seed({
        ...rest,
        traceContext: (traceContext ?? null) as MainDb.Job['traceContext'],
        metadata: (metadata ?? null) as MainDb.Job['metadata'],
        env: job.env as MainDb.Job['env'],
      }),
    });
  }

  discard(job: MainDb.Job): Promise<void> {
    this.jobs.delete(job.id);
    return Promise.resolve();
  }

  find(id: string): Promise<MainDb.Job | null> {
    return Promise.resolve(this.jobs.get(id) ?? null);
  }

  findOwned(owner: string, id: string): Promise<MainDb.Job | null> {
    const job = this.jobs.get(id);
    return Promise.resolve(job?.owner === owner ? job : null);
  }

  list(page: JobPage): Promise<MainDb.Job[]> {
    const after = page.after;
    const rows = this.matching(page)
      .filter(
        (job) =>
          !after ||
          job.createdAt < after.createdAt ||
          (job.createdAt.getTime() === after.createdAt.getTime() && job.id < after.id),
      )
      .slice(0, page.limit);
    return Promise.resolve(rows);
  }

  count(filter: JobFilter): Promise<number> {
    return Promise.resolve(this.matching(filter).length);
  }

  claim(jobId: string, workerId: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, undefined, jobTransitions.claim(workerId, this.now()), (job) => ({
      attempts: job.attempts + 1,
    }));
  }

  recordStep(jobId: string, step: JobStepProgress): Promise<void> {
    this.steps.set(jobId, [...(this.steps.get(jobId) ?? []), step]);
    this.events.push({ type: 'step', jobId, ...step, at: this.now().toISOString() });
    return Promise.resolve();
  }

  recordRun(jobId: string, run: RunRecord): Promise<void> {
    const job = this.jobs.get(jobId);
    if (job?.status === 'running') {
      this.jobs.set(jobId, {
        ...job,
        actions: run.actions as MainDb.Job['actions'],
        ...(run.replay ? { replay: run.replay as MainDb.Job['replay'] } : {}),
      });
    }
    return Promise.resolve();
  }

  finish(jobId: string, run: FinishedRun, artifacts: RunArtifacts): Promise<MainDb.Job | null> {
    return this.apply(jobId, undefined, jobTransitions.finish(run, artifacts, this.now()));
  }

  async failUnfinished(jobId: string, reason: string): Promise<boolean> {
    return (await this.apply(jobId, undefined, jobTransitions.failUnfinished(reason, this.now()))) !== null;
  }

  cancel(owner: string, jobId: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, owner, jobTransitions.cancel(this.now()));
  }

  resubmit(owner: string, jobId: string, query: string): Promise<MainDb.Job | null> {
    return this.apply(jobId, owner, jobTransitions.resubmit(query));
  }

  staleRunning(startedBefore: Date): Promise<{ id: string }[]> {
    return Promise.resolve(
      [...this.jobs.values()]
        .filter((job) => job.status === 'running' && job.startedAt && job.startedAt < startedBefore)
        .map(({ id }) => ({ id })),
    );
  }

  staleQueued(createdBefore: Date): Promise<{ id: string; owner: string; traceContext: unknown }[]> {
    return Promise.resolve(
      [...this.jobs.values()]
        .filter((job) => job.status === 'queued' && job.createdAt < createdBefore)
        .map(({ id, owner, traceContext }) => ({ id, owner, traceContext })),
    );
  }

  withExpiredArtifacts(finishedBefore: Date): Promise<{ id: string }[]> {
    return Promise.resolve(
      [...this.jobs.values()]
        .filter(
          (job) =>
            job.finishedAt &&
            job.finishedAt < finishedBefore &&
            (job.logPath || job.videoPath || job.screenshotPath),
        )
        .map(({ id }) => ({ id })),
    );
  }

  dropVideo(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (job) this.jobs.set(jobId, { ...job, videoPath: null });
    return Promise.resolve();
  }

  clearArtifacts(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (job) this.jobs.set(jobId, { ...job, logPath: null, videoPath: null, screenshotPath: null });
    return Promise.resolve();
  }

  countByStatus(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const job of this.jobs.values()) counts[job.status] = (counts[job.status] ?? 0) + 1;
    return Promise.resolve(counts);
  }

  /** Every write gets a later time than the one before, so ordering by time is deterministic. */
  private now(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }

  private matching(filter: JobFilter): MainDb.Job[] {
    return [...this.jobs.values()]
      .filter(
        (job) =>
          job.owner === filter.owner &&
          (filter.contextId === undefined || job.contextId === filter.contextId) &&
          (!filter.statuses || filter.statuses.includes(job.status)) &&
          (!filter.updatedAfter || job.updatedAt > filter.updatedAfter) &&
          (!filter.search || searchable(job).some((text) => text.includes(filter.search!.toLowerCase()))),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  private apply(
    jobId: string,
    owner: string | undefined,
    transition: JobTransition,
    extra: (job: MainDb.Job) => Partial<MainDb.Job> = () => ({}),
  ): Promise<MainDb.Job | null> {
    const job = this.jobs.get(jobId);
    if (!job || (owner !== undefined && job.owner !== owner) || !transition.from.includes(job.status)) {
      return Promise.resolve(null);
    }
    const { steps, ...change } = transition.change;
    const changed: MainDb.Job = {
      ...job,
      ...change,
      ...(steps ? { steps: steps as MainDb.Job['steps'] } : {}),
      ...extra(job),
      updatedAt: this.now(),
    };
    this.jobs.set(jobId, changed);
    this.events.push({
      type: 'status',
      jobId,
      status: changed.status,
      summary: changed.summary,
      job: toSnapshot(changed),
      at: changed.updatedAt.toISOString(),
    });
    return Promise.resolve(changed);
  }
}

/** The browser-job queue in memory: `entries` holds the queued job ids; `failNext` makes `enqueue` throw once. */
export class InMemoryJobQueue extends JobQueue {
  readonly entries = new Map<string, unknown>();
  failNext = false;

  enqueue(job: QueueJobRef, trace: unknown): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('queue unavailable'));
    }
    if (!this.entries.has(job.id)) this.entries.set(job.id, trace);
    return Promise.resolve();
  }

  started(): Promise<void> {
    return Promise.resolve();
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  repair(): Promise<number> {
    return Promise.resolve(0);
  }

  remove(jobId: string): Promise<void> {
    this.entries.delete(jobId);
    return Promise.resolve();
  }

  state(jobId: string): Promise<QueuedState> {
    return Promise.resolve(this.entries.has(jobId) ? 'waiting' : 'unknown');
  }

  counts(...states: string[]): Promise<Record<string, number>> {
    return Promise.resolve(
      Object.fromEntries(states.map((s) => [s, s === 'waiting' ? this.entries.size : 0])),
    );
  }
}

/** What a list search looks in, lower-cased: the query and `metadata.title`. */
function searchable(job: MainDb.Job): string[] {
  const title = (job.metadata as { title?: unknown } | null)?.title;
  return [job.query.toLowerCase(), ...(typeof title === 'string' ? [title.toLowerCase()] : [])];
}
