import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HostClient } from '../support/host-client.js';
import { strongPassword, uniqueEmail, type TestProject, type TokenPair } from '../support/user-client.js';
import type { Host } from './user-auth-harness.js';

// Shared by the project-code specs: deploy project code through the control plane, and read back
// what project code reports through its own database (its sandbox has no network).

export const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';

export function controlPlane(host: Host): HostClient {
  return new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN);
}

export function deploy(host: Host, projectId: string, files: Record<string, string>) {
  return controlPlane(host).post(`/v1/projects/${projectId}/deployments`, { files });
}

/** Deploys as a tar.gz (up to 5 MB, for file sets past the 64 KB JSON limit): 201 and its JSON, or the error. */
export async function deployArchive(
  host: Host,
  projectId: string,
  files: Record<string, string>,
): Promise<{ status: number; json: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'pc-deploy-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'project', path)), { recursive: true });
      writeFileSync(join(dir, 'project', path), text);
    }
    execFileSync('tar', ['-czf', join(dir, 'project.tgz'), '-C', join(dir, 'project'), '.']);
    const archive = readFileSync(join(dir, 'project.tgz'));
    return await new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: `/v1/projects/${projectId}/deployments`,
          method: 'POST',
          headers: {
            host: `localhost:${host.port}`,
            authorization: `Bearer ${ADMIN_TOKEN}`,
            'content-type': 'application/gzip',
            'content-length': String(archive.length),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => {
            let json: unknown = text;
            try {
              json = JSON.parse(text);
            } catch {
              // not JSON: kept as text
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
        },
      );
      req.on('error', reject);
      req.end(archive);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function signUp(project: TestProject): Promise<TokenPair & { email: string; password: string }> {
  const email = uniqueEmail('code');
  const password = strongPassword();
  const res = await project.client.request<TokenPair>('POST', '/api/user/auth/register', {
    json: { email, password, name: 'Ada' },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return { ...res.body, email, password };
}

/**
 * `api/reports.ts`: creates the project's `app.reports` table when missing and answers every row's
 * body, oldest first. Project code reports what it saw by inserting a row (`reportSql`) with ctx.db.
 */
export const REPORTS_API = {
  'api/reports.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ methods: ['GET'], handler: async ({ db }) => {
      await db.query('create table if not exists app.reports (id bigserial primary key, body jsonb not null)');
      return (await db.query('select body from app.reports order by id limit 1000')).rows.map((r) => r.body);
    } });`,
};

/** The statement project code reports with: `ctx.db.query(reportSql, [body])`. */
export const reportSql = 'insert into app.reports (body) values ($1::jsonb)';

/**
 * What a project's code reported through its own database (the sandbox has no network, so rows
 * written with ctx.db and read back through the project's API are its way to tell the test).
 */
export class Reports<T = Record<string, unknown>> {
  constructor(private readonly project: TestProject) {}

  /** Every report so far, oldest first (the first call creates the table: call it after deploying). */
  async all(): Promise<T[]> {
    const res = await this.project.client.request<T[]>('GET', '/api/reports');
    if (res.status !== 200) throw new Error(`GET /api/reports: ${res.status} ${res.text}`);
    return res.body;
  }

  async waitFor(predicate: (report: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reports = await this.all();
      const found = reports.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`nothing matching within ${timeoutMs} ms: ${JSON.stringify(reports)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
