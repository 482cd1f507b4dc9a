import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { mainMigrationsDir, tenantMigrationsDir } from './migration-paths.js';
import { migrateDatabase } from './migrator.js';
import {
  createMainClient,
  createTenantClient,
  TENANT_SCHEMA,
  type MainClient,
  type TenantClient,
} from './prisma-clients.js';
import { Prisma as MainPrisma } from './generated/main/client.js';
import { Prisma as TenantPrisma } from './generated/tenant/client.js';
import { readDatamodel } from './testing/prisma-dmmf.js';
import { actualStructure, expectedStructure, modelSchemas } from './testing/schema-catalog.js';
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from './testing/throwaway-database.js';

// The migrations are hand-written SQL (the native schema engine cannot be downloaded here), so
// these tests are what keeps them equal to the Prisma schemas: structure first, then real use.

const prismaDir = join(mainMigrationsDir(), '..');
const RUNNER_MODELS = [
  'ApiKey',
  'Job',
  'JobEvent',
  'A2aContext',
  'A2aMessage',
  'PushNotificationConfig',
  'ReplayScript',
  'StepResolution',
  'Suite',
  'SuiteRun',
];
const CONTROL_PLANE_MODELS = [
  'Project',
  'CustomDomain',
  'AuthSettings',
  'SmtpSettings',
  'MailLog',
  'Deployment',
  'SigningKey',
];

describe.each([
  {
    name: 'main',
    schemaFile: join(prismaDir, 'schema.prisma'),
    migrationsDir: mainMigrationsDir(),
    schema: 'public',
  },
  {
    name: 'tenant',
    schemaFile: join(prismaDir, 'tenant', 'schema.prisma'),
    migrationsDir: tenantMigrationsDir(),
    schema: TENANT_SCHEMA,
  },
])('$name migrations', ({ schemaFile, migrationsDir, schema }) => {
  let db: ThrowawayDatabase;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await migrateDatabase({ url: db.url, migrationsDir, schema });
  });
  afterAll(() => db.drop());

  it('create exactly the tables, columns, keys, indexes and enums the Prisma schema describes', async () => {
    const datamodel = await readDatamodel(schemaFile);
    const schemas = [...new Set([...modelSchemas(datamodel), 'public'])];
    const actual = await withClient(db.url, (client) => actualStructure(client, schemas));
    expect(actual).toEqual(expectedStructure(datamodel));
  });
});

describe('main database through the generated client', () => {
  let db: ThrowawayDatabase;
  let prisma: MainClient;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await migrateDatabase({ url: db.url, migrationsDir: mainMigrationsDir() });
    prisma = createMainClient(db.url);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  it('writes and reads a row of every runner model', async () => {
    const apiKey = await prisma.apiKey.create({
      data: {
        owner: 'alice',
        name: 'ci',
        prefix: 'sk_live_ab',
        hash: 'a'.repeat(64),
        lastUsedAt: new Date(),
      },
    });
    expect(apiKey).toMatchObject({ owner: 'alice', revokedAt: null });

    const context = await prisma.a2aContext.create({ data: { owner: 'alice' } });
    const job = await prisma.job.create({
      data: {
        owner: 'alice',
        query: 'open the home page and check the title',
        initialUrl: 'http://127.0.0.1:3000/',
        model: 'instruction-interpreter',
        metadata: { suite: 'smoke', nested: { keep: 'snake_case_keys' } },
        traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
        contextId: context.id,
        events: { create: [{ seq: 1, kind: 'status', data: { status: 'queued' } }] },
        messages: {
          create: [
            { contextId: context.id, messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
          ],
        },
        pushNotifications: {
          create: [
            {
              id: 'cfg-1',
              owner: 'alice',
              url: 'https://hooks.example/a2a',
              token: 't',
              authScheme: 'Bearer',
            },
          ],
        },
      },
    });
    expect(job).toMatchObject({
      status: 'queued',
      env: 'local_browser',
      highlightMouse: true,
      steps: [],
      attempts: 0,
      summary: null,
    });

    const running = await prisma.job.update({
      where: { id: job.id },
      data: {
        status: 'succeeded',
        env: 'hosted_browser',
        steps: [{ index: 0, action: 'open', ok: true }],
        summary: 'passed',
        error: null,
        attempts: { increment: 1 },
        workerId: 'worker-1',
        startedAt: new Date(),
        finishedAt: new Date(),
        logPath: 'jobs/x/agent.log',
        videoPath: 'jobs/x/video.mp4',
      },
    });
    expect(running.updatedAt.getTime()).toBeGreaterThanOrEqual(job.updatedAt.getTime());

    const read = await prisma.job.findUniqueOrThrow({
      where: { id: job.id },
      include: { events: true, messages: true, pushNotifications: true, context: true },
    });
    expect(read.metadata).toEqual({ suite: 'smoke', nested: { keep: 'snake_case_keys' } });
    expect(read.events[0]).toMatchObject({ seq: 1, kind: 'status', data: { status: 'queued' } });
    expect(typeof read.events[0]!.id).toBe('bigint');
    expect(read.messages[0]).toMatchObject({ role: 'ROLE_USER', taskId: job.id, parts: [{ text: 'hello' }] });
    expect(read.pushNotifications[0]).toMatchObject({ id: 'cfg-1', jobId: job.id, authCredentials: null });
    expect(read.context?.owner).toBe('alice');

    const listed = await prisma.job.findMany({
      where: { owner: 'alice', status: 'succeeded' },
      orderBy: { createdAt: 'desc' },
    });
    expect(listed.map((j) => j.id)).toEqual([job.id]);
    const script = await prisma.replayScript.create({
      data: {
        key: 'k',
        owner: 'alice',
        model: 'm',
        initialUrl: 'http://x/',
        query: 'q',
        script: 'open http://x/',
        llmCalls: 3,
        jobId: job.id,
      },
    });
    expect(await prisma.replayScript.findUnique({ where: { key: 'k' } })).toEqual(script);
    const steps = [{ index: 2, text: 'Give the cat a treat', actions: [{ step: { action: 'click' } }] }];
    const resolution = await prisma.stepResolution.create({
      data: { key: 'k', owner: 'alice', initialUrl: 'http://x/', query: 'q', steps, jobId: job.id },
    });
    expect(await prisma.stepResolution.findUnique({ where: { key: 'k' } })).toEqual(resolution);
    expect(resolution.steps).toEqual(steps);
    const suite = await prisma.suite.create({
      data: { owner: 'alice', name: 'smoke', tags: ['nightly'], tests: [{ title: 't', steps: ['Open /'] }] },
    });
    const run = await prisma.suiteRun.create({
      data: { suiteId: suite.id, owner: 'alice', trigger: 'manual', jobs: [{ title: 't', job_id: job.id }] },
    });
    expect(
      await prisma.suite.findUniqueOrThrow({ where: { id: suite.id }, include: { runs: true } }),
    ).toMatchObject({
      tags: ['nightly'],
      schedule: null,
      runs: [{ id: run.id, status: 'running', notified: false, finishedAt: null }],
    });
    expect(await countRows(prisma, RUNNER_MODELS)).not.toContain(0);
  });

  it('writes and reads a row of every control-plane model', async () => {
    const project = await prisma.project.create({
      data: {
        slug: `shop-${randomUUID().slice(0, 8)}`,
        name: 'Shop',
        tenantDatabase: 'tenant_x',
        domains: { create: [{ domain: 'shop.example.com', verificationToken: 'tok' }] },
        authSettings: { create: {} },
        smtpSettings: { create: { host: '127.0.0.1', port: 2525, from: 'Shop <no-reply@shop.example.com>' } },
        mailLog: { create: [{ kind: 'welcome', to: 'u@example.com', subject: 'Welcome' }] },
        signingKeys: {
          create: [
            {
              generation: 1,
              algorithm: 'EdDSA',
              publicJwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' },
              privateKeySealed: 'sealed',
            },
          ],
        },
        deployments: {
          create: [
            {
              version: 1,
              files: { 'api/hello.ts': 'export default 1' },
              hookBlocking: true,
              hookTimeoutMs: 5000,
            },
          ],
        },
      },
      include: { domains: true, authSettings: true, smtpSettings: true, mailLog: true, deployments: true },
    });
    expect(project.authSettings).toMatchObject({
      enabled: true,
      emailPassword: true,
      allowSignups: true,
      idpMode: 'platform',
      idpClientId: null,
    });
    expect(project.smtpSettings).toMatchObject({ port: 2525, secure: false, user: null });
    expect(project.domains[0]).toMatchObject({ verified: false, verifiedAt: null });
    expect(project.mailLog[0]).toMatchObject({ status: 'queued', error: null });
    expect(project.deployments[0]).toMatchObject({ status: 'pending', version: 1, hookBlocking: true });

    await prisma.authSettings.update({
      where: { projectId: project.id },
      data: { idpMode: 'custom', idpClientId: 'id', idpClientSecret: 'secret' },
    });
    await prisma.mailLog.updateMany({
      where: { projectId: project.id },
      data: { status: 'failed', error: 'ECONNREFUSED' },
    });
    await prisma.deployment.updateMany({ where: { projectId: project.id }, data: { status: 'active' } });
    await expect(
      prisma.customDomain.create({
        data: { projectId: project.id, domain: 'Shop.Example.com', verificationToken: 't' },
      }),
    ).rejects.toThrow(/custom_domains_domain_lower_check/);

    expect(await countRows(prisma, CONTROL_PLANE_MODELS)).not.toContain(0);

    await prisma.project.delete({ where: { id: project.id } });
    expect(await prisma.mailLog.count({ where: { projectId: project.id } })).toBe(0);
  });

  it('covers every model of the schema in the two tests above', () => {
    expect([...RUNNER_MODELS, ...CONTROL_PLANE_MODELS].sort()).toEqual(
      Object.values(MainPrisma.ModelName).sort(),
    );
  });
});

describe('tenant database through the generated client', () => {
  let db: ThrowawayDatabase;
  let prisma: TenantClient;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await migrateDatabase({ url: db.url, migrationsDir: tenantMigrationsDir(), schema: TENANT_SCHEMA });
    prisma = createTenantClient(db.url);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  it('writes and reads a row of every platform_auth model', async () => {
    const user = await prisma.user.create({
      data: {
        email: 'ada@example.com',
        name: 'Ada',
        passwordHash: 'scrypt$...',
        identities: {
          create: [{ issuer: 'https://idp.example', subject: 'sub-1', email: 'ada@example.com' }],
        },
        nonces: {
          create: [
            {
              kind: 'magic_link',
              codeHash: 'c'.repeat(64),
              email: 'ada@example.com',
              expiresAt: new Date(Date.now() + 900_000),
              redirectUri: 'http://localhost:5173/',
            },
          ],
        },
      },
    });
    expect(user).toMatchObject({ emailVerified: false, picture: null, pendingEmail: null });

    const familyId = randomUUID();
    const first = await prisma.session.create({
      data: {
        userId: user.id,
        familyId,
        tokenHash: '1'.repeat(64),
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
        userAgent: 'jest',
        ip: '127.0.0.1',
      },
    });
    const second = await prisma.session.create({
      data: { userId: user.id, familyId, tokenHash: '2'.repeat(64), expiresAt: first.expiresAt },
    });
    await prisma.session.update({
      where: { id: first.id },
      data: { replacedById: second.id, rotatedAt: new Date() },
    });

    const read = await prisma.user.findUniqueOrThrow({
      where: { email: 'ada@example.com' },
      include: { identities: true, sessions: { include: { replacedBy: true } }, nonces: true },
    });
    expect(read.identities[0]).toMatchObject({ issuer: 'https://idp.example', subject: 'sub-1' });
    expect(read.nonces[0]).toMatchObject({ kind: 'magic_link', consumedAt: null });
    const rotated = read.sessions.find((s) => s.id === first.id);
    expect(rotated?.replacedBy?.id).toBe(second.id);

    // An MCP client, the user's consent to it and a refresh token of its grant.
    const client = await prisma.oAuthClient.create({
      data: {
        id: 'mcp_client-1',
        name: 'Claude',
        redirectUris: ['http://127.0.0.1:5000/callback'],
        authMethod: 'none',
        metadata: { client_name: 'Claude' },
      },
    });
    await prisma.oAuthConsent.create({ data: { userId: user.id, clientId: client.id } });
    await prisma.session.create({
      data: {
        userId: user.id,
        familyId: randomUUID(),
        tokenHash: '3'.repeat(64),
        expiresAt: first.expiresAt,
        clientId: client.id,
      },
    });
    expect(await prisma.oAuthClient.findUniqueOrThrow({ where: { id: client.id } })).toMatchObject({
      redirectUris: ['http://127.0.0.1:5000/callback'],
      secretHash: null,
    });

    expect(await countRows(prisma, Object.values(TenantPrisma.ModelName))).not.toContain(0);

    await prisma.user.delete({ where: { id: user.id } });
    expect(await prisma.session.count()).toBe(0);
    expect(await prisma.oAuthConsent.count()).toBe(0);
  });

  it('refuses an email that is not lower case, so uniqueness cannot be dodged by case', async () => {
    await expect(prisma.user.create({ data: { email: 'Grace@Example.com' } })).rejects.toThrow(
      /users_email_lower_check/,
    );
  });

  it('keeps its tables out of public', async () => {
    const tables = await withClient(db.url, (client) =>
      client.query<{ schema: string }>(
        "SELECT DISTINCT table_schema AS schema FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
      ),
    );
    expect(tables.rows.map((row) => row.schema)).toEqual([TENANT_SCHEMA]);
  });
});

/** Row counts of the given models, in order. */
async function countRows(client: MainClient | TenantClient, models: readonly string[]): Promise<number[]> {
  const delegates = client as unknown as Record<string, { count(): Promise<number> }>;
  return Promise.all(
    models.map((model) => delegates[model.charAt(0).toLowerCase() + model.slice(1)]!.count()),
  );
}
