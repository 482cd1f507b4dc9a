import { MainDb, newId, type MainClient } from '@suite/db';

/** A job as submitted, validated. */
export interface NewJob {
  owner: string;
  query: string;
  initialUrl: string;
  model: string;
  env: string;
  highlightMouse: boolean;
  metadata: unknown;
  traceContext: unknown;
  contextId: string | null;
}

/** What an A2A task starts with: maybe a new context, and the message that asked for it. */
export interface NewTaskParts {
  /** The job's contextId is new: the context row is made in the same statement. */
  createContext: boolean;
  message?: {
    messageId: string | null;
    role: string;
    parts: unknown;
    metadata: unknown;
  };
}

const json = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

type JobRow = Omit<MainDb.Job, 'createdAt' | 'startedAt' | 'finishedAt' | 'updatedAt'> & {
  createdAt: Date | string;
  startedAt: Date | string | null;
  finishedAt: Date | string | null;
  updatedAt: Date | string;
  messageCreatedAt: Date | string | null;
};

/**
 * Stores a job (and for an A2A task its new context and first message) in one statement: one round
 * trip and one commit, where the client's create calls would take one each. Answers with the rows
 * as the Prisma client would have read them.
 */
export async function insertJob(
  db: MainClient,
  job: NewJob,
  task: NewTaskParts = { createContext: false },
): Promise<{ job: MainDb.Job; message?: MainDb.A2aMessage }> {
  const id = newId();
  const messageId = newId();
  const message = task.message;
  if ((task.createContext || message) && !job.contextId) throw new Error('an A2A task needs its contextId');
  const rows = await db.$queryRaw<JobRow[]>`
    WITH context AS (
      INSERT INTO a2a_contexts (id, owner)
      SELECT ${job.contextId}::uuid, ${job.owner} WHERE ${task.createContext}
    ), job AS (
      INSERT INTO jobs (id, owner, query, initial_url, model, env, highlight_mouse, metadata, trace_context, context_id)
      VALUES (${id}::uuid, ${job.owner}, ${job.query}, ${job.initialUrl}, ${job.model}, ${job.env}::browser_env,
              ${job.highlightMouse}, ${json(job.metadata)}::jsonb, ${json(job.traceContext)}::jsonb, ${job.contextId}::uuid)
      RETURNING *
    ), message AS (
      INSERT INTO a2a_messages (id, context_id, task_id, message_id, role, parts, metadata)
      SELECT ${messageId}::uuid, ${job.contextId}::uuid, ${id}::uuid, ${message?.messageId ?? null},
             ${message?.role ?? ''}, ${json(message?.parts) ?? '[]'}::jsonb, ${json(message?.metadata)}::jsonb
       WHERE ${message !== undefined}
      RETURNING created_at
    )
    SELECT id, owner, query, initial_url AS "initialUrl", model, env::text AS env, highlight_mouse AS "highlightMouse",
           metadata, status::text AS status, summary, steps, error, attempts, worker_id AS "workerId",
           trace_context AS "traceContext", context_id AS "contextId", created_at AS "createdAt",
           started_at AS "startedAt", finished_at AS "finishedAt", updated_at AS "updatedAt",
           log_path AS "logPath", video_path AS "videoPath", actions, replay,
           (SELECT created_at FROM message) AS "messageCreatedAt"
      FROM job`;
  const row = rows[0];
  if (!row) throw new Error('the job insert returned no row');
  const { messageCreatedAt, ...stored } = row;
  const inserted: MainDb.Job = {
    ...stored,
    createdAt: date(stored.createdAt)!,
    startedAt: date(stored.startedAt),
    finishedAt: date(stored.finishedAt),
    updatedAt: date(stored.updatedAt)!,
  };
  if (!message) return { job: inserted };
  return {
    job: inserted,
    message: {
      id: messageId,
      contextId: job.contextId!,
      taskId: id,
      messageId: message.messageId,
      role: message.role,
      parts: (message.parts ?? []) as MainDb.Prisma.JsonValue,
      metadata: (message.metadata ?? null) as MainDb.Prisma.JsonValue,
      createdAt: date(messageCreatedAt)!,
    },
  };
}
