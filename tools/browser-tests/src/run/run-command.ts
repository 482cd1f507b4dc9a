import { mkdir, writeFile, appendFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_USAGE } from '../cli/cli-error.js';
import type { RunOptions } from '../cli/run-options.js';
import { LineView } from '../output/line-view.js';
import { LiveView } from '../output/live-view.js';
import { Redactor } from '../output/redactor.js';
import { formatSummary } from '../output/summary.printer.js';
import { ctrfReport } from '../reporters/ctrf.reporter.js';
import { githubAnnotations, githubSummary } from '../reporters/github.reporter.js';
import { junitXml } from '../reporters/junit.reporter.js';
import type { ReporterSpec } from '../reporters/reporter-spec.js';
import { RunnerClient } from '../runner/runner-client.js';
import { filterTests, findTestFiles, loadTests } from '../test-files/test-file.loader.js';
import { checkTests } from './check-command.js';
import { jobRequestOf, secretValuesOf } from './job-request.js';
import type { RunResult } from './run-result.js';
import type { RunObserver } from './run-observer.js';
import { SuiteRun, type PlannedTest } from './suite-runner.js';

export interface CommandIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  version: string;
}

/** `browser-tests run`: read, filter, run (or check) the tests, print the summary, write reports. */
export async function runCommand(options: RunOptions, io: CommandIo): Promise<number> {
  const files = await findTestFiles(options.patterns, io.cwd);
  if (files.length === 0)
    throw new CliError(`no test files match ${options.patterns.map((p) => `"${p}"`).join(' ')}`, EXIT_USAGE);
  const loaded = await loadTests(files, io.cwd);
  if (loaded.errors.length > 0)
    throw new CliError(
      `${loaded.errors.length} test file${loaded.errors.length === 1 ? '' : 's'} cannot be read:\n${loaded.errors.map((e) => `  ${e.message}`).join('\n')}`,
      EXIT_USAGE,
    );
  const tests = filterTests(loaded.tests, {
    ...(options.grep ? { grep: options.grep } : {}),
    tags: options.tags,
  });
  if (tests.length === 0)
    throw new CliError(`none of the ${loaded.tests.length} tests matches --grep/--tag`, EXIT_USAGE);

  const redactor = new Redactor([options.key, ...secretValuesOf(tests, io.env)]);
  const write = (line: string) => io.stdout.write(`${redactor.text(line)}\n`);
  const problems: string[] = [];
  const planned: PlannedTest[] = [];
  for (const test of tests) {
    try {
      planned.push({
        test,
        request: jobRequestOf(test, {
          ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
          ...(options.model ? { model: options.model } : {}),
          env: io.env,
        }),
      });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'), EXIT_USAGE);

  const client = new RunnerClient(options.runner, options.key);
  await client.verify();
  if (options.check) return checkTests(client, planned, write);

  return watchRun(options, io, redactor, (observer) => {
    const run = new SuiteRun({ client, parallel: options.parallel, retries: options.retries, observer });
    return { result: () => run.run(planned), interrupt: () => run.interrupt() };
  });
}

export interface WatchedRun {
  result(): Promise<RunResult>;
  /** Ctrl-C: cancel what has not ended; how many were cancelled and how many still run. */
  interrupt(): Promise<{ cancelled: number; running: number }>;
}

/**
 * What a local run and a stored suite's run share: the live or line view, Ctrl-C (a second one
 * leaves at once), the summary, the reports and the exit code.
 */
export async function watchRun(
  options: Pick<RunOptions, 'live' | 'reporters'>,
  io: CommandIo,
  redactor: Redactor,
  start: (observer: RunObserver) => WatchedRun,
  after: string[] = [],
): Promise<number> {
  const write = (line: string) => io.stdout.write(`${redactor.text(line)}\n`);
  // A terminal that reports no size (some CI pseudo-terminals) gets the line view.
  const live = options.live ?? Boolean(io.stdout.isTTY && io.stdout.rows);
  const view = live ? new LiveView(io.stdout, (text) => redactor.text(text)) : new LineView(write);
  const suite = start(view);

  let interrupts = 0;
  let cancelling: Promise<{ cancelled: number; running: number }> | undefined;
  const onSigint = () => {
    if (++interrupts > 1) {
      io.stderr.write('browser-tests: interrupted again, leaving without waiting\n');
      process.exit(EXIT_INTERRUPTED);
    }
    cancelling = suite.interrupt();
  };
  process.on('SIGINT', onSigint);
  let run: RunResult;
  try {
    run = await suite.result();
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (cancelling) {
    const { cancelled, running } = await cancelling;
    write(
      `Interrupted: cancelled ${cancelled} queued job${cancelled === 1 ? '' : 's'}${running ? `; ${running} running job${running === 1 ? '' : 's'} will finish on the runner (running jobs are never force-killed)` : ''}`,
    );
  }

  const safe = redactor.deep(run);
  write(formatSummary(safe));
  for (const line of after) write(line);
  await writeReports(options.reporters, safe, io, write);
  if (run.interrupted) return EXIT_INTERRUPTED;
  return safe.results.some((r) => r.status === 'failed') ? EXIT_FAILED : EXIT_PASSED;
}

async function writeReports(
  reporters: ReporterSpec[],
  run: RunResult,
  io: CommandIo,
  write: (line: string) => void,
): Promise<void> {
  for (const reporter of reporters) {
    if (reporter.type === 'github') {
      for (const line of githubAnnotations(run)) write(line);
      const file = io.env.GITHUB_STEP_SUMMARY;
      if (file) await appendFile(file, githubSummary(run));
      continue;
    }
    const text =
      reporter.type === 'junit' ? junitXml(run) : `${JSON.stringify(ctrfReport(run, io.version), null, 2)}\n`;
    const path = resolve(io.cwd, reporter.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    write(`Wrote ${reporter.type === 'junit' ? 'JUnit XML' : 'CTRF JSON'} to ${reporter.path}`);
  }
}
