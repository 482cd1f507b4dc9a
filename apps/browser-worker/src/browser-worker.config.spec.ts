import { describe, expect, it } from '@jest/globals';
import { browserWorkerEnv } from './browser-worker.config.js';

const base = { DATABASE_URL: 'postgres://u@127.0.0.1/db', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('browser worker network settings', () => {
  it('is public-only with no allow-list and downloads refused when nothing is set', () => {
    const config = browserWorkerEnv.parse(base);
    expect(config).toMatchObject({
      BROWSER_NETWORK_POLICY: 'public-only',
      BROWSER_ALLOWED_HOSTS: [],
      BROWSER_DNS_SERVERS: [],
      BROWSER_ALLOW_DOWNLOADS: false,
    });
  });

  it('reads the mode and an allow-list of hosts, host:port pairs, IPs and CIDRs', () => {
    const config = browserWorkerEnv.parse({
      ...base,
      BROWSER_NETWORK_POLICY: 'allow-private',
      BROWSER_ALLOWED_HOSTS: 'app.internal, 10.0.0.7:8080, 10.1.0.0/16, [fd00::1]:443',
    });
    expect(config.BROWSER_NETWORK_POLICY).toBe('allow-private');
    expect(config.BROWSER_ALLOWED_HOSTS).toHaveLength(4);
  });

  it('refuses an unknown mode and allow-list entries it cannot read, naming them', () => {
    const mode = browserWorkerEnv.safeParse({ ...base, BROWSER_NETWORK_POLICY: 'open' });
    expect(mode.success).toBe(false);
    expect(JSON.stringify(mode.error?.issues)).toContain('must be public-only or allow-private');
    const list = browserWorkerEnv.safeParse({ ...base, BROWSER_ALLOWED_HOSTS: '10.0.0.0/40' });
    expect(list.success).toBe(false);
    expect(JSON.stringify(list.error?.issues)).toContain('10.0.0.0/40');
    const dns = browserWorkerEnv.safeParse({ ...base, BROWSER_DNS_SERVERS: 'dns.example:53' });
    expect(JSON.stringify(dns.error?.issues)).toContain('is not a DNS server address');
    expect(
      browserWorkerEnv.parse({ ...base, BROWSER_DNS_SERVERS: '127.0.0.1:5353,[::1]:53,10.0.0.2' })
        .BROWSER_DNS_SERVERS,
    ).toHaveLength(3);
  });
});
