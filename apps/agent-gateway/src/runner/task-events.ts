import { Injectable } from '@nestjs/common';
import { isSettledStatus, JobEventsHub, type JobEvent } from '@suite/jobs';

/**
 * For the A2A push-notification service only, until it moves to a worker app: "final" there means
 * settled (a task waiting for input gets its last notification, as one that ended).
 * @deprecated use JobEventsHub and isSettledStatus from @suite/jobs.
 */
export const isFinalStatus = isSettledStatus;

/**
 * The push-notification service's view of the process's one JobEventsHub.
 * @deprecated use JobEventsHub from @suite/jobs.
 */
@Injectable()
export class TaskEvents {
  constructor(private readonly hub: JobEventsHub) {}

  get shutdown(): AbortSignal {
    return this.hub.shutdown;
  }

  watch(jobId: string, onEvent: (event: JobEvent) => void): Promise<() => Promise<void>> {
    return this.hub.subscribe(jobId, onEvent);
  }

  waitForEnd(
    jobId: string,
    current: () => Promise<string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    return this.hub.waitUntilSettled(jobId, current, timeoutMs, signal);
  }
}
