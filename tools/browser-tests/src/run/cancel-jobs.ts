import type { RunnerClient } from '../runner/runner-client.js';

/**
 * Ctrl-C: asks the runner to cancel each job; queued ones are cancelled, running ones finish on the
 * runner (it never force-kills). Resolves with how many were cancelled and how many still run.
 */
export async function cancelJobs(
  client: RunnerClient,
  ids: readonly string[],
): Promise<{ cancelled: number; running: number }> {
  let cancelled = 0;
  let running = 0;
  await Promise.all(
    ids.map(async (id) => {
      const answer = await client.cancel(id).catch(() => undefined);
      if (answer?.cancelled) cancelled++;
      else if (answer && answer.status === 'running') running++;
    }),
  );
  return { cancelled, running };
}
