import { describe, expect, it, jest } from '@jest/globals';
import { type ArgumentsHost, Logger } from '@nestjs/common';
import { userExceptionFilter } from './user-exception.filter.js';

// A 500 is logged with its error id and the request, but the request's query values are secrets
// on these routes (magic-link codes, tokens on redirects, emails): only their names are logged.

function hostFor(url: string): { host: ArgumentsHost; sent: () => { status: number; body: unknown } } {
  let status = 0;
  let body: unknown;
  const reply = {
    sent: false,
    raw: { headersSent: false },
    status(code: number) {
      status = code;
      return reply;
    },
    headers() {
      return reply;
    },
    send(value: unknown) {
      body = value;
      return reply;
    },
  };
  const request = { method: 'GET', url };
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  return { host, sent: () => ({ status, body }) };
}

describe('the project host exception filter', () => {
  it('logs a 500 with the redacted URL: no code, token or access_token value', () => {
    const logged: unknown[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((entry: unknown) => {
      logged.push(entry);
    });
    try {
      const { host, sent } = hostFor(
        '/api/user/auth/magic-link/callback?code=SECRET-CODE-123&access_token=AT-SECRET&refreshToken=RT-SECRET',
      );
      userExceptionFilter().catch(new Error('boom'), host);
      expect(sent()).toMatchObject({ status: 500, body: { code: 'internal', errorId: expect.any(String) } });
      const line = JSON.stringify(logged);
      expect(line).not.toContain('SECRET-CODE-123');
      expect(line).not.toContain('AT-SECRET');
      expect(line).not.toContain('RT-SECRET');
      expect(logged[0]).toMatchObject({
        url: '/api/user/auth/magic-link/callback?code=[redacted]&access_token=[redacted]&refreshToken=[redacted]',
      });
    } finally {
      spy.mockRestore();
    }
  });
});
