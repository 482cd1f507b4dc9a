import { CliError, EXIT_PASSED, EXIT_USAGE } from '../cli/cli-error.js';
import { Redactor } from '../output/redactor.js';
import { RunnerClient, RunnerRequestError } from '../runner/runner-client.js';
import type { CommandIo } from '../run/run-command.js';
import { findTestFiles, loadTests } from '../test-files/test-file.loader.js';
import { describeSuiteProblem, suiteBodyOf } from './suite-body.js';

export interface PushOptions {
  patterns: string[];
  suite: string;
  runner: string;
  key: string;
  baseUrl?: string;
  /** A cron pattern; null removes the schedule; undefined keeps the stored one. */
  schedule?: string | null;
  /** null removes the webhook; undefined keeps the stored one. */
  webhook?: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `browser-tests push`: reads the test files and creates the suite of that name on the runner,
 * or replaces its tests. Base URL, schedule and webhook not given keep their stored values.
 */
export async function pushCommand(options: PushOptions, io: CommandIo): Promise<number> {
  const files = await findTestFiles(options.patterns, io.cwd);
  if (files.length === 0)
    throw new CliError(`no test files match ${options.patterns.map((p) => `"${p}"`).join(' ')}`, EXIT_USAGE);
  const loaded = await loadTests(files, io.cwd);
  if (loaded.errors.length > 0)
    throw new CliError(
      `${plural(loaded.errors.length, 'test file')} cannot be read:\n${loaded.errors.map((e) => `  ${e.message}`).join('\n')}`,
      EXIT_USAGE,
    );

  const redactor = new Redactor([options.key]);
  const write = (line: string) => io.stdout.write(`${redactor.text(line)}\n`);
  const client = new RunnerClient(options.runner, options.key);
  await client.verify();
  const existing = await client.findSuite(options.suite);
  const { body, errors } = suiteBodyOf(loaded.tests, {
    name: options.suite,
    baseUrl: options.baseUrl ?? existing?.base_url ?? null,
    schedule: options.schedule === undefined ? (existing?.schedule ?? null) : options.schedule,
    webhook: options.webhook === undefined ? (existing?.webhook ?? null) : options.webhook,
  });
  if (errors.length > 0)
    throw new CliError(
      `${plural(errors.length, 'problem')} before pushing to suite "${options.suite}":\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
      EXIT_USAGE,
    );

  let saved;
  try {
    saved = await client.saveSuite(body, existing?.id);
  } catch (error) {
    if (!(error instanceof RunnerRequestError)) throw error;
    const detail = (error.body as { detail?: unknown } | undefined)?.detail;
    const lines = Array.isArray(detail)
      ? detail.map((d: { loc?: (string | number)[]; msg?: string }) => describeSuiteProblem(d, loaded.tests))
      : [error.message];
    throw new CliError(
      `the runner refused suite "${options.suite}":\n${lines.map((l) => `  ${l}`).join('\n')}`,
      EXIT_USAGE,
    );
  }
  write(
    `${existing ? 'Replaced' : 'Created'} suite "${saved.name}" (${saved.id}) with ${plural(saved.tests.length, 'test')}`,
  );
  write(`  base URL: ${saved.base_url ?? '(none: every test has an absolute url)'}`);
  write(`  schedule: ${saved.schedule ? `${saved.schedule} (UTC)` : 'none (runs on demand)'}`);
  // The webhook's path often holds a token (chat tools put it there): only its host is shown.
  if (saved.webhook) write(`  webhook:  ${new URL(saved.webhook).host}`);
  write(`Run it with: browser-tests run --suite ${JSON.stringify(saved.name)}`);
  write(`Its runs: ${client.baseUrl}/suites`);
  return EXIT_PASSED;
}
