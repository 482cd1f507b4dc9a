import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { loggableUrl, pinoOptions } from './logger.options.js';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
  };
}

describe('structured logs', () => {
  it('are JSON lines with service, level and an ISO time', () => {
    const { stream, lines } = capture();
    pino(pinoOptions({ service: 'jobs-api', level: 'info' }), stream).info({ jobId: 'j1' }, 'queued');
    expect(lines()[0]).toMatchObject({ service: 'jobs-api', level: 30, jobId: 'j1', msg: 'queued' });
    expect(String(lines()[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('never contain secrets from headers or bodies', () => {
    const { stream, lines } = capture();
    pino(pinoOptions({ service: 'project-host', level: 'info' }), stream).info(
      {
        req: {
          headers: { authorization: 'Bearer sk_live_secret', 'x-api-key': 'k-secret', cookie: 'sid=1' },
        },
        body: { password: 'hunter2hunter2', refreshToken: 'rt-secret', email: 'a@b.co' },
      },
      'request',
    );
    const text = JSON.stringify(lines()[0]);
    for (const secret of ['sk_live_secret', 'k-secret', 'sid=1', 'hunter2hunter2', 'rt-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('a@b.co');
  });

  it('keep query parameter names but never their values (codes, emails)', () => {
    expect(loggableUrl('/api/user/auth/magic-link/callback?code=abc123&x=1')).toBe(
      '/api/user/auth/magic-link/callback?code=[redacted]&x=[redacted]',
    );
    expect(loggableUrl('/v1/jobs')).toBe('/v1/jobs');
  });
});
