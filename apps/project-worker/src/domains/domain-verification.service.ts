import type { MainDb } from '@suite/db';
import { CustomDomainsRepository, DomainMisses } from './custom-domains.repository.js';
import type { DomainTxtLookup } from './domain-txt-lookup.js';

/** A verified domain whose record is missing this many re-checks in a row stops serving. */
export const MISSES_BEFORE_UNVERIFY = 2;

export interface DomainVerificationLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface RecheckSummary {
  checked: number;
  verified: number;
  unverified: number;
}

/**
 * Custom domains serve a project only once their owner proved control of them: a TXT record
 * `_platform-verification.<domain>` holding `platform-verification=<token>`. `verify` looks one
 * domain up (the control plane queued it: the domain was added, or the admin asked); `recheckAll`
 * is the periodic pass over every domain: a pending one whose record appeared starts serving, a
 * verified one whose record is gone at two re-checks in a row (one flaky answer does not take a
 * site down) stops, unless DOMAIN_VERIFIED_BY_ADMIN is on.
 */
export class DomainVerificationService {
  constructor(
    private readonly domains: CustomDomainsRepository,
    private readonly misses: DomainMisses,
    private readonly dns: DomainTxtLookup,
    private readonly options: { verifiedByAdmin: boolean; log: DomainVerificationLog },
  ) {}

  /** Marks the domain verified when its record holds the token; what it is now (null: gone). */
  async verify(domainId: string): Promise<MainDb.CustomDomain | null> {
    const domain = await this.domains.find(domainId);
    if (!domain || domain.verified) return domain;
    if ((await this.dns.check(domain)) !== 'present') return domain;
    return this.domains.mark(domain.id, true);
  }

  /** One pass over every domain; `stopping` ends it early (the next tick checks them all again). */
  async recheckAll(stopping: () => boolean = () => false): Promise<RecheckSummary> {
    const summary: RecheckSummary = { checked: 0, verified: 0, unverified: 0 };
    for (const domain of await this.domains.all()) {
      if (stopping()) break;
      summary.checked += 1;
      const result = await this.dns.check(domain);
      if (result === 'present') {
        await this.misses.clear(domain.id);
        if (!domain.verified) {
          await this.domains.mark(domain.id, true);
          summary.verified += 1;
        }
      } else if (result === 'absent' && domain.verified && !this.options.verifiedByAdmin) {
        if ((await this.misses.add(domain.id)) < MISSES_BEFORE_UNVERIFY) continue;
        await this.misses.clear(domain.id);
        await this.domains.mark(domain.id, false);
        summary.unverified += 1;
        this.options.log.warn(
          { projectId: domain.projectId, domain: domain.domain },
          'custom domain no longer verified: its DNS TXT record is gone',
        );
      }
    }
    return summary;
  }
}
