import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import { ProjectResolver } from '../projects/project-resolver.js';
import { RecordingEvents, testConfig } from '../user-auth/testing/fakes.js';
import { ProjectsService } from './projects.service.js';
import { InMemoryProjects, InMemoryTenantUsers, RecordingTenants } from './testing/control-plane-fakes.js';
import { UsersAdminService } from './users-admin.service.js';
import { ProjectDirectory, type ProjectDirectoryOptions } from '@suite/project-runtime';

// A project's users as the control plane sees them, over in-memory repositories.

async function setup(devMode = false) {
  const config = testConfig();
  const projects = new ProjectsService(
    new InMemoryProjects(),
    new ProjectResolver(new ProjectDirectory({} as ProjectDirectoryOptions), config, undefined as never),
    new RecordingTenants(),
    undefined as never,
  );
  const users = new InMemoryTenantUsers();
  const events = new RecordingEvents();
  const admin = new UsersAdminService(users, projects, events, { PLATFORM_DEV_MODE: devMode });
  const project = await projects.create({ slug: 'acme', name: 'Acme' });
  const now = new Date();
  const row = (id: string, email: string, hasPassword: boolean, identityCount: number) => ({
    id,
    email,
    name: null,
    picture: null,
    emailVerified: false,
    pendingEmail: null,
    createdAt: now,
    updatedAt: now,
    hasPassword,
    identityCount,
  });
  users.users.set(`tenant_${project.id.replaceAll('-', '_')}`, [
    row('0190c1a2-0000-7000-8000-000000000001', 'ada@example.com', true, 0),
    row('0190c1a2-0000-7000-8000-000000000002', 'grace@example.com', false, 2),
  ]);
  return { admin, events, projectId: project.id };
}

describe('UsersAdminService', () => {
  it('lists users with how they sign in, never their secrets, searchable by email', async () => {
    const { admin, projectId } = await setup();
    const page = await admin.list(projectId, { search: 'GRACE' });
    expect(page).toMatchObject({ total: 1, page: 1 });
    expect(page.items).toEqual([
      expect.objectContaining({ email: 'grace@example.com', hasPassword: false, hasIdentityProvider: true }),
    ]);
    expect(Object.keys(page.items[0]!)).not.toContain('passwordHash');
  });

  it('deletes a user and fires user.deleted with the snapshot from before', async () => {
    const { admin, events, projectId } = await setup();
    await admin.remove(projectId, '0190c1a2-0000-7000-8000-000000000001');
    expect(events.published).toEqual([
      {
        kind: 'user.deleted',
        provider: 'dashboard',
        user: {
          id: '0190c1a2-0000-7000-8000-000000000001',
          email: 'ada@example.com',
          name: null,
          picture: null,
        },
      },
    ]);
    await expect(admin.remove(projectId, '0190c1a2-0000-7000-8000-000000000001')).rejects.toMatchObject({
      code: AuthErrorCode.NotFound,
      message: 'No user has the id "0190c1a2-0000-7000-8000-000000000001" in this project.',
    });
  });

  it('fires no user.deleted under the local development command', async () => {
    const { admin, events, projectId } = await setup(true);
    await admin.remove(projectId, '0190c1a2-0000-7000-8000-000000000002');
    expect(events.published).toEqual([]);
  });
});
