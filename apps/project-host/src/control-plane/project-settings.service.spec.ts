import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import { ProjectResolver } from '../projects/project-resolver.js';
import { testConfig } from '../user-auth/testing/fakes.js';
import { DomainChecksQueue } from './domain-checks.queue.js';
import { ProjectSettingsService } from './project-settings.service.js';
import { ProjectsService } from './projects.service.js';
import { InMemoryProjects, RecordingTenants } from './testing/control-plane-fakes.js';
import { ProjectDirectory, type ProjectDirectoryOptions } from '@suite/project-runtime';

// A project's auth settings and custom domains over an in-memory repository; the project worker's
// DNS check (asked for through the queue) answers what the spec says.

class WorkerChecksDns extends DomainChecksQueue {
  present = false;
  /** Domains the host asked the worker to check, and how long it would wait. */
  readonly asked: { domainId: string; waitMs: number }[] = [];

  constructor(private readonly records: InMemoryProjects) {
    super();
  }

  async checkNow(domainId: string, waitMs: number) {
    this.asked.push({ domainId, waitMs });
    if (this.present) await this.records.markDomain(domainId, { verified: true, verifiedAt: new Date() });
    return 'completed' as const;
  }
}

async function setup(overrides: Parameters<typeof testConfig>[0] = {}) {
  const config = testConfig({
    PUBLIC_URL: 'https://control.example.test',
    PROJECT_HOST_DOMAIN: 'apps.example.test',
    ...overrides,
  });
  const records = new InMemoryProjects();
  const resolver = new ProjectResolver(
    new ProjectDirectory({} as ProjectDirectoryOptions),
    config,
    undefined as never,
  );
  const projects = new ProjectsService(records, resolver, new RecordingTenants(), undefined as never);
  const dns = new WorkerChecksDns(records);
  const settings = new ProjectSettingsService(records, resolver, projects, dns, config);
  const { id } = await projects.create({ slug: 'acme', name: 'Acme' });
  const other = await projects.create({ slug: 'other', name: 'Other' });
  return { records, settings, dns, id, otherId: other.id };
}

const AUTH = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' };

describe('ProjectSettingsService auth settings', () => {
  it('keeps a saved client secret when a PUT leaves it out, never shows it, and clears it on null', async () => {
    const { settings, id, records } = await setup();
    await settings.updateAuth(id, {
      ...AUTH,
      idpMode: 'custom',
      idpClientId: 'acme-web',
      idpClientSecret: 's3cr3t',
    });
    const kept = await settings.updateAuth(id, { ...AUTH, idpMode: 'custom', idpClientId: 'acme-web' });
    expect(kept).toMatchObject({ idpMode: 'custom', hasClientSecret: true });
    expect(JSON.stringify(kept)).not.toContain('s3cr3t');
    expect(records.rows.get(id)!.authSettings?.idpClientSecret).toBe('s3cr3t');
    await expect(
      settings.updateAuth(id, { ...AUTH, idpMode: 'custom', idpClientId: 'acme-web', idpClientSecret: null }),
    ).rejects.toMatchObject({ code: AuthErrorCode.InvalidRequest });
  });
});

describe('ProjectSettingsService domains', () => {
  it('adds a pending domain with its TXT record, and verifies it once DNS holds the token', async () => {
    const { settings, dns, id } = await setup();
    const added = await settings.addDomain(id, { domain: 'App.Example.com.' });
    expect(added).toMatchObject({ created: true, domain: { domain: 'app.example.com', verified: false } });
    expect(added.domain.dnsRecord).toEqual({
      type: 'TXT',
      name: '_platform-verification.app.example.com',
      value: `platform-verification=${added.domain.verificationToken}`,
    });
    dns.present = true;
    await expect(settings.verifyDomain(id, 'app.example.com')).resolves.toMatchObject({ verified: true });
    // Both checks were asked of the project worker, each waited for as DOMAIN_CHECK_WAIT_MS says.
    expect(dns.asked).toEqual([
      { domainId: added.domain.id, waitMs: 10_000 },
      { domainId: added.domain.id, waitMs: 10_000 },
    ]);
  });

  it('answers a domain whose check the worker has not done in time as pending, and asks again', async () => {
    const { settings, dns, id } = await setup({ DOMAIN_CHECK_WAIT_MS: '0' });
    const added = await settings.addDomain(id, { domain: 'slow.example.com' });
    expect(added.domain).toMatchObject({ verified: false });
    expect(dns.asked).toEqual([{ domainId: added.domain.id, waitMs: 0 }]);
    const again = await settings.addDomain(id, { domain: 'slow.example.com' });
    expect(again).toMatchObject({ created: false, domain: { verified: false } });
    expect(dns.asked).toHaveLength(2);
  });

  it("refuses another project's domain (409), the project-host domain and the control plane's host", async () => {
    const { settings, id, otherId } = await setup();
    await settings.addDomain(otherId, { domain: 'app.example.com' });
    await expect(settings.addDomain(id, { domain: 'app.example.com' })).rejects.toMatchObject({
      status: 409,
      message: 'domain "app.example.com" is already used by another project',
    });
    for (const domain of ['x.apps.example.test', 'control.example.test']) {
      await expect(settings.addDomain(id, { domain })).rejects.toMatchObject({
        code: AuthErrorCode.InvalidRequest,
        message: expect.stringMatching(/^domain /),
      });
    }
    await expect(settings.verifyDomain(id, 'app.example.com')).rejects.toMatchObject({ status: 404 });
  });

  it('marks a domain verified without DNS only with DOMAIN_VERIFIED_BY_ADMIN', async () => {
    const strict = await setup();
    await expect(
      strict.settings.addDomain(strict.id, { domain: 'a.example.com', verified: true }),
    ).resolves.toMatchObject({
      domain: { verified: false },
    });
    const dev = await setup({ DOMAIN_VERIFIED_BY_ADMIN: 'true' });
    await expect(
      dev.settings.addDomain(dev.id, { domain: 'a.example.com', verified: true }),
    ).resolves.toMatchObject({
      domain: { verified: true },
    });
  });
});
