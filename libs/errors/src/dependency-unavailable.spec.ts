import { describe, expect, it } from '@jest/globals';
import { asDependencyUnavailable, isDependencyUnavailable } from './dependency-unavailable.js';
import { toHttpProblem } from './http-problem.mapper.js';
import { toUserErrorBody } from './user-error-body.mapper.js';

const socketError = (code: string): Error =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('a lost Postgres or Redis', () => {
  it('is recognised through Prisma, pg and ioredis shapes, however deep the cause', () => {
    const prismaWrapped = Object.assign(new Error('Invalid `prisma.job.findMany()` invocation'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2010',
      meta: { driverAdapterError: { cause: socketError('ECONNREFUSED') } },
    });
    expect(isDependencyUnavailable(prismaWrapped)).toBe(true);
    expect(
      isDependencyUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' })),
    ).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDependencyUnavailable(
        Object.assign(new Error('Reached the max retries per request limit'), {
          name: 'MaxRetriesPerRequestError',
        }),
      ),
    ).toBe(true);
  });

  it('leaves bugs and ordinary failures alone', () => {
    expect(isDependencyUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    );
    expect(isDependencyUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDependencyUnavailable(undefined)).toBe(false);
    expect(asDependencyUnavailable(new Error('boom'))).toBeUndefined();
  });

  it('answers 503 with a retry hint in the /v1 and {code, message} contracts', () => {
    const error = asDependencyUnavailable(socketError('ECONNREFUSED'));
    expect(toHttpProblem(error)).toMatchObject({
      status: 503,
      body: { code: 'service_unavailable', detail: expect.any(String) },
      headers: { 'Retry-After': '5' },
    });
    expect(toUserErrorBody(error)).toMatchObject({
      status: 503,
      body: { code: 'service_unavailable', message: expect.any(String) },
    });
  });
});

describe('database connections all taken', () => {
  it("answers 503 temporarily_unavailable with Retry-After for the connection budget's error, as Prisma rethrows it", () => {
    const fromPrisma = Object.assign(new Error('No database connection was free within 5000 ms'), {
      name: 'PrismaClientKnownRequestError',
      code: 'CONNECTION_BUDGET_EXHAUSTED',
    });
    const error = asDependencyUnavailable(fromPrisma);
    expect(toUserErrorBody(error)).toEqual({
      status: 503,
      body: { code: 'temporarily_unavailable', message: expect.stringMatching(/try again/) },
      headers: { 'Retry-After': '2' },
    });
    expect(toHttpProblem(error)).toMatchObject({
      status: 503,
      body: { code: 'temporarily_unavailable' },
      headers: { 'Retry-After': '2' },
    });
  });

  it('treats "too many clients" from Postgres (53300) the same way, never as a 500 or an outage', () => {
    const tooMany = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    const viaPrisma = Object.assign(new Error('Invalid `prisma.user.findUnique()` invocation'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '53300' } } },
    });
    for (const thrown of [tooMany, viaPrisma, new Error('wrapped', { cause: tooMany })]) {
      expect(toUserErrorBody(asDependencyUnavailable(thrown))).toMatchObject({
        status: 503,
        body: { code: 'temporarily_unavailable' },
      });
    }
  });
});
