import { describe, expect, it } from '@jest/globals';
import { AuthErrorCode } from '@suite/errors';
import { MemoryRateLimiters } from '../../platform/rate-limiters.js';
import { testConfig } from '../testing/fakes.js';
import { AuthRateLimits, ipBucket } from './auth-rate-limits.js';

// The rate limits of end-user auth over in-memory counters (Redis holds them in production).

const PROJECT = '0190c1a2-0000-7000-8000-000000000001';

function limits(config: Parameters<typeof testConfig>[0] = {}): AuthRateLimits {
  return new AuthRateLimits(new MemoryRateLimiters(), testConfig(config));
}

describe('AuthRateLimits', () => {
  it('counts each route family per address on its own, and answers 429 with the seconds to wait', async () => {
    const rl = limits({ AUTH_RATE_LIMIT_IP_PER_MINUTE: '2' });
    await rl.consumeIp('login', PROJECT, '203.0.113.7');
    await rl.consumeIp('login', PROJECT, '203.0.113.7');
    await expect(rl.consumeIp('login', PROJECT, '203.0.113.7')).rejects.toMatchObject({
      code: AuthErrorCode.RateLimited,
      message: expect.stringMatching(/^Too many requests from this address; try again in \d+ s$/),
      details: { retryAfterSeconds: expect.any(Number) },
    });
    await expect(rl.consumeIp('refresh', PROJECT, '203.0.113.7')).resolves.toBeUndefined();
    await expect(rl.consumeIp('login', PROJECT, '203.0.113.8')).resolves.toBeUndefined();
  });

  it("holds off new addresses once failures from elsewhere reached their limit, never the owner's own", async () => {
    const rl = limits({ AUTH_RATE_LIMIT_ACCOUNT_OTHERS_PER_15_MINUTES: '2' });
    await rl.loginFailedFromOther(PROJECT, 'ada@example.com');
    await rl.loginFailedFromOther(PROJECT, 'ada@example.com');
    await expect(
      rl.consumeSignIn('login', PROJECT, 'ada@example.com', '198.51.100.1', false),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^Too many failed sign-ins for this account from new addresses/),
    });
    await expect(
      rl.consumeSignIn('login', PROJECT, 'ada@example.com', '203.0.113.7', true),
    ).resolves.toBeUndefined();
  });

  it("spaces mails to one address by the cooldown, counting the owner's address apart from everyone else", async () => {
    const rl = limits();
    await rl.consumeMailRequest('magic-link', PROJECT, 'ada@example.com');
    await expect(rl.consumeMailRequest('magic-link', PROJECT, 'ada@example.com')).rejects.toMatchObject({
      message: expect.stringMatching(/^A mail was sent to this address moments ago/),
    });
    await expect(
      rl.consumeMailRequest('magic-link', PROJECT, 'ada@example.com', '203.0.113.7'),
    ).resolves.toBeUndefined();
    await expect(
      rl.consumeMailRequest('forgot-password', PROJECT, 'ada@example.com'),
    ).resolves.toBeUndefined();
  });

  it('keeps sign-in mail apart from welcome and project mail: a burst of the one never spends the other', async () => {
    const rl = limits({
      AUTH_MAIL_PER_PROJECT_PER_HOUR: '2',
      MAIL_BULK_PER_PROJECT_PER_HOUR: '3',
      MAIL_BULK_PER_ADDRESS_PER_HOUR: '2',
    });
    const welcome = (to: string) => rl.takeMail(PROJECT, { kind: 'welcome', to });
    expect(await welcome('a@example.com')).toBeUndefined();
    expect(await welcome('a@example.com')).toBeUndefined();
    expect(await welcome('A@example.com ')).toMatch(/this address got 2 welcome or project mails this hour/);
    expect(await welcome('b@example.com')).toBeUndefined();
    expect(await rl.takeMail(PROJECT, { kind: 'custom', to: 'c@example.com' })).toMatch(
      /budget of 3 welcome and project mails is spent/,
    );
    expect(await rl.takeMail(PROJECT, { kind: 'magic-link', to: 'v@example.com' })).toBeUndefined();
    await expect(rl.consumeMailRequest('forgot-password', PROJECT, 'v@example.com')).resolves.toBeUndefined();
    expect(await rl.takeMail(PROJECT, { kind: 'forgot-password', to: 'v@example.com' })).toBeUndefined();
    expect(await rl.takeMail(PROJECT, { kind: 'auth.email-changed', to: 'v@example.com' })).toMatch(
      /budget of 2 sign-in and recovery mails is spent/,
    );
    await expect(rl.consumeMailRequest('magic-link', PROJECT, 'w@example.com')).rejects.toMatchObject({
      code: AuthErrorCode.RateLimited,
      message: expect.stringMatching(/too many sign-in mails this hour/),
    });
  });

  it('counts IPv6 addresses per /64', () => {
    expect(ipBucket('2001:db8:1:2:aaaa::1')).toBe(ipBucket('2001:db8:1:2:bbbb::2'));
    expect(ipBucket('2001:db8:1:3::1')).not.toBe(ipBucket('2001:db8:1:2::1'));
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7');
  });
});
