import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import type { ProjectHostConfig } from '../../apps/project-host/src/project-host.config.js';
import { ProjectResolver } from '../../apps/project-host/src/projects/project-resolver.js';
import type { TenantSchemaCheck } from '../../apps/project-host/src/projects/tenant-schema.check.js';
import { databaseUrl } from '../../libs/db/src/connection-url.js';
import { createMainClient, TenantClientCache, type MainClient } from '../../libs/db/src/prisma-clients.js';
import { TenantServers } from '../../libs/db/src/tenant-servers.js';
import { ProjectDirectory } from '../../libs/project-runtime/src/tenants/project-directory.js';
import { adminQuery, adminUrl, withClient } from '../../libs/db/src/testing/throwaway-database.js';
import { dropTenantDatabase, tenantDatabaseName } from '../../libs/db/src/tenant-provisioning.js';
import { createQueue, createRedisConnection, QueueName } from '../../libs/queue/src/index.js';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { HostClient } from '../support/host-client.js';
import { sql } from '../support/runner-client.js';
import { TxtDns } from '../support/txt-dns.js';

// The control-plane API of the BUILT project host, against this run's Postgres and Redis: tenant
// databases are really created and dropped, user.deleted really lands on the auth-hooks queue. A
// BUILT project worker beside it does the custom-domain DNS checks the host asks for.

const TOKEN = `cp-admin-${randomBytes(12).toString('hex')}`;
const PREFIX = `${process.env.REDIS_PREFIX}-control-plane`;
const run = randomBytes(3).toString('hex');
const slugOf = (name: string): string => `${name}-${run}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A loaded machine (browsers of other suites) can take a while to start a Node process.
const BOOT_TIMEOUT_MS = 300_000;

interface ProjectBody {
  id: string;
  slug: string;
  name: string;
  hosts: string[];
  publicUrl: string;
  auth: Record<string, unknown>;
  smtp: Record<string, unknown> | null;
  domains: { domain: string; verified: boolean; verificationToken: string }[];
}
interface PageBody<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}
interface ErrorBody {
  code: string;
  message: string;
}

const tenantSql = <T = Record<string, unknown>>(projectId: string, text: string, params: unknown[] = []) =>
  withClient(
    databaseUrl(adminUrl(), tenantDatabaseName(projectId)),
    async (client) => (await client.query(text, params)).rows as T[],
  );

const tenantExists = async (projectId: string): Promise<boolean> =>
  (await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [tenantDatabaseName(projectId)]))
    .rowCount === 1;

describe('control-plane API', () => {
  const apps: AppProcess[] = [];
  const created: string[] = [];
  let port = 0;
  let api: HostClient;

  const createProject = async (name: string): Promise<ProjectBody> => {
    const res = await api.post('/v1/projects', { slug: slugOf(name), name: `Project ${name}` });
    expect(res.status).toBe(201);
    const project = res.json as ProjectBody;
    created.push(project.id);
    return project;
  };

  const startHost = async (extra: NodeJS.ProcessEnv = {}): Promise<{ app: AppProcess; port: number }> => {
    const hostPort = await freePort();
    const app = startApp('project-host', {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: PREFIX,
      TENANT_ADMIN_DATABASE_URL: adminUrl(),
      PLATFORM_ADMIN_TOKEN: TOKEN,
      HOST: '127.0.0.1',
      PORT: String(hostPort),
      PUBLIC_URL: `http://localhost:${hostPort}`,
      PROJECT_HOST_DOMAIN: 'localhost',
      ...extra,
    });
    apps.push(app);
    await waitForHttp(`http://127.0.0.1:${hostPort}/health`, app);
    return { app, port: hostPort };
  };

  /** A project worker on `prefix`'s queues: it runs the custom-domain checks its hosts ask for. */
  const startWorker = async (extra: NodeJS.ProcessEnv = {}): Promise<AppProcess> => {
    const healthPort = await freePort();
    const app = startApp('project-worker', {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: PREFIX,
      TENANT_ADMIN_DATABASE_URL: adminUrl(),
      PLATFORM_ADMIN_TOKEN: TOKEN,
      HEALTH_PORT: String(healthPort),
      // Other specs' tenants share the database: no sweep of them from here.
      TENANT_UPGRADES_ON_BOOT: 'false',
      ...extra,
    });
    apps.push(app);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, app);
    return app;
  };

  // The custom domains' DNS: the project worker looks TXT records up here (and re-checks them
  // every second).
  const dns = new TxtDns();
  let dnsEnv: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    dnsEnv = { DOMAIN_DNS_SERVERS: `127.0.0.1:${await dns.start()}`, DOMAIN_RECHECK_INTERVAL_MS: '1000' };
    ({ port } = await startHost());
    await startWorker(dnsEnv);
    api = new HostClient(port, `localhost:${port}`, TOKEN);
  }, BOOT_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await dns.close();
    for (const projectId of created) {
      await dropTenantDatabase({ adminUrl: adminUrl(), projectId });
    }
    if (created.length) await sql('DELETE FROM projects WHERE id = ANY($1::uuid[])', [created]);
    const connection = createRedisConnection(process.env.REDIS_URL!);
    for (const name of [
      QueueName.AuthHooks,
      QueueName.Mail,
      QueueName.DomainChecks,
      QueueName.DomainRechecks,
      QueueName.TenantUpgrades,
    ]) {
      const queue = createQueue(name, connection, { prefix: PREFIX });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    connection.disconnect();
  });

  describe('access', () => {
    it('answers 401 unauthorized without a token, with a wrong one and with another scheme', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer wrong-token-0123456789' },
        { authorization: `Basic ${TOKEN}` },
      ]) {
        const res = await api.withToken(undefined).request('/v1/projects', { headers });
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ code: 'unauthorized', message: expect.any(String) });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
      const post = await api
        .withToken('x'.repeat(TOKEN.length))
        .post('/v1/projects', { slug: slugOf('nope') });
      expect(post.status).toBe(401);
      expect((await sql('SELECT 1 FROM projects WHERE slug = $1', [slugOf('nope')])).length).toBe(0);
    });

    it('is not served on a project host, even with the token', async () => {
      const project = await createProject('hosted');
      for (const host of [`${project.slug}.localhost`, `${project.id}.localhost`, 'unknown.localhost']) {
        const res = await api.at(host).get('/v1/projects');
        expect(res.status).toBe(404);
        expect((res.json as ErrorBody).code).toBe('project_not_found');
      }
    });
  });

  describe('projects', () => {
    it('creates a project with its hosts and a migrated tenant database (schema platform_auth)', async () => {
      const res = await api.post('/v1/projects', { slug: slugOf('acme'), name: 'Acme Shop' });
      expect(res.status).toBe(201);
      const project = res.json as ProjectBody;
      created.push(project.id);
      expect(project).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: slugOf('acme'),
        name: 'Acme Shop',
        hosts: [`${project.id}.localhost`, `${slugOf('acme')}.localhost`],
        publicUrl: `http://${slugOf('acme')}.localhost:${port}`,
        auth: { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' },
        smtp: null,
        domains: [],
      });

      expect(await tenantExists(project.id)).toBe(true);
      const tables = await tenantSql<{ table_name: string }>(
        project.id,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'platform_auth' ORDER BY 1`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['users', 'sessions', 'nonces']),
      );
    });

    it('takes the name from the slug when none is given', async () => {
      const project = await createProject('unnamed');
      const res = await api.post('/v1/projects', { slug: slugOf('bare') });
      expect(res.status).toBe(201);
      created.push((res.json as ProjectBody).id);
      expect((res.json as ProjectBody).name).toBe(slugOf('bare'));
      expect(project.name).toBe('Project unnamed');
    });

    it.each([
      [{}, /^slug is required/],
      [{ slug: 42 }, /^slug must be a string/],
      [{ slug: 'ab' }, /^slug must be 3 to 63 characters/],
      [{ slug: 'a'.repeat(64) }, /^slug must be at most 63 characters/],
      [{ slug: 'Acme' }, /^slug must use lower-case letters/],
      [{ slug: 'acme_shop' }, /^slug must use lower-case letters/],
      [{ slug: '-acme' }, /^slug must use lower-case letters/],
      [{ slug: 'acme-' }, /^slug must use lower-case letters/],
      [{ slug: 'www' }, /^slug "www" is reserved/],
      [{ slug: 'api' }, /^slug "api" is reserved/],
      [{ slug: 'admin' }, /^slug "admin" is reserved/],
      [{ slug: randomUUID() }, /^slug must not be a uuid/],
      [{ slug: 'fine-slug', name: '' }, /^name must not be empty/],
      [{ slug: 'fine-slug', name: 7 }, /^name must be a string/],
    ])('refuses %p with 400 invalid-request naming the field', async (body, message) => {
      const res = await api.post('/v1/projects', body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringMatching(message) });
    });

    it('refuses a body that is not a JSON object', async () => {
      for (const body of ['[1]', '"acme"', '{not json']) {
        const res = await api.request('/v1/projects', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect((res.json as ErrorBody).code).toBe('invalid-request');
      }
    });

    it('answers 409 for a slug that is taken, and creates nothing', async () => {
      const first = await createProject('taken');
      const res = await api.post('/v1/projects', { slug: first.slug, name: 'Second' });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringContaining(first.slug) });
      expect(await sql('SELECT name FROM projects WHERE slug = $1', [first.slug])).toEqual([
        { name: 'Project taken' },
      ]);
    });

    it('lists projects newest first, paginated, and shows one by id', async () => {
      const older = await createProject('list-a');
      const newer = await createProject('list-b');
      const page = (await api.get('/v1/projects?pageSize=100')).json as PageBody<ProjectBody>;
      const ids = page.items.map((p) => p.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      expect(page).toMatchObject({ page: 1, pageSize: 100, total: expect.any(Number) });

      const small = (await api.get('/v1/projects?pageSize=1&page=2')).json as PageBody<ProjectBody>;
      expect(small.items).toHaveLength(1);
      expect(small).toMatchObject({ page: 2, pageSize: 1 });

      const one = await api.get(`/v1/projects/${older.id}`);
      expect(one.status).toBe(200);
      expect(one.json).toMatchObject({ id: older.id, slug: older.slug, hosts: older.hosts, domains: [] });

      expect((await api.get('/v1/projects?pageSize=0')).json).toEqual({
        code: 'invalid-request',
        message: expect.stringMatching(/^pageSize must be a whole number from 1 to 100/),
      });
    });

    it('answers 404 project_not_found for an unknown or malformed id on every route', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const calls = [
          api.get(`/v1/projects/${id}`),
          api.put(`/v1/projects/${id}/auth`, {
            enabled: true,
            emailPassword: true,
            allowSignups: true,
            idpMode: 'off',
          }),
          api.put(`/v1/projects/${id}/smtp`, {
            host: 'smtp.test',
            port: 25,
            secure: false,
            from: 'a@b.test',
          }),
          api.post(`/v1/projects/${id}/domains`, { domain: 'x.example.test' }),
          api.get(`/v1/projects/${id}/users`),
          api.delete(`/v1/projects/${id}/users/${randomUUID()}`),
          api.get(`/v1/projects/${id}/emails`),
          api.delete(`/v1/projects/${id}`),
        ];
        for (const res of await Promise.all(calls)) {
          expect(res.status).toBe(404);
          expect((res.json as ErrorBody).code).toBe('project_not_found');
        }
      }
    });

    it('deletes a project with its tenant database', async () => {
      const project = await createProject('doomed');
      expect(await tenantExists(project.id)).toBe(true);
      const res = await api.delete(`/v1/projects/${project.id}`);
      expect(res.status).toBe(204);
      expect(await tenantExists(project.id)).toBe(false);
      expect((await api.get(`/v1/projects/${project.id}`)).status).toBe(404);
      const again = await api.post('/v1/projects', { slug: project.slug });
      expect(again.status).toBe(201); // the slug is free again
      created.push((again.json as ProjectBody).id);
    });

    it(
      'removes the project again when its tenant database cannot be provisioned',
      async () => {
        const deadPort = await freePort();
        const broken = await startHost({
          TENANT_ADMIN_DATABASE_URL: `postgresql://postgres@127.0.0.1:${deadPort}/postgres`,
        });
        const client = new HostClient(broken.port, `localhost:${broken.port}`, TOKEN);
        const res = await client.post('/v1/projects', { slug: slugOf('unprovisioned') });
        expect(res.status).toBe(503);
        expect((res.json as ErrorBody).message).toMatch(/tenant database could not be provisioned/);
        expect(await sql('SELECT 1 FROM projects WHERE slug = $1', [slugOf('unprovisioned')])).toEqual([]);
        await broken.app.stop();
      },
      BOOT_TIMEOUT_MS + 10_000,
    );
  });

  describe('settings', () => {
    let project: ProjectBody;
    beforeAll(async () => {
      project = await createProject('settings');
    });

    const authBody = { enabled: true, emailPassword: false, allowSignups: false, idpMode: 'custom' };

    it('saves auth settings and never shows the client secret back', async () => {
      const secret = `idp-secret-${run}`;
      const res = await api.put(`/v1/projects/${project.id}/auth`, {
        ...authBody,
        idpClientId: 'client-123',
        idpClientSecret: secret,
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        enabled: true,
        emailPassword: false,
        allowSignups: false,
        idpMode: 'custom',
        idpClientId: 'client-123',
        hasClientSecret: true,
        redirectSchemes: null,
        mcpEnabled: true,
      });
      const shown = await api.get(`/v1/projects/${project.id}`);
      expect((shown.json as ProjectBody).auth).toEqual(res.json);
      expect(shown.text).not.toContain(secret);
      expect((await api.get('/v1/projects?pageSize=100')).text).not.toContain(secret);
      expect(
        await sql('SELECT idp_client_secret FROM auth_settings WHERE project_id = $1', [project.id]),
      ).toEqual([{ idp_client_secret: secret }]);

      // Left out, the secret is kept (the dashboard cannot send back what it never saw).
      const again = await api.put(`/v1/projects/${project.id}/auth`, { ...authBody, allowSignups: true });
      expect(again.json).toMatchObject({
        allowSignups: true,
        idpClientId: 'client-123',
        hasClientSecret: true,
      });
      // Other modes keep the custom credentials for later; null clears them.
      const off = await api.put(`/v1/projects/${project.id}/auth`, {
        ...authBody,
        idpMode: 'off',
        idpClientId: null,
        idpClientSecret: null,
      });
      expect(off.json).toMatchObject({ idpMode: 'off', idpClientId: null, hasClientSecret: false });
    });

    it.each([
      [
        { ...authBody, idpClientId: 'id', idpClientSecret: null },
        /^idpClientSecret is required when idpMode is "custom"/,
      ],
      [{ ...authBody, idpClientSecret: 's' }, /^idpClientId is required when idpMode is "custom"/],
      [{ ...authBody, enabled: 'true' }, /^enabled must be true or false/],
      [{ ...authBody, emailPassword: undefined }, /^emailPassword is required/],
      [{ ...authBody, allowSignups: 1 }, /^allowSignups must be true or false/],
      [{ ...authBody, idpMode: 'off', mcpEnabled: 'yes' }, /^mcpEnabled must be true or false/],
      [{ ...authBody, idpMode: 'google' }, /^idpMode must be one of "platform", "custom", "off"/],
      [{ ...authBody, idpMode: 'platform', idpClientId: 5 }, /^idpClientId must be a string/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: 'myapp' }, /^redirectSchemes must be a list/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: ['x-safari-https'] }, /browser hand-off scheme/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: ['googlechrome'] }, /browser hand-off scheme/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: ['https'] }, /is a web scheme/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: ['javascript'] }, /refused scheme/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: ['my app'] }, /is not a URI scheme/],
      [{ ...authBody, idpMode: 'off', redirectSchemes: [7] }, /entry 0 must be a string/],
    ])('refuses auth settings %p with 400', async (body, message) => {
      const res = await api.put(`/v1/projects/${project.id}/auth`, body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringMatching(message) });
    });

    it('restricts redirect_uri app schemes to the redirectSchemes list; absent or null allows any but browser hand-off ones', async () => {
      const open = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'off' };
      const saved = await api.put(`/v1/projects/${project.id}/auth`, {
        ...open,
        redirectSchemes: ['com.shop.app', 'MyApp://'],
      });
      expect(saved.status).toBe(200);
      expect(saved.json).toMatchObject({ redirectSchemes: ['com.shop.app', 'myapp'] });
      expect(((await api.get(`/v1/projects/${project.id}`)).json as ProjectBody).auth).toMatchObject({
        redirectSchemes: ['com.shop.app', 'myapp'],
      });
      const host = api.at(project.hosts[1]!);
      // A fresh address each time: one address gets one mail a minute (AUTH_MAIL_COOLDOWN_SECONDS).
      let n = 0;
      const magic = (uri: string) =>
        host.get(
          `/api/user/auth/magic-link?email=nobody-${n++}-${run}%40example.com&redirect_uri=${encodeURIComponent(uri)}`,
        );
      expect((await magic('com.shop.app://auth/done')).status).toBe(200);
      expect((await magic('myapp://done')).status).toBe(200);
      const other = await magic('other.app://auth/done');
      expect(other.status).toBe(400);
      expect(other.json).toMatchObject({ code: 'invalid_redirect_uri' });
      // Web redirects follow the host rules, whatever the list says.
      expect((await magic('http://localhost:5173/cb')).status).toBe(200);

      const any = await api.put(`/v1/projects/${project.id}/auth`, open);
      expect(any.json).toMatchObject({ redirectSchemes: null });
      expect((await magic('other.app://auth/done')).status).toBe(200);
      // Browser hand-off schemes send the tokens to a web origin: refused with or without a list.
      for (const uri of ['x-safari-https://evil.example/', 'googlechrome://evil.example/', 'intent://x']) {
        const res = await magic(uri);
        expect({ uri, status: res.status }).toEqual({ uri, status: 400 });
      }
    });

    it('saves SMTP settings and never shows the password back', async () => {
      const pass = `smtp-pass-${run}`;
      const body = {
        host: 'smtp.example.test',
        port: 587,
        secure: false,
        user: 'mailer',
        pass,
        from: 'Acme <no-reply@acme.test>',
      };
      const res = await api.put(`/v1/projects/${project.id}/smtp`, body);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        host: 'smtp.example.test',
        port: 587,
        secure: false,
        user: 'mailer',
        hasPassword: true,
        from: 'Acme <no-reply@acme.test>',
        updatedAt: expect.any(String),
      });
      const shown = await api.get(`/v1/projects/${project.id}`);
      expect((shown.json as ProjectBody).smtp).toEqual(res.json);
      expect(shown.text).not.toContain(pass);

      const kept = await api.put(`/v1/projects/${project.id}/smtp`, {
        ...body,
        pass: undefined,
        port: 465,
        secure: true,
      });
      expect(kept.json).toMatchObject({ port: 465, secure: true, hasPassword: true });
      expect(await sql('SELECT pass FROM smtp_settings WHERE project_id = $1', [project.id])).toEqual([
        { pass },
      ]);
      const cleared = await api.put(`/v1/projects/${project.id}/smtp`, { ...body, user: null, pass: null });
      expect(cleared.json).toMatchObject({ user: null, hasPassword: false });
    });

    it.each([
      [{ port: 25, secure: false, from: 'a@b.test' }, /^host is required/],
      [
        { host: 'smtp .test', port: 25, secure: false, from: 'a@b.test' },
        /^host must be a host name or an IP address/,
      ],
      [
        { host: 'smtp.test', port: '25', secure: false, from: 'a@b.test' },
        /^port must be a whole number from 1 to 65535/,
      ],
      [{ host: 'smtp.test', port: 70000, secure: false, from: 'a@b.test' }, /^port must be a whole number/],
      [{ host: 'smtp.test', port: 25, secure: 'no', from: 'a@b.test' }, /^secure must be true or false/],
      [{ host: 'smtp.test', port: 25, secure: false, from: 'nobody' }, /^from must be a mail address/],
      [
        { host: 'smtp.test', port: 25, secure: false, from: 'a@b.test\r\nBcc: x@y.test' },
        /^from must not contain control characters/,
      ],
      [{ host: 'smtp.test', port: 25, secure: false }, /^from is required/],
      [{ host: 'smtp.test', port: 25, secure: false, from: 'a@b.test', user: 3 }, /^user must be a string/],
    ])('refuses SMTP settings %p with 400', async (body, message) => {
      const res = await api.put(`/v1/projects/${project.id}/smtp`, body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringMatching(message) });
    });
  });

  describe('custom domains', () => {
    let project: ProjectBody;
    let resolver: ProjectResolver;
    let db: MainClient;
    const verifiedDomain = `app-${run}.example.test`;
    const pendingDomain = `pending-${run}.example.test`;

    beforeAll(async () => {
      project = await createProject('domains');
      db = createMainClient(process.env.DATABASE_URL!);
      // The host's own resolver over the same database: what a fresh project-host process would see.
      // (Sources and built packages meet here: their types are told apart, their shapes agree.)
      const directory = new ProjectDirectory({
        db,
        tenantServers: TenantServers.fromSettings({ DATABASE_URL: process.env.DATABASE_URL! }),
        tenantClients: new TenantClientCache(),
        redisUrl: 'redis://unused',
        connectionName: 'control-plane-spec',
      } as unknown as ConstructorParameters<typeof ProjectDirectory>[0]);
      resolver = new ProjectResolver(
        directory as unknown as ConstructorParameters<typeof ProjectResolver>[0],
        { PUBLIC_URL: `http://localhost:${port}`, PROJECT_HOST_DOMAIN: 'localhost' } as ProjectHostConfig,
        { ensureCurrent: async () => undefined } as unknown as TenantSchemaCheck,
      );
    });
    afterAll(async () => {
      await db.$disconnect();
    });

    const txt = (domain: string) => `_platform-verification.${domain}`;
    const serves = async (domain: string): Promise<boolean> => {
      const res = await api.at(domain).get('/api/user/me');
      return (res.json as ErrorBody | undefined)?.code !== 'project_not_found';
    };
    const shownDomain = async (domain: string) =>
      ((await api.get(`/v1/projects/${project.id}`)).json as ProjectBody).domains.find(
        (d) => d.domain === domain,
      );

    it('adds a domain that serves the project only once its DNS TXT record holds the token', async () => {
      // verified: true is the admin's word, honoured only with a development setting (not here).
      const res = await api.post(`/v1/projects/${project.id}/domains`, {
        domain: verifiedDomain.toUpperCase() + '.',
        verified: true,
      });
      expect(res.status).toBe(201);
      const token = (res.json as { verificationToken: string }).verificationToken;
      expect(res.json).toEqual({
        id: expect.any(String),
        domain: verifiedDomain,
        verified: false,
        verifiedAt: null,
        verificationToken: expect.stringMatching(/^[0-9a-f]{32}$/),
        dnsRecord: {
          type: 'TXT',
          name: `_platform-verification.${verifiedDomain}`,
          value: `platform-verification=${token}`,
        },
        createdAt: expect.any(String),
      });
      expect(dns.asked).toContain(txt(verifiedDomain));
      expect(await serves(verifiedDomain)).toBe(false);

      // The owner publishes the record; the check (asked for, or periodic) verifies the domain.
      dns.records.set(txt(verifiedDomain), ['some-other=record', `platform-verification=${token}`]);
      const verified = await api.post(`/v1/projects/${project.id}/domains/${verifiedDomain}/verify`, {});
      expect(verified.status).toBe(200);
      expect(verified.json).toMatchObject({
        domain: verifiedDomain,
        verified: true,
        verifiedAt: expect.any(String),
      });
      const shown = (await api.get(`/v1/projects/${project.id}`)).json as ProjectBody;
      expect(shown.hosts).toEqual([`${project.id}.localhost`, `${project.slug}.localhost`, verifiedDomain]);

      resolver.invalidate();
      const resolved = await resolver.resolve(`${verifiedDomain}:${port}`);
      expect(resolved).toMatchObject({ kind: 'project', context: { project: { id: project.id } } });
      // Over HTTP the host is a project host now: whatever /api/user/me answers, it is not "no project".
      expect(await serves(verifiedDomain)).toBe(true);
    });

    it('keeps a domain pending while its record is missing or holds another token', async () => {
      const res = await api.post(`/v1/projects/${project.id}/domains`, { domain: pendingDomain });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ domain: pendingDomain, verified: false, verifiedAt: null });
      expect(await resolver.resolve(pendingDomain)).toEqual({ kind: 'unknown', host: pendingDomain });
      const shown = (await api.get(`/v1/projects/${project.id}`)).json as ProjectBody;
      expect(shown.hosts).not.toContain(pendingDomain);
      const before = await api.at(pendingDomain).get('/api/user/me');
      expect(before.status).toBe(404);
      expect((before.json as ErrorBody).code).toBe('project_not_found');

      // Posting it again with verified: true changes nothing without the development setting.
      const again = await api.post(`/v1/projects/${project.id}/domains`, {
        domain: pendingDomain,
        verified: true,
      });
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ domain: pendingDomain, verified: false });
      dns.records.set(txt(pendingDomain), ['platform-verification=0123456789abcdef0123456789abcdef']);
      const wrong = await api.post(`/v1/projects/${project.id}/domains/${pendingDomain}/verify`, {});
      expect(wrong.json).toMatchObject({ verified: false });
      expect(await serves(pendingDomain)).toBe(false);

      // The right token: posting it again checks again, and the host forgets its cached "unknown".
      const token = (res.json as { verificationToken: string }).verificationToken;
      dns.records.set(txt(pendingDomain), [`platform-verification=${token}`]);
      const posted = await api.post(`/v1/projects/${project.id}/domains`, { domain: pendingDomain });
      expect(posted.status).toBe(200);
      expect(posted.json).toMatchObject({ domain: pendingDomain, verified: true });
      expect(await serves(pendingDomain)).toBe(true);
      expect((await api.post(`/v1/projects/${project.id}/domains/nope.example.test/verify`, {})).status).toBe(
        404,
      );
    });

    it('re-checks domains periodically: a record that appears verifies, one that is gone un-verifies', async () => {
      const domain = `periodic-${run}.example.test`;
      const res = await api.post(`/v1/projects/${project.id}/domains`, { domain });
      const token = (res.json as { verificationToken: string }).verificationToken;
      expect(res.json).toMatchObject({ verified: false });
      dns.records.set(txt(domain), [`platform-verification=${token}`]);
      for (let i = 0; i < 300 && !(await shownDomain(domain))?.verified; i++) await sleep(100);
      expect(await shownDomain(domain)).toMatchObject({ verified: true });
      // The worker changed the row: hosts serve it once their project cache (a few seconds) ends.
      for (let i = 0; i < 100 && !(await serves(domain)); i++) await sleep(100);
      expect(await serves(domain)).toBe(true);
      // The owner (or whoever holds the domain now) removed the record.
      dns.records.set(txt(domain), []);
      for (let i = 0; i < 300 && (await shownDomain(domain))?.verified; i++) await sleep(100);
      expect(await shownDomain(domain)).toMatchObject({ verified: false, verifiedAt: null });
      for (let i = 0; i < 100 && (await serves(domain)); i++) await sleep(100);
      expect(await serves(domain)).toBe(false);
    });

    it('honours verified: true only with the development setting DOMAIN_VERIFIED_BY_ADMIN', async () => {
      const dev = await startHost({ DOMAIN_VERIFIED_BY_ADMIN: 'true' });
      const devApi = new HostClient(dev.port, `localhost:${dev.port}`, TOKEN);
      const domain = `dev-${run}.example.test`;
      const res = await devApi.post(`/v1/projects/${project.id}/domains`, { domain, verified: true });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ domain, verified: true, verifiedAt: expect.any(String) });
      // Without the setting the same request leaves the domain to its DNS check.
      const other = `nodev-${run}.example.test`;
      const refused = await api.post(`/v1/projects/${project.id}/domains`, { domain: other, verified: true });
      expect(refused.json).toMatchObject({ domain: other, verified: false });
    });

    it('answers 409 when another project has the domain', async () => {
      const other = await createProject('domains-other');
      const res = await api.post(`/v1/projects/${other.id}/domains`, {
        domain: verifiedDomain,
        verified: true,
      });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringContaining(verifiedDomain) });
    });

    it.each([
      [{}, /^domain is required/],
      [{ domain: 'localhost' }, /^domain must be a host name such as app.example.com/],
      [{ domain: 'bad_name.example.test' }, /^domain must be a host name such as/],
      [{ domain: 'https://app.example.test' }, /^domain must be a host name such as/],
      [{ domain: 'app.example.test:8443' }, /^domain must be a host name such as/],
      [{ domain: '10.0.0.1' }, /^domain must be a host name, not an IP address/],
      [{ domain: 'shop.localhost' }, /^domain must not be under localhost/],
      [{ domain: 'ok.example.test', verified: 'yes' }, /^verified must be true or false/],
    ])('refuses %p with 400', async (body, message) => {
      const res = await api.post(`/v1/projects/${project.id}/domains`, body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 'invalid-request', message: expect.stringMatching(message) });
    });
  });

  describe('custom domains without a project worker', () => {
    // A host whose queues no worker consumes yet (a Redis prefix of its own): whatever the old
    // re-check settings say, it looks nothing up itself.
    const alonePrefix = `${PREFIX}-no-worker`;
    const aloneDns = new TxtDns();
    let aloneDnsEnv: NodeJS.ProcessEnv = {};
    let alone: HostClient;

    beforeAll(async () => {
      aloneDnsEnv = { DOMAIN_DNS_SERVERS: `127.0.0.1:${await aloneDns.start()}` };
      const host = await startHost({
        ...aloneDnsEnv,
        REDIS_PREFIX: alonePrefix,
        DOMAIN_RECHECK_INTERVAL_MS: '200',
        DOMAIN_CHECK_WAIT_MS: '500',
      });
      alone = new HostClient(host.port, `localhost:${host.port}`, TOKEN);
    }, BOOT_TIMEOUT_MS + 10_000);
    afterAll(async () => {
      await aloneDns.close();
      const connection = createRedisConnection(process.env.REDIS_URL!);
      for (const name of [QueueName.DomainChecks, QueueName.DomainRechecks, QueueName.TenantUpgrades]) {
        const queue = createQueue(name, connection, { prefix: alonePrefix });
        await queue.obliterate({ force: true });
        await queue.close();
      }
      connection.disconnect();
    });

    it('leaves DNS to the project worker: the check waits queued, and a worker that comes up verifies the domain', async () => {
      const project = await createProject('domains-alone');
      const domain = `alone-${run}.example.test`;
      const res = await alone.post(`/v1/projects/${project.id}/domains`, { domain });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ domain, verified: false });
      const token = (res.json as { verificationToken: string }).verificationToken;
      aloneDns.records.set(`_platform-verification.${domain}`, [`platform-verification=${token}`]);
      // Many of the old re-check intervals later, nobody looked: no timer runs in the host.
      await sleep(2_000);
      expect(aloneDns.asked).toEqual([]);
      const shown = async () =>
        ((await alone.get(`/v1/projects/${project.id}`)).json as ProjectBody).domains.find(
          (d) => d.domain === domain,
        );
      expect(await shown()).toMatchObject({ verified: false });

      // A project worker comes up (its re-check off): the check the host queued runs.
      await startWorker({ ...aloneDnsEnv, REDIS_PREFIX: alonePrefix, DOMAIN_RECHECK_INTERVAL_MS: '0' });
      for (let i = 0; i < 300 && !(await shown())?.verified; i++) await sleep(100);
      expect(await shown()).toMatchObject({ verified: true });
      expect(aloneDns.asked).toContain(`_platform-verification.${domain}`);
    });
  });

  describe('end users', () => {
    let project: ProjectBody;
    const users = {
      alice: {
        id: randomUUID(),
        email: 'alice@example.test',
        name: 'Alice',
        passwordHash: '$2b$10$hash-alice',
      },
      bob: { id: randomUUID(), email: 'bob_smith@example.test', name: null, passwordHash: null },
      carol: {
        id: randomUUID(),
        email: 'carol@other.test',
        name: 'Carol',
        passwordHash: '$2b$10$hash-carol',
      },
    };

    beforeAll(async () => {
      project = await createProject('users');
      let minute = 0;
      for (const user of Object.values(users)) {
        await tenantSql(
          project.id,
          `INSERT INTO platform_auth.users (id, email, name, password_hash, created_at)
           VALUES ($1, $2, $3, $4, now() - make_interval(mins => $5))`,
          [user.id, user.email, user.name, user.passwordHash, 10 - minute++],
        );
      }
      await tenantSql(
        project.id,
        `INSERT INTO platform_auth.identities (id, user_id, issuer, subject, email) VALUES ($1, $2, 'https://idp.test', 'sub-bob', $3)`,
        [randomUUID(), users.bob.id, users.bob.email],
      );
    });

    it('lists users newest first, without password hashes', async () => {
      const res = await api.get(`/v1/projects/${project.id}/users`);
      expect(res.status).toBe(200);
      const page = res.json as PageBody<Record<string, unknown>>;
      expect(page).toMatchObject({ page: 1, pageSize: 20, total: 3 });
      expect(page.items.map((u) => u.email)).toEqual([users.carol.email, users.bob.email, users.alice.email]);
      expect(page.items[1]).toEqual({
        id: users.bob.id,
        email: users.bob.email,
        name: null,
        picture: null,
        emailVerified: false,
        pendingEmail: null,
        hasPassword: false,
        hasIdentityProvider: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(page.items[2]).toMatchObject({
        email: users.alice.email,
        hasPassword: true,
        hasIdentityProvider: false,
      });
      expect(res.text).not.toMatch(/hash|\$2b\$/i);
    });

    it('pages and searches by any part of the email, ignoring case, with _ and % taken literally', async () => {
      const second = (await api.get(`/v1/projects/${project.id}/users?pageSize=2&page=2`)).json as PageBody<{
        email: string;
      }>;
      expect(second).toMatchObject({ page: 2, pageSize: 2, total: 3 });
      expect(second.items.map((u) => u.email)).toEqual([users.alice.email]);

      const search = async (term: string) =>
        (
          (await api.get(`/v1/projects/${project.id}/users?search=${encodeURIComponent(term)}`))
            .json as PageBody<{
            email: string;
          }>
        ).items.map((u) => u.email);
      expect(await search('EXAMPLE.test')).toEqual([users.bob.email, users.alice.email]);
      expect(await search('ali')).toEqual([users.alice.email]);
      expect(await search('b_s')).toEqual([users.bob.email]);
      expect(await search('_')).toEqual([users.bob.email]);
      expect(await search('%')).toEqual([]);
      expect(await search('nobody')).toEqual([]);

      const bad = await api.get(`/v1/projects/${project.id}/users?page=abc`);
      expect(bad.status).toBe(400);
      expect((bad.json as ErrorBody).message).toMatch(/^page must be a whole number/);
    });

    it('deletes a user and publishes user.deleted with the snapshot on the auth-hooks queue', async () => {
      const res = await api.delete(`/v1/projects/${project.id}/users/${users.alice.id}`);
      expect(res.status).toBe(204);
      expect(
        await tenantSql(project.id, 'SELECT 1 FROM platform_auth.users WHERE id = $1', [users.alice.id]),
      ).toEqual([]);
      const list = (await api.get(`/v1/projects/${project.id}/users`)).json as PageBody<{ id: string }>;
      expect(list.total).toBe(2);

      const connection = createRedisConnection(process.env.REDIS_URL!);
      const queue = createQueue(QueueName.AuthHooks, connection, { prefix: PREFIX });
      try {
        const jobs = await queue.getJobs([
          'waiting',
          'prioritized',
          'delayed',
          'active',
          'completed',
          'failed',
        ]);
        const ours = jobs.filter((job) => job.data.projectId === project.id);
        expect(ours).toHaveLength(1);
        expect(ours[0]!.data.events).toEqual([
          {
            kind: 'user.deleted',
            user: { id: users.alice.id, email: users.alice.email, name: 'Alice', picture: null },
            provider: 'dashboard',
            at: expect.any(String),
          },
        ]);
        expect(JSON.stringify(ours[0]!.data)).not.toContain('hash');
      } finally {
        await queue.close();
        connection.disconnect();
      }
    });

    it('answers 404 for a user that does not exist (or no longer does)', async () => {
      for (const userId of [users.alice.id, randomUUID(), 'not-a-uuid']) {
        const res = await api.delete(`/v1/projects/${project.id}/users/${userId}`);
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ code: 'not_found', message: expect.stringContaining(userId) });
      }
    });
  });

  describe('mail log', () => {
    let project: ProjectBody;

    beforeAll(async () => {
      project = await createProject('emails');
      const rows = [
        ['welcome', 'a@example.test', 'Welcome', 'sent', null, "now() - interval '3 minutes'", 'now()'],
        [
          'magic-link',
          'b@example.test',
          'Your sign-in link',
          'failed',
          'connect ECONNREFUSED',
          "now() - interval '2 minutes'",
          'NULL',
        ],
        [
          'forgot-password',
          'c@example.test',
          'Reset your password',
          'queued',
          null,
          "now() - interval '1 minute'",
          'NULL',
        ],
      ];
      for (const [kind, to, subject, status, error, createdAt, sentAt] of rows) {
        await sql(
          `INSERT INTO mail_log (id, project_id, kind, "to", subject, status, error, message_id, created_at, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6::mail_status, $7, $8, ${createdAt}, ${sentAt})`,
          [
            randomUUID(),
            project.id,
            kind,
            to,
            subject,
            status,
            error,
            status === 'sent' ? '<m1@acme.test>' : null,
          ],
        );
      }
    });

    it('lists the project\u2019s mail newest first with kind, to, subject, status, error and times', async () => {
      const res = await api.get(`/v1/projects/${project.id}/emails`);
      expect(res.status).toBe(200);
      const page = res.json as PageBody<Record<string, unknown>>;
      expect(page).toMatchObject({ page: 1, pageSize: 20, total: 3 });
      expect(page.items.map((m) => m.kind)).toEqual(['forgot-password', 'magic-link', 'welcome']);
      expect(page.items[1]).toEqual({
        id: expect.any(String),
        kind: 'magic-link',
        to: 'b@example.test',
        subject: 'Your sign-in link',
        status: 'failed',
        error: 'connect ECONNREFUSED',
        messageId: null,
        createdAt: expect.any(String),
        sentAt: null,
      });
      expect(page.items[2]).toMatchObject({
        status: 'sent',
        messageId: '<m1@acme.test>',
        sentAt: expect.any(String),
      });
    });

    it('pages and filters by status', async () => {
      const second = (await api.get(`/v1/projects/${project.id}/emails?page=2&pageSize=2`)).json as PageBody<{
        kind: string;
      }>;
      expect(second.items.map((m) => m.kind)).toEqual(['welcome']);
      const failed = (await api.get(`/v1/projects/${project.id}/emails?status=failed`)).json as PageBody<{
        kind: string;
      }>;
      expect(failed).toMatchObject({ total: 1, items: [{ kind: 'magic-link' }] });
      const bad = await api.get(`/v1/projects/${project.id}/emails?status=bounced`);
      expect(bad.status).toBe(400);
      expect((bad.json as ErrorBody).message).toMatch(/^status must be one of "queued", "sent", "failed"/);
    });
  });
});
