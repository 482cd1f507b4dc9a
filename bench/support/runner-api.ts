import { redisClient, type RedisClient } from './infra.ts';

/** A minimal client of the runner's /v1 API, and a follower of job status events over Redis pub/sub. */

export interface JobRecord {
  id: string;
  status: string;
  summary: string | null;
  error: string | null;
  steps: { index: number; status: string; action: string; error: string | null }[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface LogEntry {
  time: string;
  seq: number;
  outcome?: string;
  step?: number;
  action?: string;
  message?: string;
}

export const FINAL = ['succeeded', 'failed', 'cancelled'];

export class RunnerApi {
  readonly baseUrl: string;
  private readonly key: string;

  constructor(baseUrl: string, key: string) {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  private async call(path: string, init: RequestInit = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.key}`, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      throw new Error(
        `${init.method ?? 'GET'} ${this.baseUrl}${path}: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`,
        {
          cause: error,
        },
      );
    }
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res;
  }

  /** Submits a job; `respondedAt` is taken as soon as the whole response has arrived. */
  async submit(
    body: Record<string, unknown>,
  ): Promise<{ job: JobRecord; sentAt: number; respondedAt: number }> {
    const sentAt = Date.now();
    const res = await this.call('/v1/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const job = (await res.json()) as JobRecord;
    return { job, sentAt, respondedAt: Date.now() };
  }

  async get(id: string): Promise<JobRecord> {
    return (await (await this.call(`/v1/jobs/${id}`)).json()) as JobRecord;
  }

  /** Cancels a job that has not started (a started one is left to finish). */
  async cancel(id: string): Promise<void> {
    await this.call(`/v1/jobs/${id}`, { method: 'DELETE' });
  }

  async log(id: string): Promise<LogEntry[]> {
    const text = await (
      await this.call(`/v1/jobs/${id}/log`, { headers: { accept: 'application/x-ndjson' } })
    ).text();
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogEntry);
  }
}

interface StatusEvent {
  type: string;
  jobId: string;
  status?: string;
  at: string;
}

/**
 * Follows every job of the run's Redis prefix through the status events the worker publishes, so the
 * bench waits for jobs without polling the API (polling would compete for the same two cores).
 */
export class JobWatcher {
  private readonly redis: RedisClient;
  private readonly pattern: string;
  /** jobId → status → when the bench received the event (ms since epoch). */
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly waiters = new Map<string, () => void>();

  private constructor(redisUrl: string, prefix: string) {
    this.redis = redisClient(redisUrl);
    this.redis.on('pmessage', (_pattern, _channel, message) => {
      const event = JSON.parse(message) as StatusEvent;
      if (event.type !== 'status' || !event.status) return;
      const statuses = this.seen.get(event.jobId) ?? new Map<string, number>();
      statuses.set(event.status, Date.now());
      this.seen.set(event.jobId, statuses);
      if (FINAL.includes(event.status)) this.waiters.get(event.jobId)?.();
    });
    this.pattern = `${prefix}:job-events:*`;
  }

  static async open(redisUrl: string, prefix: string): Promise<JobWatcher> {
    const watcher = new JobWatcher(redisUrl, prefix);
    await watcher.redis.psubscribe(watcher.pattern);
    return watcher;
  }

  /** When the bench saw `status` for the job (ms since epoch), if it did. */
  receivedAt(jobId: string, status: string): number | undefined {
    return this.seen.get(jobId)?.get(status);
  }

  finalStatus(jobId: string): string | undefined {
    const statuses = this.seen.get(jobId);
    return statuses ? FINAL.find((s) => statuses.has(s)) : undefined;
  }

  /** Resolves with the time the job's final status arrived. */
  async waitForFinal(jobId: string, timeoutMs: number): Promise<number> {
    const done = (): number | undefined => {
      const status = this.finalStatus(jobId);
      return status ? this.receivedAt(jobId, status) : undefined;
    };
    const already = done();
    if (already !== undefined) return already;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(jobId);
        reject(new Error(`job ${jobId} did not finish within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(jobId, () => {
        clearTimeout(timer);
        this.waiters.delete(jobId);
        resolve();
      });
    });
    return done()!;
  }

  close(): void {
    this.redis.disconnect();
  }
}
