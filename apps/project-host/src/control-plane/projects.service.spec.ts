import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode, RunnerErrorCode } from '@suite/errors';
import { ProjectResolver } from '../projects/project-resolver.js';
import { testConfig } from '../user-auth/testing/fakes.js';
import { ProjectsService } from './projects.service.js';
import { InMemoryProjects, RecordingTenants } from './testing/control-plane-fakes.js';
import {
  ProjectChangeAnnouncer,
  ProjectDirectory,
  type ProjectDirectoryOptions,
} from '@suite/project-runtime';

// The control plane's projects over an in-memory repository and tenant databases that only record
// what was asked of them: a project exists only with its users' database.

function setup() {
  const config = testConfig({
    PUBLIC_URL: 'https://control.example.test',
    PROJECT_HOST_DOMAIN: 'apps.example.test',
  });
  const records = new InMemoryProjects();
  const tenants = new RecordingTenants();
  // What is announced to every process over Redis pub/sub: [channel, message].
  const published: [string, string][] = [];
  const redis = {
    publish: (channel: string, message: string) => (published.push([channel, message]), Promise.resolve(1)),
  };
  const projects = new ProjectsService(
    records,
    new ProjectResolver(new ProjectDirectory({} as ProjectDirectoryOptions), config, undefined as never),
    tenants,
    new ProjectChangeAnnouncer(redis as never),
  );
  return { records, tenants, projects, published };
}

describe('ProjectsService', () => {
  it('creates a project with its tenant database and shows its hosts', async () => {
    const { projects, tenants, records } = setup();
    const view = await projects.create({ slug: 'acme', name: 'Acme' });

    expect(view).toMatchObject({ slug: 'acme', name: 'Acme', publicUrl: 'https://acme.apps.example.test' });
    expect(view.hosts).toEqual([`${view.id}.apps.example.test`, 'acme.apps.example.test']);
    expect(tenants.provisioned).toEqual([view.id]);
    expect(records.rows.get(view.id)?.tenantDatabase).toBe(tenants.nameOf(view.id));
  });

  it('refuses a slug that is taken with 409', async () => {
    const { projects, tenants } = setup();
    await projects.create({ slug: 'acme', name: 'Acme' });
    await expect(projects.create({ slug: 'acme', name: 'Other' })).rejects.toMatchObject({
      code: AuthErrorCode.InvalidRequest,
      status: 409,
      message: 'slug "acme" is already taken',
    });
    expect(tenants.provisioned).toHaveLength(1);
  });

  it('removes the project again when its tenant database cannot be provisioned', async () => {
    const { projects, tenants, records } = setup();
    tenants.failProvisioning = true;
    await expect(projects.create({ slug: 'acme', name: 'Acme' })).rejects.toMatchObject({
      code: RunnerErrorCode.ServiceUnavailable,
      message:
        'The project was not created: its tenant database could not be provisioned (permission denied to create database).',
    });
    expect(records.rows.size).toBe(0);
    expect(tenants.dropped).toHaveLength(1);
  });

  it("ends the project's code everywhere, deletes the tenant database, then the project; an unknown id is 404 project_not_found", async () => {
    const { projects, tenants, records, published } = setup();
    const { id } = await projects.create({ slug: 'acme', name: 'Acme' });
    await projects.remove(id);
    expect(published.map(([, message]) => JSON.parse(message) as unknown)).toEqual([{ p: id, c: 'deleted' }]);
    expect(tenants.dropped).toEqual([id]);
    expect(records.rows.size).toBe(0);
    await expect(projects.get(id)).rejects.toMatchObject({ code: AuthErrorCode.ProjectNotFound });
    await expect(projects.get('not-a-uuid')).rejects.toMatchObject({
      message: 'No project has the id "not-a-uuid".',
    });
  });

  it('lists newest first, a page at a time', async () => {
    const { projects } = setup();
    for (const slug of ['one', 'two', 'three']) await projects.create({ slug, name: slug });
    const page = await projects.list({ page: '1', pageSize: '2' });
    expect(page).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(page.items.map((item) => item.slug)).toEqual(['three', 'two']);
  });
});
