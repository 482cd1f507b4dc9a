import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createMainClient,
  TenantClientCache,
  TenantServers,
  UnknownTenantServerError,
  type MainClient,
} from '@suite/db';
import { createRedisConnection } from '@suite/queue';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { ProjectDirectory } from './project-directory.js';
import { announceTenantMove } from './tenant-moves.js';

// The one way from a project's name to its tenant database, against the migrated test database and
// the real Redis: what it reads, what it caches, and what makes it read again.

const DATABASE_URL = process.env.DATABASE_URL!;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(3).toString('hex');

let db: MainClient;
let announcer: Redis;
const directories: ProjectDirectory[] = [];
const tenantClients = new TenantClientCache();

function directory(): ProjectDirectory {
  const made = new ProjectDirectory({
    db,
    tenantServers: TenantServers.fromSettings({
      DATABASE_URL,
      TENANT_DATABASE_SERVERS:
        'default=postgresql://postgres@127.0.0.1:5432/postgres,second=postgresql://postgres@127.0.0.1:5432/postgres',
    }),
    tenantClients,
    redisUrl: REDIS_URL,
    connectionName: `project-directory-spec-${run}`,
  });
  directories.push(made);
  return made;
}

async function newProject(name: string) {
  const id = randomUUID();
  const slug = `dir-${name}-${run}`;
  await db.project.create({
    data: {
      id,
      slug,
      name,
      tenantDatabase: `tenant_${id.replaceAll('-', '')}`,
      authSettings: { create: { allowSignups: false, redirectSchemes: ['myapp'] } },
      smtpSettings: { create: { host: 'smtp.test', port: 2525, from: 'a@b.test' } },
      domains: {
        create: [
          {
            domain: `app-${name}-${run}.example.test`,
            verified: true,
            verificationToken: 't1',
            verifiedAt: new Date(),
          },
          { domain: `pending-${name}-${run}.example.test`, verificationToken: 't2' },
        ],
      },
    },
  });
  return {
    id,
    slug,
    domain: `app-${name}-${run}.example.test`,
    pending: `pending-${name}-${run}.example.test`,
  };
}

/** Waits until `check` holds (a message over Redis arrives when it arrives). */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(20);
}

beforeAll(() => {
  db = createMainClient(DATABASE_URL);
  announcer = createRedisConnection(REDIS_URL, { connectionName: `project-directory-spec-announcer-${run}` });
});

afterAll(async () => {
  for (const made of directories) made.onApplicationShutdown();
  await db.project.deleteMany({ where: { slug: { endsWith: `-${run}` } } });
  announcer.disconnect();
  await tenantClients.disconnectAll();
  await db.$disconnect();
});

describe('ProjectDirectory', () => {
  it('finds a project by id, slug and verified custom domain, with its settings, as Prisma reads it', async () => {
    const project = await newProject('finds');
    const found = await directory().find({ slug: project.slug });
    const expected = await db.project.findUnique({
      where: { id: project.id },
      include: { authSettings: true, smtpSettings: true, domains: { orderBy: { createdAt: 'asc' } } },
    });
    expect(found).toEqual(expected);
    expect(await directory().find({ id: project.id })).toEqual(expected);
    expect(await directory().find({ domain: project.domain })).toEqual(expected);
  });

  it('finds nothing for an unknown slug or id, a pending domain, or an id that is no uuid', async () => {
    const project = await newProject('nothing');
    const dir = directory();
    expect(await dir.find({ slug: `nobody-${run}` })).toBeNull();
    expect(await dir.find({ id: randomUUID() })).toBeNull();
    expect(await dir.find({ domain: project.pending })).toBeNull();
    expect(await dir.find({ id: 'not-a-uuid' })).toBeNull();
  });

  it('gives the request path and ctx.db the same record: a project found by its slug is the one byId returns', async () => {
    const project = await newProject('same');
    const dir = directory();
    const bySlug = await dir.find({ slug: project.slug });
    // A change the control plane has not told this process about yet is not seen by either way.
    await db.project.update({ where: { id: project.id }, data: { name: 'renamed' } });
    expect(await dir.byId(project.id)).toBe(bySlug);
  });

  it('reads a project again as soon as the control plane says it changed', async () => {
    const project = await newProject('invalidate');
    const dir = directory();
    expect((await dir.find({ slug: project.slug }))?.name).toBe('invalidate');
    await db.project.update({ where: { id: project.id }, data: { name: 'changed' } });
    dir.invalidate();
    expect((await dir.find({ slug: project.slug }))?.name).toBe('changed');
    expect((await dir.byId(project.id))?.name).toBe('changed');
  });

  it('forgets where a project lived when another process announces its move, and tells its listeners', async () => {
    const project = await newProject('moves');
    const dir = directory();
    dir.onModuleInit();
    const moved: string[] = [];
    dir.onMove((projectId) => moved.push(projectId));
    expect((await dir.byId(project.id))?.tenantServer).toBe('default');
    await db.project.update({ where: { id: project.id }, data: { tenantServer: 'second' } });
    // The subscription is live once an announcement of our own comes back through it.
    const probe = randomUUID();
    await eventually(async () => {
      await announceTenantMove(announcer, probe);
      return moved.includes(probe);
    });
    await announceTenantMove(announcer, project.id);
    await eventually(() => moved.includes(project.id));
    expect((await dir.find({ slug: project.slug }))?.tenantServer).toBe('second');
  });

  it('names the tenant client of the server a row names, and refuses a server the setting does not list', async () => {
    const dir = directory();
    const location = { tenantServer: 'second', tenantDatabase: 'tenant_x' };
    expect(dir.tenantOf(location)).toBe(dir.tenantOf(location));
    expect(() => dir.tenantOf({ tenantServer: 'gone', tenantDatabase: 'tenant_x' })).toThrow(
      UnknownTenantServerError,
    );
  });
});
