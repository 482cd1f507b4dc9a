import {
  type CancelJobResultDto,
  type CreateJobDto,
  type JobListDto,
  type JobRecordDto,
  JobStatus,
  type ListJobsQueryDto,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { issue, RunnerError, RunnerErrorCode } from '@suite/errors';
import { injectTraceContext, withSpan, type TraceCarrier } from '@suite/telemetry';
import type { Principal } from './api-key.service.js';
import type { ArtifactStore } from './artifact-store.js';
import { parseByteRange } from './byte-range.js';
import { assertInstructionLimits } from './instruction-limits.js';
import type { JobQueue } from './job-queue.js';
import { toJobRecord } from './job-record.mapper.js';
import type { CreatedJob, JobRepository, NewTaskParts } from './job.repository.js';
import { isSettledStatus, publicStatus, storedStatusesOf } from './job-state.js';
import type { ModelRegistry } from './model-registry.js';

export type { CreatedJob };

export interface JobServiceDeps {
  jobs: JobRepository;
  queue: JobQueue;
  models: ModelRegistry;
  store: ArtifactStore;
  /** HOSTED_BROWSER_WS_URL is configured. */
  hostedBrowser: boolean;
  /**
   * How long a request for a finished job's video waits for the encoder to complete it (a job
   * ends when its capture ends; the file follows within about a second). Default 10 s.
   */
  videoCompletionWaitMs?: number;
}

/** How often a request waiting for a video looks again. */
const VIDEO_POLL_MS = 100;
/**
 * A linked video still missing this long after its job finished is not coming (its worker was
 * lost while finishing it): requests answer at once instead of waiting.
 */
const VIDEO_PENDING_WINDOW_MS = 60_000;

export interface CreateJobOptions {
  /** A2A context the job belongs to. */
  contextId?: string;
  /** The context is new: it is stored with the job (and removed with it should the queue refuse). */
  createContext?: boolean;
  /** The A2A message that asked for the task, stored with it. */
  message?: NewTaskParts['message'];
}

export interface VideoResponse {
  status: 200 | 206 | 302 | 416;
  headers: Record<string, string>;
  body?: NodeJS.ReadableStream;
}

export interface ScreenshotResponse {
  status: 200 | 302;
  headers: Record<string, string>;
  body?: NodeJS.ReadableStream;
}

/**
 * The runner's one job service, shared by `/v1`, A2A and MCP: Postgres holds the truth, the queue
 * carries only the job id (and trace context). Every read and write is scoped to the caller's owner.
 * Requests arrive validated (each transport checks its DTO at its edge); what is checked here needs
 * the deployment (models, the hosted browser) or is the engine's own rule (instruction limits,
 * which also bound the queries suites build).
 */
export class JobService {
  constructor(private readonly deps: JobServiceDeps) {}

  /** Starts the job's trace: the worker's spans join it through the context stored with the job. */
  async create(
    principal: Principal,
    request: CreateJobDto,
    options: CreateJobOptions = {},
  ): Promise<JobRecordDto> {
    return toJobRecord((await this.createJob(principal, request, options)).job, false);
  }

  /** As `create`, answering with the stored rows (the A2A gateway shows them as a task). */
  createJob(
    principal: Principal,
    request: CreateJobDto,
    options: CreateJobOptions = {},
  ): Promise<CreatedJob> {
    return withSpan('job.create', (span) =>
      this.createInSpan(principal, request, options).then((created) => {
        span.setAttribute('job.id', created.job.id);
        return created;
      }),
    );
  }

  private async createInSpan(
    principal: Principal,
    value: CreateJobDto,
    options: CreateJobOptions,
  ): Promise<CreatedJob> {
    assertInstructionLimits(value.query);
    const model = this.deps.models.resolve(value.model);
    if (value.env === 'hosted_browser' && !this.deps.hostedBrowser) {
      throw new RunnerError(
        RunnerErrorCode.EnvUnavailable,
        "env 'hosted_browser' needs a hosted browser provider: set HOSTED_BROWSER_WS_URL to its CDP websocket URL, or use 'local_browser'",
        { metadata: { env: value.env } },
      );
    }
    const trace = injectTraceContext();
    const created = await this.deps.jobs.create(
      {
        owner: principal.owner,
        query: value.query,
        initialUrl: value.initial_url,
        model: model.id,
        env: value.env,
        highlightMouse: value.highlight_mouse,
        metadata: value.metadata,
        traceContext: trace,
        contextId: options.contextId ?? null,
      },
      { createContext: options.createContext ?? false, message: options.message },
    );
    const { job } = created;
    try {
      await this.deps.queue.enqueue({ id: job.id, owner: job.owner }, trace);
    } catch (error) {
      // Never accept a job nobody will run: undo the rows; the owner's queue is full (429), or
      // the queue is unavailable.
      await this.deps.jobs.discard(job, { context: options.createContext ?? false });
      if (error instanceof RunnerError) throw error;
      throw new RunnerError(
        RunnerErrorCode.ServiceUnavailable,
        'The job queue is unavailable; try again shortly.',
        {
          cause: error,
        },
      );
    }
    return created;
  }

  async list(principal: Principal, value: ListJobsQueryDto): Promise<JobListDto> {
    const after = value.before ? await this.listCursor(principal, value.before) : undefined;
    const jobs = await this.deps.jobs.list({
      owner: principal.owner,
      ...(value.status ? { statuses: storedStatusesOf(value.status) } : {}),
      ...(value.q ? { search: value.q } : {}),
      ...(after ? { after } : {}),
      limit: value.limit,
    });
    return { jobs: jobs.map((job) => toJobRecord(job, Boolean(job.videoPath))) };
  }

  /** `before`: the page goes on after this job of the caller's (the last of the previous page). */
  private async listCursor(principal: Principal, id: string): Promise<{ createdAt: Date; id: string }> {
    const job = await this.deps.jobs.findOwned(principal.owner, id);
    if (!job)
      throw RunnerError.validation([
        issue.valueError(['query', 'before'], id, 'no job of yours has this id'),
      ]);
    return { createdAt: job.createdAt, id: job.id };
  }

  async get(principal: Principal, id: string): Promise<JobRecordDto> {
    const job = await this.find(principal, id);
    return toJobRecord(job, Boolean(job.videoPath));
  }

  /**
   * Queued, or waiting for new instructions → cancelled (never runs). Running or finished jobs are
   * left as they are and say so.
   */
  async cancel(principal: Principal, id: string): Promise<CancelJobResultDto> {
    const job = await this.find(principal, id);
    if (await this.deps.jobs.cancel(principal.owner, job.id)) {
      // Best effort: a worker that still picks it up sees `cancelled` in Postgres and skips it.
      await this.deps.queue.remove(job.id).catch(() => undefined);
      return {
        id: job.id,
        status: JobStatus.Cancelled,
        cancelled: true,
        message: 'Job cancelled before it started.',
      };
    }
    const current = await this.find(principal, id);
    const message =
      current.status === JobStatus.Running
        ? 'The job is running and was not stopped: running jobs are not force-killed. It will finish on its own.'
        : `The job already ended (${publicStatus(current.status)}); nothing to cancel.`;
    return { id: current.id, status: publicStatus(current.status), cancelled: false, message };
  }

  /** The agent log so far: NDJSON entries as stored, or one readable line per entry. */
  async log(principal: Principal, id: string, format: 'text' | 'ndjson'): Promise<string> {
    const job = await this.find(principal, id);
    const ndjson = await this.deps.store.readLog(job.id);
    if (format === 'ndjson') return ndjson;
    return ndjson
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        try {
          const entry = JSON.parse(line) as { text?: string; time?: string; message?: string };
          return entry.text ?? `${entry.time ?? ''} ${entry.message ?? ''}`.trim();
        } catch {
          return line;
        }
      })
      .map((line) => `${line}\n`)
      .join('');
  }

  async video(principal: Principal, id: string, rangeHeader: string | undefined): Promise<VideoResponse> {
    const job = await this.find(principal, id);
    let size = job.videoPath ? await this.deps.store.size(job.id, 'video') : undefined;
    // Linked but not there yet: the job has ended and the encoder is completing the file.
    const finishing =
      isSettledStatus(job.status) &&
      job.finishedAt !== null &&
      Date.now() - job.finishedAt.getTime() < VIDEO_PENDING_WINDOW_MS;
    if (!size && job.videoPath && finishing) size = await this.videoCompleted(job.id);
    if (!size) {
      const why =
        job.status === JobStatus.Queued || job.status === JobStatus.Running
          ? `the job is ${job.status}; the video is written when it ends`
          : job.status === JobStatus.Cancelled
            ? 'the job was cancelled before it ran'
            : job.videoPath
              ? 'the video could not be completed'
              : 'no video was recorded for this job';
      throw new RunnerError(RunnerErrorCode.ArtifactNotFound, `No video for job ${job.id}: ${why}.`);
    }
    // ARTIFACT_DOWNLOAD=presigned: the client fetches (and seeks in) the object directly.
    const url = await this.deps.store.downloadUrl(job.id, 'video');
    if (url) return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
    const common = {
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=3600',
    };
    const range = parseByteRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...common, 'content-range': `bytes */${size}` } };
    }
    if (range) {
      return {
        status: 206,
        headers: {
          ...common,
          'content-range': `bytes ${range.start}-${range.end}/${size}`,
          'content-length': String(range.end - range.start + 1),
        },
        body: this.deps.store.open(job.id, 'video', range),
      };
    }
    return {
      status: 200,
      headers: { ...common, 'content-length': String(size) },
      body: this.deps.store.open(job.id, 'video'),
    };
  }

  /**
   * Waits for a finished job's video to be complete in the store: its size, or undefined when
   * the worker unlinked it (the encoder failed) or it did not come in time.
   */
  private async videoCompleted(jobId: string): Promise<number | undefined> {
    const deadline = Date.now() + (this.deps.videoCompletionWaitMs ?? 10_000);
    for (let round = 1; Date.now() < deadline; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, VIDEO_POLL_MS));
      const size = await this.deps.store.size(jobId, 'video');
      if (size) return size;
      if (round % 5 === 0 && !(await this.deps.jobs.find(jobId))?.videoPath) return undefined;
    }
    return undefined;
  }

  /** The page as it was when a step failed (PNG, secrets masked), like the video: proxied or presigned. */
  async screenshot(principal: Principal, id: string): Promise<ScreenshotResponse> {
    const job = await this.find(principal, id);
    const size = job.screenshotPath ? await this.deps.store.size(job.id, 'screenshot') : undefined;
    if (!size) {
      const why =
        job.status === JobStatus.Queued || job.status === JobStatus.Running
          ? `the job is ${job.status}; a screenshot is taken only when a step fails`
          : job.status === JobStatus.Cancelled
            ? 'the job was cancelled before it ran'
            : 'no step failed, or the page could not be captured';
      throw new RunnerError(RunnerErrorCode.ArtifactNotFound, `No screenshot for job ${job.id}: ${why}.`);
    }
    const url = await this.deps.store.downloadUrl(job.id, 'screenshot');
    if (url) return { status: 302, headers: { location: url, 'cache-control': 'no-store' } };
    return {
      status: 200,
      headers: {
        'content-type': 'image/png',
        'content-length': String(size),
        'cache-control': 'private, max-age=3600',
      },
      body: this.deps.store.open(job.id, 'screenshot'),
    };
  }

  /**
   * New instructions for a job that is waiting for them (its instructions were not understood):
   * the job is queued again with the new query, keeping its id, context and options. The query
   * arrives validated as `CreateJobDto.query` (A2A checks it at its edge).
   */
  async resubmit(principal: Principal, id: string, query: CreateJobDto['query']): Promise<JobRecordDto> {
    assertInstructionLimits(query);
    const job = await this.find(principal, id);
    const queued = await this.deps.jobs.resubmit(principal.owner, job.id, query);
    if (!queued) {
      throw new RunnerError(
        RunnerErrorCode.JobNotCancelable,
        `Job ${job.id} is not waiting for new instructions.`,
      );
    }
    // The finished queue entry keeps the job id: drop it so the id can be queued again.
    await this.deps.queue.remove(job.id).catch(() => undefined);
    const trace = (job.traceContext as TraceCarrier | null) ?? injectTraceContext();
    // Accepted once already: new instructions are not refused for the owner's queue being full.
    await this.deps.queue.enqueue({ id: job.id, owner: job.owner }, trace, { admitOverLimit: true });
    return toJobRecord(queued, Boolean(queued.videoPath));
  }

  /** A job with the owner rules of `get` (a foreign job is not found), as stored: for the script export. */
  async stored(principal: Principal, id: string): Promise<MainDb.Job> {
    return this.find(principal, id);
  }

  /** Unknown ids, malformed ids and other owners' jobs are all simply "not found". */
  private async find(principal: Principal, id: string): Promise<MainDb.Job> {
    const job = await this.deps.jobs.findOwned(principal.owner, id);
    if (!job) throw new RunnerError(RunnerErrorCode.JobNotFound, `Job ${JSON.stringify(id)} was not found.`);
    return job;
  }
}
