import { JobStatus } from '@suite/contracts';
import type { MainDb } from '@suite/db';
import type { Artifact, Message, Part, Task, TaskState } from './a2a-wire.types.js';
import { TaskState as State } from './a2a-wire.types.js';
import { publicStatus, StoredJobStatus, type StoredStatus } from './job-state.js';

export function taskStateOf(status: string): TaskState {
  switch (status) {
    case JobStatus.Queued:
      return State.Submitted;
    case JobStatus.Running:
      return State.Working;
    case JobStatus.Succeeded:
      return State.Completed;
    case JobStatus.Failed:
      return State.Failed;
    case JobStatus.Cancelled:
      return State.Canceled;
    case StoredJobStatus.needs_input:
      return State.InputRequired;
    default:
      return State.Working;
  }
}

/** A job's task state: a job whose instructions were not understood is waiting for input. */
export function taskStateOfJob(job: Pick<MainDb.Job, 'status'>): TaskState {
  return taskStateOf(job.status);
}

export const needsInput = (job: Pick<MainDb.Job, 'status'>): boolean =>
  job.status === StoredJobStatus.needs_input;

/** The job statuses a ListTasks `status` filter selects, or null for states jobs never have (auth-required, rejected). */
export function jobStatusesOf(state: string): StoredStatus[] | null {
  switch (state) {
    case State.Submitted:
      return [StoredJobStatus.queued];
    case State.Working:
      return [StoredJobStatus.running];
    case State.Completed:
      return [StoredJobStatus.succeeded];
    case State.Failed:
      return [StoredJobStatus.failed];
    case State.InputRequired:
      return [StoredJobStatus.needs_input];
    case State.Canceled:
      return [StoredJobStatus.cancelled];
    default:
      return null;
  }
}

export interface TaskViewOptions {
  /** Absolute origin of the runner (PUBLIC_RUNNER_URL). */
  publicUrl: string;
  /** What the client calls the task's context (a name it gave, A2aConversationRepository.wireId); default its id. */
  contextId?: string;
  history?: MainDb.A2aMessage[];
  /** undefined: the whole history; 0: none. */
  historyLength?: number;
  includeArtifacts?: boolean;
}

export function storedMessage(row: MainDb.A2aMessage, contextId = row.contextId): Message {
  return {
    messageId: row.messageId ?? row.id,
    contextId,
    ...(row.taskId ? { taskId: row.taskId } : {}),
    role: row.role as Message['role'],
    parts: (row.parts as unknown as Part[]) ?? [],
    ...(row.metadata ? { metadata: row.metadata as Record<string, unknown> } : {}),
  };
}

export const contextOf = (job: MainDb.Job): string => job.contextId ?? job.id;

const statusTime = (job: MainDb.Job): Date => job.finishedAt ?? job.startedAt ?? job.createdAt;

/** The agent's closing words on a finished task: its summary (or error). */
function statusMessage(job: MainDb.Job, contextId: string): Message | undefined {
  const text = job.summary ?? job.error;
  const status = publicStatus(job.status);
  if (!text || (status !== JobStatus.Succeeded && status !== JobStatus.Failed)) return undefined;
  return {
    messageId: `${job.id}-status`,
    contextId,
    taskId: job.id,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

/** The agent log's artifact: a link, good from the moment the job runs (the log grows until it ends). */
export function logArtifact(job: Pick<MainDb.Job, 'id'>, publicUrl: string): Artifact {
  return {
    artifactId: 'log',
    name: 'agent log',
    description: 'The agent log (needs the API key).',
    parts: [
      { url: `${publicUrl}/v1/jobs/${job.id}/log`, mediaType: 'text/plain', filename: 'agent-log.txt' },
    ],
  };
}

export function taskArtifacts(job: MainDb.Job, publicUrl: string): Artifact[] {
  // A job waiting for input is shown as the failed run it was, artifacts included.
  const status = publicStatus(job.status);
  const finished = status === JobStatus.Succeeded || status === JobStatus.Failed;
  if (!finished) return [];
  const base = `${publicUrl}/v1/jobs/${job.id}`;
  const artifacts: Artifact[] = [
    {
      artifactId: 'summary',
      name: 'summary',
      description: 'Verdict of the browser test in one paragraph.',
      parts: [{ text: job.summary ?? job.error ?? (status === JobStatus.Succeeded ? 'Passed.' : 'Failed.') }],
    },
    {
      artifactId: 'steps',
      name: 'steps',
      description: 'Result of every step, in order.',
      parts: [{ data: { steps: job.steps ?? [] }, mediaType: 'application/json' }],
    },
    logArtifact(job, publicUrl),
  ];
  if (job.videoPath) {
    artifacts.push({
      artifactId: 'video',
      name: 'video',
      description: 'Recording of the browser session, H.264 MP4 (needs the API key).',
      parts: [{ url: `${base}/video`, mediaType: 'video/mp4', filename: 'video.mp4' }],
    });
  }
  if (job.screenshotPath) {
    artifacts.push({
      artifactId: 'screenshot',
      name: 'screenshot',
      description:
        'The page at the moment a step failed, PNG, with metadata.secrets values masked (needs the API key).',
      parts: [{ url: `${base}/screenshot`, mediaType: 'image/png', filename: 'failure-screenshot.png' }],
    });
  }
  return artifacts;
}

export function toTask(job: MainDb.Job, options: TaskViewOptions): Task {
  const contextId = options.contextId ?? contextOf(job);
  const message = statusMessage(job, contextId);
  const task: Task = {
    id: job.id,
    contextId,
    status: {
      state: taskStateOfJob(job),
      ...(message ? { message } : {}),
      timestamp: statusTime(job).toISOString(),
    },
    metadata: {
      model: job.model,
      env: job.env,
      initialUrl: job.initialUrl,
      links: { self: `${options.publicUrl}/v1/jobs/${job.id}` },
    },
  };
  if (options.includeArtifacts !== false) task.artifacts = taskArtifacts(job, options.publicUrl);
  if (options.history) {
    const all = options.history.map((row) => storedMessage(row, contextId));
    const n = options.historyLength;
    task.history = n === undefined ? all : n === 0 ? [] : all.slice(-n);
  }
  return task;
}
