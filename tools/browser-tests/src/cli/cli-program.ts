import { Command, Option } from 'commander';
import { pushCommand } from '../push/push-command.js';
import { runCommand, type CommandIo } from '../run/run-command.js';
import { suiteRunCommand } from '../run/suite-run-command.js';
import {
  normalizePushOptions,
  normalizeRunOptions,
  normalizeSuiteRunOptions,
  type RawPushOptions,
  type RawRunOptions,
} from './run-options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const runnerOption = () =>
  new Option('--runner <url>', 'the runner').env('BROWSER_TESTS_RUNNER').default('http://127.0.0.1:8080');
const keyOption = () =>
  new Option('--key <key>', 'API key of the runner (prefer the env var: a flag shows in ps)').env(
    'BROWSER_TESTS_KEY',
  );

/**
 * The command line: `browser-tests run <files…>`, `browser-tests run --suite NAME` and
 * `browser-tests push <files…> --suite NAME`; hands the exit code to `done`.
 */
export function buildProgram(io: CommandIo, done: (code: number) => void): Command {
  const program = new Command('browser-tests')
    .description('Run plain-English browser tests (*.test.md) on a browser test runner.')
    .version(io.version)
    .showHelpAfterError('(see browser-tests run --help)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program
    .command('run')
    .description(
      'run test files (globs or folders), or a suite stored on the runner (--suite), and report; exit 0 all passed, 1 a test failed, 2 usage/auth/connection errors, 130 Ctrl-C',
    )
    .argument('[files...]', 'test files, globs ("tests/**/*.test.md") or folders')
    .addOption(
      new Option(
        '--suite <name>',
        'run your suite of this name on the runner instead of files (see push); takes --reporter and --no-live',
      ),
    )
    .addOption(runnerOption())
    .addOption(keyOption())
    .addOption(
      new Option('--base-url <url>', 'relative start URLs of the tests resolve against it').env(
        'BROWSER_TESTS_BASE_URL',
      ),
    )
    .addOption(new Option('--parallel <n>', 'tests run at once').default('4'))
    .addOption(new Option('--grep <text>', 'only tests whose title or file contains it (or matches /regex/)'))
    .addOption(
      new Option('--tag <tags>', 'only tests with one of these tags (comma-separated, repeatable)').argParser(
        collect,
      ),
    )
    .addOption(
      new Option(
        '--retries <n>',
        'run a failing test again up to n times; passing on a retry is flaky',
      ).default('0'),
    )
    .addOption(new Option('--model <name>', 'run every test with this model (overrides the files)'))
    .addOption(new Option('--check', 'only check that the runner can read every step (nothing is queued)'))
    .addOption(
      new Option(
        '--reporter <list>',
        'reports to write: junit=FILE, ctrf=FILE, github (comma-separated, repeatable)',
      ).argParser(collect),
    )
    .addOption(new Option('--no-live', 'plain line-per-event output even in a terminal'))
    .action(async (files: string[], raw: RawRunOptions & { live: boolean }, command: Command) => {
      // commander's --no-live defaults live to true; only an explicit --no-live turns the live view off.
      const { live, ...rest } = raw;
      const options = { ...rest, ...(live === false ? { live: false } : {}) };
      if (raw.suite !== undefined) {
        const given = command.options
          .filter((o) => command.getOptionValueSource(o.attributeName()) === 'cli')
          .map((o) => o.long ?? o.attributeName());
        done(await suiteRunCommand(normalizeSuiteRunOptions(files, options, given), io));
        return;
      }
      done(await runCommand(normalizeRunOptions(files, options), io));
    });

  program
    .command('push')
    .description(
      'create or replace your suite NAME on the runner with these test files; the runner keeps them and runs them on demand (run --suite) or on --schedule',
    )
    .argument('<files...>', 'test files, globs ("tests/**/*.test.md") or folders')
    .requiredOption('--suite <name>', 'the suite to create or replace (its tests are replaced)')
    .addOption(runnerOption())
    .addOption(keyOption())
    .addOption(
      new Option(
        '--base-url <url>',
        'relative start URLs of the tests resolve against it (kept by the suite; default: the stored one)',
      ).env('BROWSER_TESTS_BASE_URL'),
    )
    .addOption(
      new Option(
        '--schedule <cron>',
        'run it on this cron pattern, in UTC (e.g. "0 6 * * *"); "none" removes it (default: the stored one)',
      ),
    )
    .addOption(
      new Option(
        '--webhook <url>',
        'POST a scheduled run’s failure and recovery there (public http(s) URL); "none" removes it (default: the stored one)',
      ),
    )
    .action(async (files: string[], raw: RawPushOptions) => {
      done(await pushCommand(normalizePushOptions(files, raw), io));
    });
  return program;
}
