import { hotStatement, newId, sqlPool, type MainClient, type MainDb } from '@suite/db';

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

/**
 * One statement, named so each connection plans it once. It is the one place besides
 * A2aConversationRepository that writes a2a_contexts and a2a_messages: a new task's context and
 * first message go in with its job. The context and message inserts are
 * conditional ($13, $14); a data-modifying CTE runs whether or not the final SELECT reads it, and
 * the foreign keys are checked at the end of the statement, when the context row exists.
 */
const INSERT_JOB = {
  name: 'insert-job-v1',
  text: `
    WITH context AS (
      INSERT INTO a2a_contexts (id, owner) SELECT $10::uuid, $2 WHERE $13::boolean
    ), job AS (
      INSERT INTO jobs (id, owner, query, initial_url, model, env, highlight_mouse, metadata, trace_context, context_id)
      VALUES ($1::uuid, $2, $3, $4, $5, $6::browser_env, $7::boolean, $8::jsonb, $9::jsonb, $10::uuid)
      RETURNING *
    ), message AS (
      INSERT INTO a2a_messages (id, context_id, task_id, message_id, role, parts, metadata)
      SELECT $11::uuid, $10::uuid, $1::uuid, $12, $15, $16::jsonb, $17::jsonb WHERE $14::boolean
      RETURNING created_at
    )
    SELECT id, owner, query, initial_url AS "initialUrl", model, env::text AS env,
           highlight_mouse AS "highlightMouse", metadata, status::text AS status, summary, steps, error,
           attempts, worker_id AS "workerId", trace_context AS "traceContext", context_id AS "contextId",
           created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt",
           updated_at AS "updatedAt", log_path AS "logPath", video_path AS "videoPath",
           screenshot_path AS "screenshotPath", actions, replay,
           (SELECT created_at FROM message) AS "messageCreatedAt"
      FROM job`,
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
  const { rows } = await sqlPool(db).query<MainDb.Job & { messageCreatedAt: Date | null }>(
    hotStatement({
      ...INSERT_JOB,
      values: [
        id,
        job.owner,
        job.query,
        job.initialUrl,
        job.model,
        job.env,
        job.highlightMouse,
        json(job.metadata),
        json(job.traceContext),
        job.contextId,
        messageId,
        message?.messageId ?? null,
        task.createContext,
        message !== undefined,
        message?.role ?? '',
        json(message?.parts) ?? '[]',
        json(message?.metadata),
      ],
    }),
  );
  const row = rows[0];
  if (!row) throw new Error('the job insert returned no row');
  const { messageCreatedAt, ...inserted } = row;
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
      createdAt: messageCreatedAt!,
    },
  };
}
