import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../cli-error.js';
import { runTenants } from './tenants-command.js';

// `platform tenants` against a stand-in control plane: what it sends, what it prints, and the
// exit codes of its refusals.

const TOKEN = 'tenants-cli-token-0123456789';
let server: Server;
let url = '';
const seen: { method: string; path: string; auth: string | undefined; body: string }[] = [];

const STATUS = {
  latest: '20261122000000_init',
  servers: [
    { server: 'default', capacity: 1000, listed: true, projects: 12, behind: 0, moving: 0 },
    { server: 'pg2', capacity: 3000, listed: true, projects: 30, behind: 2, moving: 1 },
    { server: 'old', capacity: null, listed: false, projects: 1, behind: 1, moving: 0 },
  ],
  upgrades: {
    state: 'running',
    startedAt: '2026-11-26T06:00:00.000Z',
    finishedAt: null,
    error: null,
    servers: [{ server: 'pg2', total: 10, migrated: 7, failed: 1, state: 'running' }],
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/tenant-servers' || req.url === '/v1/tenant-servers/upgrade') {
        res.end(JSON.stringify(STATUS));
      } else if (req.url?.endsWith('/move') && JSON.parse(body).server === 'pg2') {
        res.end(JSON.stringify({ id: 'p1', from: 'default', to: 'pg2', readOnlyMs: 812 }));
      } else {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            code: 'invalid-request',
            message: 'server "nowhere" is not in TENANT_DATABASE_SERVERS',
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function run(
  args: string[],
  env: NodeJS.ProcessEnv = { PLATFORM_URL: url, PLATFORM_ADMIN_TOKEN: TOKEN },
) {
  const lines: string[] = [];
  await runTenants(args, env, (line) => lines.push(line));
  return lines;
}

describe('platform tenants', () => {
  it('status prints every server (an unlisted one marked) and the sweep, with the admin token', async () => {
    const lines = await run(['status']);
    expect(lines).toEqual([
      'latest platform_auth migration: 20261122000000_init',
      'server             capacity  projects  behind  moving',
      'default            1000      12        0       0',
      'pg2                3000      30        2       1',
      'old (not listed!)  -         1         1       0',
      'upgrade sweep: running',
      '  pg2: 8/10 (1 failed), running',
    ]);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: '/v1/tenant-servers', auth: `Bearer ${TOKEN}` });
  });

  it('upgrade posts to the sweep endpoint', async () => {
    await run(['upgrade', '--url', url, '--token', TOKEN], {});
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/v1/tenant-servers/upgrade' });
  });

  it('move posts the server and prints the outcome', async () => {
    expect(await run(['move', 'p1', 'pg2'])).toEqual(['moved p1 from default to pg2 (read-only for 812 ms)']);
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/projects/p1/move',
      body: '{"server":"pg2"}',
    });
  });

  it('a refusal is a CliError with the control plane’s code and message (exit 1)', async () => {
    await expect(run(['move', 'p1', 'nowhere'])).rejects.toEqual(
      new CliError('400 invalid-request: server "nowhere" is not in TENANT_DATABASE_SERVERS', 1),
    );
  });

  it.each([
    [['move', 'p1'], /usage: platform tenants move <project-id> <server>/],
    [['shrink'], /unknown command "tenants shrink"/],
    [[], /a command is required/],
  ])('%j is bad usage (exit 2)', async (args, message) => {
    await expect(run(args)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(message) as unknown,
    });
  });

  it('without a token says where to put one (exit 2)', async () => {
    await expect(run(['status'], { PLATFORM_URL: url })).rejects.toMatchObject({
      exitCode: 2,
      message: 'the admin token is required (--token or PLATFORM_ADMIN_TOKEN)',
    });
  });

  it('an unreachable control plane is one clear line', async () => {
    await expect(
      run(['status'], { PLATFORM_URL: 'http://127.0.0.1:1', PLATFORM_ADMIN_TOKEN: TOKEN }),
    ).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/^cannot reach the control plane at http:\/\/127\.0\.0\.1:1/) as unknown,
    });
  });
});
