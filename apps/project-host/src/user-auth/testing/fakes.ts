import type { TenantClient } from '@suite/db';
import { randomUUID } from 'node:crypto';
import { AuthEventsPublisher, type AuthEvent } from '../../events/auth-events.publisher.js';
import { AuthStateCache } from '../../events/auth-state.cache.js';
import { Clock } from '../../platform/clock.js';
import { EphemeralStore } from '../../platform/ephemeral-store.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { DEFAULT_AUTH_SETTINGS } from '../../projects/project-context.js';
import { projectHostEnv, type ProjectHostConfig } from '../../project-host.config.js';
import { AuthMailer } from '../mail/auth-mailer.js';

type OutgoingMail = Parameters<AuthMailer['send']>[1];
import { AuthSecrets } from '@suite/project-runtime';
import { AccessTokens } from '../tokens/access-tokens.js';
import { SigningKeyRepository, type SigningKeyRecord } from '../tokens/signing-key.repository.js';
import { SigningKeyStore } from '../tokens/signing-key.store.js';
import type { TokenUser } from '../user-snapshot.js';

// Fakes of the side effects user-auth's services have (clock, short-lived values, signing-key rows,
// hook events, mail, cross-process cache invalidation), for their unit specs.

/** A clock that moves only when told. */
export class FakeClock extends Clock {
  private at: number;

  constructor(start = Date.UTC(2026, 0, 1, 12)) {
    super();
    this.at = start;
  }

  now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): void {
    this.at += ms;
  }
}

export class MemoryEphemeralStore extends EphemeralStore {
  private readonly values = new Map<string, { value: string; until: number }>();

  constructor(private readonly clock: Clock) {
    super();
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.values.set(key, { value, until: this.clock.now().getTime() + ttlMs });
  }

  async get(key: string): Promise<string | null> {
    const entry = this.values.get(key);
    return entry && entry.until > this.clock.now().getTime() ? entry.value : null;
  }

  async take(key: string): Promise<string | null> {
    const value = await this.get(key);
    this.values.delete(key);
    return value;
  }

  /** Every key and value held, as the store's operator could read them. */
  held(): string[] {
    return [...this.values].flatMap(([key, { value }]) => [key, value]);
  }
}

export class InMemorySigningKeys extends SigningKeyRepository {
  readonly rows: SigningKeyRecord[] = [];

  async listOf(projectId: string): Promise<SigningKeyRecord[]> {
    return this.rows
      .filter((row) => row.projectId === projectId)
      .sort((a, b) => b.generation - a.generation)
      .map((row) => ({ ...row }));
  }

  async insertGeneration(key: SigningKeyRecord & { retiredAt: null }): Promise<boolean> {
    const mine = this.rows.filter((row) => row.projectId === key.projectId);
    if (mine.some((row) => row.generation === key.generation)) return false;
    for (const row of mine)
      if (row.generation < key.generation && !row.retiredAt) row.retiredAt = key.createdAt;
    this.rows.push({ ...key });
    return true;
  }
}

/** The hook events the services published, in order (nothing is queued). */
export class RecordingEvents extends AuthEventsPublisher {
  readonly published: Omit<AuthEvent, 'at'>[] = [];

  constructor() {
    super(undefined as never, undefined as never, undefined as never, undefined as never);
  }

  override async publish(_projectId: string, events: Omit<AuthEvent, 'at'>[]): Promise<string | undefined> {
    this.published.push(...events);
    return undefined;
  }

  /** `kind` or `kind:reason` of every event, for short assertions. */
  kinds(): string[] {
    return this.published.map((event) => (event.reason ? `${event.kind}:${event.reason}` : event.kind));
  }
}

/** The mails the services asked to send (nothing is queued). */
export class RecordingMailer extends AuthMailer {
  readonly sent: OutgoingMail[] = [];

  constructor() {
    super(undefined as never, undefined as never);
  }

  override async send(_ctx: ProjectContext, mail: OutgoingMail): Promise<undefined> {
    this.sent.push(mail);
    return undefined;
  }

  /** The code or token a mail to `to` carries in its `code=` link parameter. */
  codeSentTo(to: string): string {
    const mail = this.sent.findLast((candidate) => candidate.to === to);
    const code = mail && /[?&]code=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code was mailed to ${to}`);
    return code;
  }
}

/** The cache switched off (AUTH_STATE_CACHE_MS 0); records whose state every process must forget. */
export class RecordingAuthState extends AuthStateCache {
  readonly forgotten: string[] = [];

  constructor(config: ProjectHostConfig) {
    super(undefined as never, { ...config, AUTH_STATE_CACHE_MS: 0 });
  }

  override async invalidate(_projectId: string, userIds: readonly string[]): Promise<void> {
    this.forgotten.push(...userIds);
  }
}

export function testConfig(
  overrides: Partial<Record<keyof ProjectHostConfig, string>> = {},
): ProjectHostConfig {
  return projectHostEnv.parse({
    DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused',
    REDIS_URL: 'redis://127.0.0.1:1',
    PLATFORM_ADMIN_TOKEN: 'unit-test-admin-token-0123456789',
    PUBLIC_URL: 'http://localhost:8082',
    ...overrides,
  });
}

/** A project of `localhost` hosts with the given auth settings; it has no tenant client (fakes only). */
export function testProject(auth: Partial<ProjectContext['auth']> = {}): ProjectContext {
  const id = randomUUID();
  const now = new Date();
  return {
    project: {
      id,
      slug: `p-${id.slice(0, 8)}`,
      name: 'Acme',
      tenantDatabase: 'unused',
      tenantServer: 'default',
      tenantSchemaVersion: null,
      tenantMovingSince: null,
      createdAt: now,
      updatedAt: now,
      authSettings: null,
      smtpSettings: null,
      domains: [],
    },
    auth: { ...DEFAULT_AUTH_SETTINGS, ...auth },
    hosts: [`${id}.localhost`, `p-${id.slice(0, 8)}.localhost`],
    publicUrl: `http://p-${id.slice(0, 8)}.localhost:8082`,
    tenant: undefined as unknown as TenantClient,
  };
}

/** A user as access tokens name them, the session family they belong to, and a project to sign for. */
export const TOKEN_USER: TokenUser = {
  id: '0190c1a2-0000-7000-8000-0000000000aa',
  email: 'ada@example.com',
  name: 'Ada',
  picture: null,
  emailVerified: false,
};
export const SESSION_FAMILY = '0190c1a2-0000-7000-8000-0000000000bb';
export const TOKEN_AUDIENCE = {
  projectId: '0190c1a2-0000-7000-8000-000000000001',
  issuer: 'https://acme.example.test',
};

/** Signing keys and access tokens over in-memory rows and a clock that moves only when told. */
export function tokensOverTime(secret = 'tokens-unit-test-secret-0123456789') {
  const clock = new FakeClock();
  const rows = new InMemorySigningKeys();
  const keys = new SigningKeyStore(rows, new AuthSecrets(secret), clock);
  return { clock, rows, keys, tokens: new AccessTokens(keys, clock) };
}
