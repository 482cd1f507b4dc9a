import { domainTxtRecord } from '@suite/project-runtime';
import { Resolver } from 'node:dns/promises';

/** What a TXT lookup said: the token is there, it is not (a definitive answer), or no answer. */
export type TxtCheck = 'present' | 'absent' | 'unknown';

const ABSENT_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** DNS: whether a custom domain's verification record holds its token (DOMAIN_DNS_SERVERS, else the system's). */
export class DomainTxtLookup {
  private readonly servers: string[];

  constructor(dnsServers: string | undefined) {
    this.servers = dnsServers?.split(',').map((server) => server.trim()) ?? [];
  }

  async check(domain: { domain: string; verificationToken: string }): Promise<TxtCheck> {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (this.servers.length) resolver.setServers(this.servers);
    const record = domainTxtRecord(domain.domain, domain.verificationToken);
    try {
      const records = await resolver.resolveTxt(record.name);
      return records.some((chunks) => chunks.join('').trim() === record.value) ? 'present' : 'absent';
    } catch (error) {
      const code = (error as { code?: string }).code;
      return code && ABSENT_CODES.has(code) ? 'absent' : 'unknown';
    }
  }
}
