/** The parts of the runner's job record (`GET /v1/jobs/{id}`) this command reads. */
export interface JobRecord {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  summary: string | null;
  error: string | null;
  steps: JobStep[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  links: { self: string; log: string; video: string | null; screenshot?: string };
}

export interface JobStep {
  index: number;
  text: string;
  action: string;
  status: string;
  duration_ms: number | null;
  error: string | null;
}

/** A `step` event of `GET /v1/jobs/{id}/events`: a step started or ended. */
export interface StepEvent {
  index: number;
  count: number;
  text: string;
  status: string;
  error: string | null;
}

export interface CreateJobRequest {
  query: string;
  initial_url?: string;
  model?: string;
  metadata?: Record<string, unknown>;
}

/** `POST /v1/instructions/check`. */
export interface InstructionCheck {
  model: string;
  readable: boolean;
  steps: { index: number; text: string; action?: string }[];
  summary?: string;
  unknown?: { index: number; text: string }[];
  phrasings?: string[];
}

export const FINAL_STATUSES: readonly JobRecord['status'][] = ['succeeded', 'failed', 'cancelled'];
export const isFinal = (job: JobRecord): boolean => FINAL_STATUSES.includes(job.status);
