import { SuiteRunStatus, type SuiteRunDto } from '@suite/contracts';
import { postWebhook, type WebhookOptions } from '@suite/push-delivery';
import { notificationEventOf, suiteNotification } from './suite-webhook.js';
import type { SuiteRepository } from './suite.repository.js';
import type { SuiteService } from './suite.service.js';

export interface ScheduledRunDeps {
  suites: SuiteRepository;
  service: SuiteService;
  /** The webhook policy and resolver of A2A push delivery. */
  webhook: WebhookOptions;
  /** How often a running scheduled run's jobs are looked at. */
  pollMs: number;
  log: { info(message: string): void; warn(message: string, error?: unknown): void };
}

export type TickOutcome =
  | { outcome: 'gone' }
  | { outcome: 'skipped'; runningRunId: string }
  | { outcome: 'refused'; error: unknown }
  | { outcome: 'finished'; run: SuiteRunDto; notified: boolean };

/**
 * One tick of a suite's job scheduler, in a worker: starts a scheduled run unless the previous
 * one is still going (then the tick is skipped), follows it until all its jobs have ended, and
 * notifies the suite's webhook of a failure or of the first success after failures. The queue
 * job stays active while the run goes on; BullMQ adds the next tick as this one starts, so a
 * tick that comes meanwhile finds the run going and is skipped.
 */
export class ScheduledRunService {
  constructor(private readonly deps: ScheduledRunDeps) {}

  async tick(suiteId: string, stopped: () => boolean = () => false): Promise<TickOutcome> {
    const suite = await this.deps.suites.find(suiteId);
    if (!suite || !suite.schedule) return { outcome: 'gone' };
    const [latestRow] = await this.deps.suites.listRuns(suite.id, 1, 'schedule');
    const [latest] = await this.deps.service.present(suite.owner, latestRow ? [latestRow] : []);
    if (latest?.status === SuiteRunStatus.Running) return { outcome: 'skipped', runningRunId: latest.id };
    // Its follower stopped (a worker shut down) before the run ended: its notification is due now.
    if (latest && !latestRow!.notified) await this.notify(suite.id, latest);
    let run: SuiteRunDto;
    try {
      run = await this.deps.service.startRun(suite, 'schedule');
    } catch (error) {
      this.deps.log.warn(`scheduled run of suite ${suite.id} was not started`, error);
      return { outcome: 'refused', error };
    }
    while (run.status === SuiteRunStatus.Running && !stopped()) {
      await new Promise((resolve) => setTimeout(resolve, this.deps.pollMs));
      const stored = await this.deps.suites.findRun(run.id);
      if (!stored) return { outcome: 'gone' }; // the suite was deleted meanwhile
      [run] = (await this.deps.service.present(suite.owner, [stored])) as [SuiteRunDto];
    }
    if (run.status === SuiteRunStatus.Running) return { outcome: 'finished', run, notified: false };
    return { outcome: 'finished', run, notified: await this.notify(suite.id, run) };
  }

  /** Decided once per run (whoever gets here first), after the run has finished. */
  private async notify(suiteId: string, run: SuiteRunDto): Promise<boolean> {
    const suite = await this.deps.suites.find(suiteId);
    if (!suite?.webhook || !(await this.deps.suites.claimNotification(run.id))) return false;
    const recent = await this.deps.service.present(
      suite.owner,
      await this.deps.suites.listRuns(suite.id, 20, 'schedule'),
    );
    const previous = recent
      .filter((other) => other.id !== run.id && other.created_at <= run.created_at)
      .find((other) => other.status !== SuiteRunStatus.Running);
    const event = notificationEventOf(run, previous);
    if (!event) return false;
    const body = suiteNotification(suite, run, event);
    for (let attempt = 1; ; attempt++) {
      try {
        await postWebhook(suite.webhook, body, this.deps.webhook);
        this.deps.log.info(`suite ${suite.id}: ${event} sent to ${new URL(suite.webhook).origin}`);
        return true;
      } catch (error) {
        if (attempt >= 3) {
          this.deps.log.warn(
            `suite ${suite.id}: webhook ${new URL(suite.webhook).origin} not notified`,
            error,
          );
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      }
    }
  }
}
