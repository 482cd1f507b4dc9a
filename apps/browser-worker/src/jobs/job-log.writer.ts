import type { ArtifactStore, JobEventsPublisher } from '@suite/jobs';

/**
 * Appends a job's log entries in order (one NDJSON line each) and publishes each as it is written,
 * so `GET /v1/jobs/{id}/log` and live watchers see the log while the job runs. `afterWrite` runs in
 * the same order, after the entry's line (the worker records step progress there).
 */
export class JobLogWriter {
  private chain: Promise<void> = Promise.resolve();
  private seq = 0;

  constructor(
    private readonly jobId: string,
    private readonly store: ArtifactStore,
    private readonly events: JobEventsPublisher,
    private readonly afterWrite: (entry: Record<string, unknown>) => Promise<void> = () => Promise.resolve(),
  ) {}

  write = (entry: Record<string, unknown>): Promise<void> => {
    // One sequence per job, whoever wrote the entry (the agent or the worker itself).
    const full: Record<string, unknown> = { time: new Date().toISOString(), ...entry, seq: ++this.seq };
    const line = JSON.stringify(full);
    this.chain = this.chain.then(async () => {
      await this.store.appendLog(this.jobId, `${line}\n`);
      const text = typeof full.text === 'string' ? full.text : String(full.message ?? '');
      await this.events
        .publish({ type: 'log', jobId: this.jobId, line: text, at: String(full.time) })
        .catch(() => undefined);
      await this.afterWrite(full).catch(() => undefined);
    });
    return this.chain;
  };

  flush(): Promise<void> {
    return this.chain;
  }
}
