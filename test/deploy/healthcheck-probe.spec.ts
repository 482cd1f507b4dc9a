import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { repoPath } from './deploy-files.js';

// deploy/healthcheck.mjs is what Docker and compose run inside every service container; here it
// runs as a real process against a real HTTP server on loopback.
function probe(
  env: Record<string, string>,
  variable: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [repoPath('deploy/healthcheck.mjs'), variable], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('deploy/healthcheck.mjs', () => {
  let server: Server;
  let port = 0;
  let status = 200;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: status === 200 ? 'ok' : 'down' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports healthy when /health on the port named by the argument answers 200', async () => {
    status = 200;
    const result = await probe({ PORT: String(port) }, 'PORT');
    expect(result.code).toBe(0);
    expect(paths.at(-1)).toBe('/health');
  });

  it('follows the variable it is given (the worker’s HEALTH_PORT), not PORT', async () => {
    status = 200;
    expect((await probe({ HEALTH_PORT: String(port), PORT: '1' }, 'HEALTH_PORT')).code).toBe(0);
  });

  it('reports unhealthy on a non-2xx answer, and says what it got', async () => {
    status = 503;
    const result = await probe({ PORT: String(port) }, 'PORT');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/answered 503/);
  });

  it('reports unhealthy when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await probe({ PORT: String(freePort) }, 'PORT');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/failed/);
  });

  it('reports unhealthy when the port variable is missing or not a port', async () => {
    expect((await probe({}, 'PORT')).code).toBe(1);
    expect((await probe({ PORT: 'eighty' }, 'PORT')).code).toBe(1);
  });

  it('treats port 0 as a disabled listener (HEALTH_PORT=0), not as a failure', async () => {
    const result = await probe({ HEALTH_PORT: '0' }, 'HEALTH_PORT');
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/disabled/);
  });
});
