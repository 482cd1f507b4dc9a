import type { BrowserEnv, JobRecordDto, JobStepDto } from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { publicStatus } from './job-state.js';

/** The public shape of a job (snake_case, ISO times, relative artifact links). */
export function toJobRecord(job: MainDb.Job, videoAvailable: boolean): JobRecordDto {
  const self = `/v1/jobs/${job.id}`;
  return {
    id: job.id,
    status: publicStatus(job.status),
    query: job.query,
    initial_url: job.initialUrl,
    model: job.model,
    env: job.env as BrowserEnv,
    highlight_mouse: job.highlightMouse,
    metadata: maskSecrets(job.metadata as Record<string, unknown> | null),
    summary: job.summary,
    error: job.error,
    steps: (job.steps as unknown as JobStepDto[]) ?? [],
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    ...(job.replay ? { replay: job.replay as unknown as NonNullable<JobRecordDto['replay']> } : {}),
    links: {
      self,
      log: `${self}/log`,
      video: videoAvailable ? `${self}/video` : null,
      ...(job.screenshotPath ? { screenshot: `${self}/screenshot` } : {}),
      ...(job.actions ? { script: `${self}/script` } : {}),
    },
  };
}

/**
 * `metadata.secrets` holds values the agent types into the page (passwords, tokens); responses
 * show which secrets exist, never their values.
 */
export function maskSecrets(metadata: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!metadata || typeof metadata.secrets !== 'object' || metadata.secrets === null) return metadata ?? null;
  const masked = Object.fromEntries(Object.keys(metadata.secrets).map((name) => [name, '••••••']));
  return { ...metadata, secrets: masked };
}
