import type { RunnerClient } from '../runner/runner-client.js';
import { RunnerRequestError } from '../runner/runner-client.js';
import { EXIT_FAILED, EXIT_PASSED } from '../cli/cli-error.js';
import { lineOf } from './run-result.js';
import type { PlannedTest } from './suite-runner.js';

/**
 * `--check`: asks the runner to read each test (`POST /v1/instructions/check`), queueing nothing.
 * Prints each step it cannot read with its file and line; exit 1 when any test is unreadable.
 */
export async function checkTests(
  client: RunnerClient,
  planned: PlannedTest[],
  write: (line: string) => void,
): Promise<number> {
  let unreadable = 0;
  for (const { test, request } of planned) {
    try {
      const check = await client.check(request);
      if (check.readable) {
        write(
          `✓ ${test.file}: ${check.steps.length} step${check.steps.length === 1 ? '' : 's'} readable (${check.model})`,
        );
        continue;
      }
      unreadable++;
      write(`✗ ${test.file}: ${check.summary ?? 'some steps cannot be read'}`);
      for (const step of check.unknown ?? [])
        write(
          `  ${test.file}:${lineOf(step.text, step.index, check.steps.length, test) ?? '?'}: cannot read "${step.text}"`,
        );
    } catch (error) {
      if (!(error instanceof RunnerRequestError)) throw error;
      unreadable++;
      write(`✗ ${test.file}: ${error.message}`);
    }
  }
  write(`${planned.length - unreadable} readable, ${unreadable} not readable; nothing was queued`);
  return unreadable > 0 ? EXIT_FAILED : EXIT_PASSED;
}
