import { describe, expect, it } from '@jest/globals';
import { parseTenantServerList, TenantServers, UnknownTenantServerError } from './tenant-servers.js';

const MAIN = 'postgresql://suite:main-secret@db:5432/suite';

describe('TenantServers.fromSettings', () => {
  it('without TENANT_DATABASE_SERVERS has one server, default, on the main database server', () => {
    const servers = TenantServers.fromSettings({ DATABASE_URL: MAIN });
    expect(servers.list).toEqual([
      { name: 'default', adminUrl: 'postgresql://suite:main-secret@db:5432/postgres', capacity: 1000 },
    ]);
    expect(servers.databaseUrl({ tenantServer: 'default', tenantDatabase: 'tenant_x' })).toBe(
      'postgresql://suite:main-secret@db:5432/tenant_x',
    );
  });

  it('uses TENANT_ADMIN_DATABASE_URL for default when it is set', () => {
    const servers = TenantServers.fromSettings({
      DATABASE_URL: MAIN,
      TENANT_ADMIN_DATABASE_URL: 'postgresql://admin@db:5432/postgres',
    });
    expect(servers.server('default').adminUrl).toBe('postgresql://admin@db:5432/postgres');
  });

  it('keeps an unlisted default reachable with capacity 0: old projects stay, new ones go elsewhere', () => {
    const servers = TenantServers.fromSettings({
      DATABASE_URL: MAIN,
      TENANT_DATABASE_SERVERS: 'pg2:300=postgresql://a:b@db2:5432/postgres',
    });
    expect(servers.list.map(({ name, capacity }) => ({ name, capacity }))).toEqual([
      { name: 'pg2', capacity: 300 },
      { name: 'default', capacity: 0 },
    ]);
    expect(servers.place(new Map()).server.name).toBe('pg2');
  });

  it('refuses a server the setting does not list, naming it (never another server)', () => {
    const servers = TenantServers.fromSettings({ DATABASE_URL: MAIN });
    expect(() => servers.databaseUrl({ tenantServer: 'gone', tenantDatabase: 'tenant_x' })).toThrow(
      UnknownTenantServerError,
    );
    expect(() => servers.server('gone')).toThrow(/"gone" is not in TENANT_DATABASE_SERVERS/);
  });
});

describe('parseTenantServerList', () => {
  it('reads name:capacity=url entries separated by spaces, commas or new lines', () => {
    expect(
      parseTenantServerList(
        'a:10=postgresql://u:p@h1:5432/postgres,\n B=postgres://h2/postgres?sslmode=require , c:0=postgresql://h3/postgres',
      ),
    ).toEqual([
      { name: 'a', adminUrl: 'postgresql://u:p@h1:5432/postgres', capacity: 10 },
      { name: 'b', adminUrl: 'postgres://h2/postgres?sslmode=require', capacity: 1000 },
      { name: 'c', adminUrl: 'postgresql://h3/postgres', capacity: 0 },
    ]);
  });

  it.each([
    ['a=http://h/postgres', /entry 1 must look like/],
    ['a:x=postgresql://h/postgres', /entry 1 must look like/],
    ['bad name=postgresql://h/postgres', /entry 1 must look like/],
    ['a=postgresql://h/postgres a=postgresql://h2/postgres', /"a" is listed twice/],
    ['a:0=postgresql://h/postgres', /every server capacity 0/],
    [' , ', /lists no server/],
  ])('refuses %j', (setting, message) => {
    expect(() => parseTenantServerList(setting)).toThrow(message);
  });

  it('never repeats a URL (they hold passwords) in its complaints', () => {
    expect(() => parseTenantServerList('a=postgresql://u:hunter2@h/postgres junk')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') as unknown }),
    );
  });
});

describe('TenantServers.place', () => {
  const servers = new TenantServers([
    { name: 'small', adminUrl: 'postgresql://s/postgres', capacity: 100 },
    { name: 'big', adminUrl: 'postgresql://b/postgres', capacity: 300 },
    { name: 'drained', adminUrl: 'postgresql://d/postgres', capacity: 0 },
  ]);

  it('picks the fewest projects relative to capacity, ties to the first listed, never capacity 0', () => {
    expect(servers.place(new Map()).server.name).toBe('small');
    expect(servers.place(new Map([['small', 1]])).server.name).toBe('big');
    expect(
      servers.place(
        new Map([
          ['small', 10],
          ['big', 30],
        ]),
      ).server.name,
    ).toBe('small');
    expect(
      servers.place(
        new Map([
          ['small', 10],
          ['big', 29],
        ]),
      ).server.name,
    ).toBe('big');
  });

  it('fills servers in proportion over many projects', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const { server } = servers.place(counts);
      counts.set(server.name, (counts.get(server.name) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ small: 100, big: 300 });
  });

  it('says when every server is full (and still places)', () => {
    const placed = servers.place(
      new Map([
        ['small', 100],
        ['big', 400],
      ]),
    );
    expect(placed).toEqual({ server: expect.objectContaining({ name: 'small' }) as unknown, full: true });
  });
});
