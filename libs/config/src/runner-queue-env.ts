import { z } from 'zod';
import { envFields } from './env-fields.js';

/**
 * Fair share of the browser test runner between owners (see README "Fair share"). Read by jobs-api,
 * agent-gateway (they enqueue and dispatch) and browser-worker (it dispatches as jobs start and end):
 * all of them must agree.
 */
export const runnerQueueEnv = {
  /** Jobs of one owner waiting for a worker; one more is refused with 429 and Retry-After. */
  RUNNER_MAX_QUEUED_PER_OWNER: envFields.positiveInt(1000),
  /**
   * Jobs of one owner handed to workers at once; the rest wait their turn (never refused). Above a
   * usual fleet's browser count, so one owner alone still uses an idle fleet.
   */
  RUNNER_MAX_RUNNING_PER_OWNER: envFields.positiveInt(50),
  /**
   * Jobs handed to the workers' queue ahead of a free browser: more starts the next job sooner,
   * fewer lets a newcomer's job overtake more of a flood.
   */
  RUNNER_DISPATCH_AHEAD: envFields.positiveInt(2),
};

export type RunnerQueueEnv = z.infer<z.ZodObject<typeof runnerQueueEnv>>;
