import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

/**
 * Work a request starts but does not wait for (so its answer takes the same time whether or not an
 * account exists). Failures are logged; shutdown waits for what is still running.
 */
@Injectable()
export class BackgroundTasks implements BeforeApplicationShutdown {
  private readonly logger = new Logger('user-auth');
  private readonly running = new Set<Promise<void>>();

  run(what: string, task: () => Promise<void>): void {
    const promise: Promise<void> = task()
      .catch((error: unknown) => this.logger.error({ err: error }, `${what} failed`))
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
