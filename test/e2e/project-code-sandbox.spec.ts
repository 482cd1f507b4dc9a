import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestProject, dropTestProject, type TestProject } from '../support/user-client.js';
import { deploy } from './project-code-harness.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// No unsafe fallback by accident: a host whose OS sandbox cannot start refuses to run project code
// (and says why and what setting would change that), while the plain process runs only when chosen.

const API = {
  'api/who.ts': `import { defineApi } from '@suite/platform-sdk';
    export default defineApi({ handler: () => ({ pid: process.pid }) });`,
};

const hosts: Host[] = [];
const projects: TestProject[] = [];

async function projectOn(host: Host): Promise<TestProject> {
  const created = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
  projects.push(created);
  return created;
}

afterAll(async () => {
  for (const host of hosts) await host.app.stop();
  for (const p of projects) await dropTestProject(infra.DATABASE_URL, p);
});

describe('a host where bubblewrap cannot start', () => {
  let host: Host;
  beforeAll(async () => {
    // Queues of its own: a working sandbox of another spec's worker must not run this host's hooks.
    host = await startProjectHost({
      ...GENEROUS_LIMITS,
      BWRAP_PATH: '/nonexistent/bwrap',
      REDIS_PREFIX: `${infra.REDIS_PREFIX}-no-sandbox`,
    });
    hosts.push(host);
  });

  it('refuses a deploy with 503 project_code_unavailable naming the setting, and still serves auth', async () => {
    const project = await projectOn(host);
    const res = await deploy(host, project.id, API);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'project_code_unavailable' });
    expect((res.json as { message: string }).message).toContain('PROJECT_CODE_SANDBOX=process');
    const register = await project.client.request('POST', '/api/user/auth/register', {
      json: { email: `sandboxless-${Date.now()}@example.com`, password: 'Correct-Horse-Battery-9' },
    });
    expect(register.status).toBe(201);
  });

  it("answers the project's routes with 503 project_code_unavailable (deployed through a working host)", async () => {
    const working = await startProjectHost({ ...GENEROUS_LIMITS });
    hosts.push(working);
    const project = await projectOn(host);
    expect((await deploy(working, project.id, API)).status).toBe(201);
    const res = await project.client.request('GET', '/api/who');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'project_code_unavailable' });
    expect(res.headers['retry-after']).toBe('5');
  });
});

describe('PROJECT_CODE_SANDBOX', () => {
  it('runs project code in a plain process only when set to process', async () => {
    const host = await startProjectHost({
      ...GENEROUS_LIMITS,
      PROJECT_CODE_SANDBOX: 'process',
      BWRAP_PATH: '/nonexistent/bwrap',
    });
    hosts.push(host);
    const project = await projectOn(host);
    expect((await deploy(host, project.id, API)).status).toBe(201);
    const res = await project.client.request<{ pid: number }>('GET', '/api/who');
    expect(res.status).toBe(200);
    expect(res.body.pid).not.toBe(1); // not in a PID namespace of its own
  });

  it('runs it in the OS sandbox by default (PID 1 of its own namespace)', async () => {
    const host = await startProjectHost({ ...GENEROUS_LIMITS });
    hosts.push(host);
    const project = await projectOn(host);
    expect((await deploy(host, project.id, API)).status).toBe(201);
    const res = await project.client.request<{ pid: number }>('GET', '/api/who');
    expect(res.status).toBe(200);
    expect(res.body.pid).toBe(1);
  });
});
