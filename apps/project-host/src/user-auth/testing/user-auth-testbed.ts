import { MemoryRateLimiters } from '../../platform/rate-limiters.js';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { BackgroundTasks } from '../background-tasks.js';
import { NonceCodes } from '../codes/nonce-codes.js';
import { NonceFailures } from '../codes/nonce-failures.js';
import { AuthSecrets } from '@suite/project-runtime';
import { AuthRateLimits } from '../limits/auth-rate-limits.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { AccountClaims } from '../services/account-claim.js';
import { MailCodeAuthService } from '../services/mail-code-auth.service.js';
import { PasswordAuthService } from '../services/password-auth.service.js';
import { ProfileService } from '../services/profile.service.js';
import { AccessTokens } from '../tokens/access-tokens.js';
import { RefreshGraceCache } from '../tokens/refresh-grace.cache.js';
import { RefreshSessions } from '../tokens/refresh-sessions.js';
import { SigningKeyStore } from '../tokens/signing-key.store.js';
import type { ClientMeta } from '../tokens/token-pair.js';
import {
  FakeClock,
  InMemorySigningKeys,
  MemoryEphemeralStore,
  RecordingAuthState,
  RecordingEvents,
  RecordingMailer,
  testConfig,
  testProject,
} from './fakes.js';
import { InMemoryAuthStores } from './in-memory-auth-store.js';

/** bcrypt's lowest cost: the specs check behaviour, not hashing strength. */
const TEST_BCRYPT_COST = 4;

/**
 * user-auth's services wired as the module wires them, over in-memory fakes of every side effect
 * (the way Immich's service specs are built). One testbed is one deployment: its projects share the
 * clock, the rate limits and the signing keys.
 */
export function userAuthTestbed(overrides: Partial<Record<keyof ProjectHostConfig, string>> = {}) {
  const config = testConfig(overrides);
  const clock = new FakeClock();
  const stores = new InMemoryAuthStores(clock);
  const secrets = new AuthSecrets('user-auth-unit-test-secret-0123456789');
  const ephemeral = new MemoryEphemeralStore(clock);
  const signingKeys = new InMemorySigningKeys();
  const tokens = new AccessTokens(new SigningKeyStore(signingKeys, secrets, clock), clock);
  const state = new RecordingAuthState(config);
  const events = new RecordingEvents();
  const mailer = new RecordingMailer();
  const limits = new AuthRateLimits(new MemoryRateLimiters(), config);
  const hasher = new PasswordHasher(TEST_BCRYPT_COST);
  const background = new BackgroundTasks();
  const sessions = new RefreshSessions(
    stores,
    tokens,
    new RefreshGraceCache(ephemeral, secrets),
    state,
    clock,
    config,
  );
  const codes = new NonceCodes(secrets, clock);
  const failures = new NonceFailures(codes, stores, events);
  const claims = new AccountClaims(sessions, codes);
  return {
    config,
    clock,
    stores,
    secrets,
    ephemeral,
    signingKeys,
    tokens,
    state,
    events,
    mailer,
    limits,
    hasher,
    background,
    sessions,
    codes,
    claims,
    passwords: new PasswordAuthService(stores, sessions, hasher, limits, events, mailer),
    mailCodes: new MailCodeAuthService(
      stores,
      codes,
      sessions,
      hasher,
      limits,
      events,
      mailer,
      background,
      failures,
      claims,
    ),
    profiles: new ProfileService(
      stores,
      hasher,
      codes,
      failures,
      limits,
      events,
      mailer,
      state,
      claims,
      sessions,
    ),
    project: (auth?: Partial<ProjectContext['auth']>) => testProject(auth),
    /** Waits for the work requests started without waiting (mails, codes, their hooks). */
    settle: () => background.beforeApplicationShutdown(),
  };
}

export type UserAuthTestbed = ReturnType<typeof userAuthTestbed>;

/** A browser at a fixed address. */
export const CLIENT: ClientMeta = { ip: '203.0.113.7', userAgent: 'unit-test' };
