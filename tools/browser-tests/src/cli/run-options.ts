import { parseReporters, type ReporterSpec } from '../reporters/reporter-spec.js';
import type { PushOptions } from '../push/push-command.js';
import type { SuiteRunOptions } from '../run/suite-run-command.js';
import { CliError, EXIT_USAGE } from './cli-error.js';

/** The options of `browser-tests run` as commander hands them over (strings, from flags or env). */
export interface RawRunOptions {
  suite?: string;
  runner: string;
  key?: string;
  baseUrl?: string;
  parallel: string;
  grep?: string;
  tag?: string[];
  retries: string;
  model?: string;
  check?: boolean;
  reporter?: string[];
  live?: boolean;
}

export interface RunOptions {
  patterns: string[];
  runner: string;
  key: string;
  baseUrl?: string;
  parallel: number;
  grep?: string;
  tags: string[];
  retries: number;
  model?: string;
  check: boolean;
  reporters: ReporterSpec[];
  /** undefined: a live view when stdout is a terminal. */
  live?: boolean;
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max)
    throw new CliError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`, EXIT_USAGE);
  return n;
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${name} must be an http(s) URL (got "${value}")`, EXIT_USAGE);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`${name} must be an http(s) URL (got "${value}")`, EXIT_USAGE);
  return value;
}

function requireKey(key: string | undefined): string {
  if (!key)
    throw new CliError(
      'no API key: set BROWSER_TESTS_KEY (or pass --key); create one with `pnpm api-keys create --owner <you>`',
      EXIT_USAGE,
    );
  return key;
}

function suiteName(name: string | undefined): string {
  const trimmed = name?.trim();
  if (!trimmed) throw new CliError('--suite needs the suite’s name', EXIT_USAGE);
  return trimmed;
}

export function normalizeRunOptions(patterns: string[], raw: RawRunOptions): RunOptions {
  if (patterns.length === 0)
    throw new CliError(
      'give the test files to run, e.g. browser-tests run "tests/**/*.test.md" (or a stored suite: --suite NAME)',
      EXIT_USAGE,
    );
  requireKey(raw.key);
  if (raw.grep?.startsWith('/')) {
    const literal = /^\/(.+)\/([imsu]*)$/.exec(raw.grep);
    try {
      if (!literal) throw new Error('write it as /pattern/flags');
      new RegExp(literal[1]!, literal[2]);
    } catch (error) {
      throw new CliError(
        `--grep ${raw.grep} is not a valid pattern: ${(error as Error).message}`,
        EXIT_USAGE,
      );
    }
  }
  return {
    patterns,
    runner: httpUrl('--runner', raw.runner),
    key: raw.key!,
    ...(raw.baseUrl ? { baseUrl: httpUrl('--base-url', raw.baseUrl) } : {}),
    parallel: integer('--parallel', raw.parallel, 1, 100),
    ...(raw.grep ? { grep: raw.grep } : {}),
    tags: (raw.tag ?? [])
      .flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean),
    retries: integer('--retries', raw.retries, 0, 10),
    ...(raw.model ? { model: raw.model } : {}),
    check: raw.check ?? false,
    reporters: parseReporters(raw.reporter ?? []),
    ...(raw.live !== undefined ? { live: raw.live } : {}),
  };
}

/** Options a local run takes that a stored suite's run cannot (the runner keeps the suite). */
const LOCAL_ONLY = ['--base-url', '--parallel', '--grep', '--tag', '--retries', '--model', '--check'];

/** `run --suite NAME`: no files, and none of the options that shape a local run. */
export function normalizeSuiteRunOptions(
  patterns: string[],
  raw: RawRunOptions,
  given: string[],
): SuiteRunOptions {
  const name = suiteName(raw.suite);
  if (patterns.length > 0)
    throw new CliError(
      `give either test files or --suite, not both (to change suite "${name}", push the files: browser-tests push <files> --suite ${JSON.stringify(name)})`,
      EXIT_USAGE,
    );
  const refused = given.filter((flag) => LOCAL_ONLY.includes(flag));
  if (refused.length > 0)
    throw new CliError(
      `${refused.join(', ')} ${refused.length === 1 ? 'does' : 'do'} not apply to a stored suite (the runner runs it as pushed; push again to change it)`,
      EXIT_USAGE,
    );
  return {
    suite: name,
    runner: httpUrl('--runner', raw.runner),
    key: requireKey(raw.key),
    reporters: parseReporters(raw.reporter ?? []),
    ...(raw.live !== undefined ? { live: raw.live } : {}),
  };
}

/** The options of `browser-tests push` as commander hands them over. */
export interface RawPushOptions {
  suite: string;
  runner: string;
  key?: string;
  baseUrl?: string;
  schedule?: string;
  webhook?: string;
}

const NONE = /^(none|off|)$/i;

export function normalizePushOptions(patterns: string[], raw: RawPushOptions): PushOptions {
  return {
    patterns,
    suite: suiteName(raw.suite),
    runner: httpUrl('--runner', raw.runner),
    key: requireKey(raw.key),
    ...(raw.baseUrl ? { baseUrl: httpUrl('--base-url', raw.baseUrl) } : {}),
    ...(raw.schedule !== undefined
      ? { schedule: NONE.test(raw.schedule.trim()) ? null : raw.schedule.trim() }
      : {}),
    ...(raw.webhook !== undefined
      ? { webhook: NONE.test(raw.webhook.trim()) ? null : httpUrl('--webhook', raw.webhook.trim()) }
      : {}),
  };
}
