import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, USAGE_EXIT_CODE } from '../cli-error.js';

export interface DevOptions {
  /** The project directory, absolute. */
  dir: string;
  /** Port of the local address (http://localhost:<port>). */
  port: number;
  /** Postgres database of the local host (created and migrated when missing). */
  database: string;
  /** Every host log line, not only warnings and project output. */
  verbose: boolean;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_DATABASE = 'platform_dev';

export const DEV_HELP = `Usage: platform dev <dir> [--port 3000]

Serves a project directory at http://localhost:<port> with the same contract as a deployed
project host: /api/user/* (real end-user auth), the project's /api/* from <dir>/api/**, its auth
hook from <dir>/hooks/auth.ts, its MCP tools at /mcp from <dir>/mcp/** (with the OAuth consent
page MCP clients sign in on), its env from <dir>/.env, and the static files of <dir>/public/**.
Changes under api/, hooks/, jobs/, mcp/ and .env are redeployed; public/ is served as it is on disk.

Options:
  -p, --port <port>      local port (default ${DEFAULT_PORT})
      --database <name>  Postgres database of the local host (default ${DEFAULT_DATABASE}, or
                         PLATFORM_DEV_DATABASE)
  -v, --verbose          print every log line of the local host
  -h, --help             show this help

Mail goes to the SMTP server named by SMTP_HOST in <dir>/.env, else to a local mail sink whose
mails (subject, links, codes) are printed here. Identity-provider sign-in uses the project's own
client when <dir>/.env has IDP_CLIENT_ID and IDP_CLIENT_SECRET, else the platform's.
Ctrl-C stops everything the command started.`;

/** `platform dev` arguments → options; bad input is a CliError with the usage exit code. */
export function parseDevOptions(args: string[], env: NodeJS.ProcessEnv = process.env): DevOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        port: { type: 'string', short: 'p' },
        database: { type: 'string' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (parsed.values.help) return 'help';
  const [dirArg, ...extra] = parsed.positionals;
  if (!dirArg) throw usage('the project directory is missing: platform dev <dir>');
  if (extra.length) throw usage(`unexpected argument: ${extra[0]}`);

  const dir = resolve(dirArg);
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (!stats) throw usage(`${dirArg} does not exist`);
  if (!stats.isDirectory()) throw usage(`${dirArg} is not a directory`);

  const portText = parsed.values.port ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw usage(`--port must be a port number between 1 and 65535 (got "${portText}")`);
  }
  const database = parsed.values.database ?? env.PLATFORM_DEV_DATABASE ?? DEFAULT_DATABASE;
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) {
    throw usage(`--database must be a lower-case Postgres name such as platform_dev (got "${database}")`);
  }
  return { dir, port, database, verbose: parsed.values.verbose ?? false };
}

const usage = (message: string) => new CliError(`${message} (see platform dev --help)`, USAGE_EXIT_CODE);
