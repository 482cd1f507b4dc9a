import { CliError, EXIT_USAGE } from '../cli/cli-error.js';
import { Redactor } from '../output/redactor.js';
import { RunnerClient, RunnerRequestError } from '../runner/runner-client.js';
import type { ReporterSpec } from '../reporters/reporter-spec.js';
import { watchRun, type CommandIo } from './run-command.js';
import { StoredSuiteRun, suiteTestFiles } from './stored-suite-run.js';

export interface SuiteRunOptions {
  suite: string;
  runner: string;
  key: string;
  reporters: ReporterSpec[];
  live?: boolean;
}

/**
 * `browser-tests run --suite NAME`: the runner runs its stored suite (`POST /v1/suites/{id}/runs`,
 * one job per test); this follows the jobs like a local run: views, Ctrl-C, summary, reports.
 */
export async function suiteRunCommand(options: SuiteRunOptions, io: CommandIo): Promise<number> {
  const client = new RunnerClient(options.runner, options.key);
  await client.verify();
  const suite = await client.findSuite(options.suite);
  if (!suite)
    throw new CliError(
      `you have no suite named "${options.suite}" on ${client.baseUrl}; create it with \`browser-tests push <tests> --suite ${JSON.stringify(options.suite)}\``,
      EXIT_USAGE,
    );
  let run;
  try {
    run = await client.startSuiteRun(suite.id);
  } catch (error) {
    if (error instanceof RunnerRequestError)
      throw new CliError(`the runner did not start suite "${suite.name}": ${error.message}`, EXIT_USAGE);
    throw error;
  }
  const redactor = new Redactor([options.key]);
  io.stdout.write(
    `Suite "${suite.name}": run ${run.id}, ${run.total} job${run.total === 1 ? '' : 's'} queued\n`,
  );
  const tests = suiteTestFiles(suite);
  return watchRun(
    options,
    io,
    redactor,
    (observer) => {
      const watched = new StoredSuiteRun({ client, observer });
      return { result: () => watched.follow(run, tests), interrupt: () => watched.interrupt() };
    },
    [`Run page: ${client.suiteRunPage(suite.id, run.id)}`],
  );
}
