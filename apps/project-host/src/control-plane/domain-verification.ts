import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { MainDb } from '@suite/db';
import { Resolver } from 'node:dns/promises';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { ProjectResolver } from '../projects/project-resolver.js';
import { DOMAIN_TXT_PREFIX } from './project.view.js';
import { ProjectsRepository } from './projects.repository.js';

/** What a TXT lookup said: the token is there, it is not (a definitive answer), or no answer. */
export type TxtCheck = 'present' | 'absent' | 'unknown';

/** A verified domain whose record is missing this many checks in a row stops serving. */
const MISSES_BEFORE_UNVERIFY = 2;
const ABSENT_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Custom domains serve a project only once their owner proved control of them: a TXT record
 * `_platform-verification.<domain>` holding `platform-verification=<token>`, looked up in DNS when
 * the domain is added, when the admin asks (POST …/domains/{domain}/verify), and again every
 * DOMAIN_RECHECK_INTERVAL_MS. A verified domain whose record is gone (twice in a row: one flaky
 * answer does not take a site down) stops serving; a pending one whose record appeared starts.
 */
@Injectable()
export class DomainVerification implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('domains');
  private readonly misses = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly records: ProjectsRepository,
    private readonly projects: ProjectResolver,
    @Inject(PROJECT_HOST_CONFIG) private readonly config: ProjectHostConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = this.config.DOMAIN_RECHECK_INTERVAL_MS;
    if (every > 0) {
      this.timer = setInterval(() => void this.recheckAll(), every);
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Looks the domain's TXT record up now and marks it verified when the token is there. */
  async verify(domain: MainDb.CustomDomain): Promise<MainDb.CustomDomain> {
    if (domain.verified) return domain;
    if ((await this.check(domain)) !== 'present') return domain;
    return this.mark(domain, true);
  }

  /** One pass over every domain (the periodic re-check). */
  async recheckAll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const domains = await this.records.allDomains();
      for (const domain of domains) {
        const result = await this.check(domain);
        if (result === 'present') {
          this.misses.delete(domain.id);
          if (!domain.verified) await this.mark(domain, true);
        } else if (result === 'absent' && domain.verified && !this.config.DOMAIN_VERIFIED_BY_ADMIN) {
          const misses = (this.misses.get(domain.id) ?? 0) + 1;
          this.misses.set(domain.id, misses);
          if (misses >= MISSES_BEFORE_UNVERIFY) {
            this.misses.delete(domain.id);
            await this.mark(domain, false);
            this.logger.warn(
              { projectId: domain.projectId, domain: domain.domain },
              'custom domain no longer verified: its DNS TXT record is gone',
            );
          }
        }
      }
    } catch (error) {
      this.logger.error({ err: error }, 'custom domain re-check failed');
    } finally {
      this.running = false;
    }
  }

  /** Whether the domain's TXT record holds its token. */
  async check(domain: Pick<MainDb.CustomDomain, 'domain' | 'verificationToken'>): Promise<TxtCheck> {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    const servers = this.config.DOMAIN_DNS_SERVERS?.split(',').map((server) => server.trim());
    if (servers?.length) resolver.setServers(servers);
    try {
      const records = await resolver.resolveTxt(`${DOMAIN_TXT_PREFIX}.${domain.domain}`);
      const expected = `platform-verification=${domain.verificationToken}`;
      return records.some((chunks) => chunks.join('').trim() === expected) ? 'present' : 'absent';
    } catch (error) {
      const code = (error as { code?: string }).code;
      return code && ABSENT_CODES.has(code) ? 'absent' : 'unknown';
    }
  }

  private async mark(domain: MainDb.CustomDomain, verified: boolean): Promise<MainDb.CustomDomain> {
    const updated = await this.records.markDomain(domain.id, {
      verified,
      verifiedAt: verified ? new Date() : null,
    });
    this.projects.invalidate();
    return updated;
  }
}
