import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, USAGE_EXIT_CODE } from '../cli-error.js';
import { parseDevOptions } from './dev-options.js';

const dir = mkdtempSync(join(tmpdir(), 'platform-dev-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function failure(args: string[]): CliError {
  try {
    parseDevOptions(args, {});
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected a failure');
}

describe('parseDevOptions', () => {
  it('defaults to port 3000 and the platform_dev database', () => {
    expect(parseDevOptions([dir], {})).toEqual({ dir, port: 3000, database: 'platform_dev', verbose: false });
  });

  it('takes --port, --database (or PLATFORM_DEV_DATABASE) and --verbose', () => {
    expect(parseDevOptions([dir, '--port', '4010', '-v'], { PLATFORM_DEV_DATABASE: 'mine' })).toEqual({
      dir,
      port: 4010,
      database: 'mine',
      verbose: true,
    });
  });

  it('answers help', () => {
    expect(parseDevOptions(['--help'], {})).toBe('help');
  });

  it.each([
    [[], /the project directory is missing/],
    [[join(dir, 'absent')], /absent does not exist/],
    [[dir, '--port', 'http'], /--port must be a port number between 1 and 65535 \(got "http"\)/],
    [[dir, '--port', '70000'], /--port must be a port number/],
    [[dir, '--database', 'Bad-Name'], /--database must be a lower-case Postgres name/],
    [[dir, 'extra'], /unexpected argument: extra/],
    [[dir, '--colour'], /Unknown option '--colour'/],
  ])('refuses %j with a usage error', (args, message) => {
    const error = failure(args);
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(USAGE_EXIT_CODE);
    expect(error.message).toMatch(message);
  });

  it('refuses a file where a directory is expected', () => {
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(failure([file]).message).toMatch(/file.txt is not a directory/);
  });
});
