#!/usr/bin/env node
import { CliError, USAGE_EXIT_CODE } from './cli-error.js';
import { runDev } from './dev/dev-command.js';
import { DEV_HELP, parseDevOptions } from './dev/dev-options.js';
import { runTenants } from './tenants/tenants-command.js';

const HELP = `Usage: platform <command> [options]

Commands:
  dev <dir>   serve a project directory locally (auth, APIs, hooks, static files) and
              redeploy it on every change; see platform dev --help
  tenants     a deployment's tenant databases: status, upgrade, move a project to another
              server; see platform tenants --help

Options:
  -h, --help  show this help`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    if (!command) process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  if (command === 'dev') {
    const options = parseDevOptions(rest);
    if (options === 'help') return void process.stdout.write(`${DEV_HELP}\n`);
    return runDev(options);
  }
  if (command === 'tenants') return runTenants(rest);
  throw new CliError(`unknown command "${command}" (see platform --help)`, USAGE_EXIT_CODE);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError) {
    process.stderr.write(`platform: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(
    `platform: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
