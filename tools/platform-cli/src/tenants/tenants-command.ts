import { parseArgs } from 'node:util';
import { CliError, USAGE_EXIT_CODE } from '../cli-error.js';

export const TENANTS_HELP = `Usage: platform tenants <command> [--url <control plane>] [--token <admin token>]

Tenant databases of a deployment, through its control plane:
  status                      each server's capacity, projects, tenants behind the latest
                              platform_auth migration, and the upgrade sweep's progress
  upgrade                     have a project worker run the upgrade sweep now (resumable) and
                              print where it got (after 30 s at most)
  move <project-id> <server>  move a project's tenant database to another server of
                              TENANT_DATABASE_SERVERS (the project is read-only meanwhile)

Options:
      --url <url>      the control plane (default PLATFORM_URL, else http://127.0.0.1:8082)
      --token <token>  its admin token (default PLATFORM_ADMIN_TOKEN)
  -h, --help           show this help`;

interface ServerRow {
  server: string;
  capacity: number | null;
  listed: boolean;
  projects: number;
  behind: number;
  moving: number;
}
interface StatusBody {
  latest: string;
  servers: ServerRow[];
  upgrades: {
    state: string;
    startedAt: string | null;
    finishedAt: string | null;
    error: string | null;
    servers: { server: string; total: number; migrated: number; failed: number; state: string }[];
  };
}

/** `platform tenants …`: prints what the control plane answered; a refusal is a CliError. */
export async function runTenants(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    print(TENANTS_HELP);
    if (!command && !values.help) throw new CliError('a command is required (see above)', USAGE_EXIT_CODE);
    return;
  }
  const base = values.url ?? env.PLATFORM_URL ?? 'http://127.0.0.1:8082';
  const token = values.token ?? env.PLATFORM_ADMIN_TOKEN;
  if (!token)
    throw new CliError('the admin token is required (--token or PLATFORM_ADMIN_TOKEN)', USAGE_EXIT_CODE);
  const call = (method: string, path: string, body?: unknown) => request(base, token, method, path, body);

  switch (command) {
    case 'status':
      return printStatus((await call('GET', '/v1/tenant-servers')) as StatusBody, print);
    case 'upgrade':
      return printStatus((await call('POST', '/v1/tenant-servers/upgrade')) as StatusBody, print);
    case 'move': {
      const [projectId, server] = rest;
      if (!projectId || !server)
        throw new CliError('usage: platform tenants move <project-id> <server>', USAGE_EXIT_CODE);
      const moved = (await call('POST', `/v1/projects/${encodeURIComponent(projectId)}/move`, {
        server,
      })) as {
        from: string;
        to: string;
        readOnlyMs: number;
      };
      print(`moved ${projectId} from ${moved.from} to ${moved.to} (read-only for ${moved.readOnlyMs} ms)`);
      return;
    }
    default:
      throw new CliError(
        `unknown command "tenants ${command}" (see platform tenants --help)`,
        USAGE_EXIT_CODE,
      );
  }
}

async function request(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(new URL(path, base), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new CliError(`cannot reach the control plane at ${base}: ${(error as Error).message}`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const { code, message } = (json ?? {}) as { code?: string; message?: string };
    throw new CliError(`${res.status} ${code ?? ''}: ${message ?? text.slice(0, 200)}`.replace(' :', ':'));
  }
  return json;
}

function printStatus(status: StatusBody, print: (line: string) => void): void {
  print(`latest platform_auth migration: ${status.latest}`);
  const rows = [
    ['server', 'capacity', 'projects', 'behind', 'moving'],
    ...status.servers.map((row) => [
      row.listed ? row.server : `${row.server} (not listed!)`,
      row.capacity === null ? '-' : String(row.capacity),
      String(row.projects),
      String(row.behind),
      String(row.moving),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    print(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  const { upgrades } = status;
  print(`upgrade sweep: ${upgrades.state}${upgrades.error ? ` (${upgrades.error})` : ''}`);
  for (const server of upgrades.servers) {
    print(
      `  ${server.server}: ${server.migrated + server.failed}/${server.total} (${server.failed} failed), ${server.state}`,
    );
  }
}
