#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { buildProgram } from './cli/cli-program.js';
import { CliError, EXIT_USAGE } from './cli/cli-error.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), version };

const program = buildProgram(io, (code) => {
  process.exitCode = code;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // --help and --version end with code 0; a usage mistake (already printed) with 2.
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    return;
  }
  if (error instanceof CliError) {
    process.stderr.write(`browser-tests: ${error.message}\n`);
    process.exitCode = error.exitCode;
    return;
  }
  process.stderr.write(
    `browser-tests: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = EXIT_USAGE;
});
