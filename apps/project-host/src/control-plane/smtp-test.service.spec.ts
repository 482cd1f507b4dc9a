import { describe, expect, it } from '@jest/globals';
import { explainSmtpError } from './smtp-test.service.js';

const server = { host: 'smtp.example.com', port: 587, secure: false };
const failure = (fields: Record<string, unknown>) =>
  Object.assign(new Error(String(fields.message ?? '')), fields);

describe('explainSmtpError', () => {
  it.each([
    [
      { code: 'ESOCKET', message: 'connect ECONNREFUSED 10.0.0.1:587' },
      /^Could not connect to smtp\.example\.com:587: the connection was refused/,
    ],
    [
      { code: 'EDNS', message: 'getaddrinfo ENOTFOUND smtp.example.com' },
      /^The host name smtp\.example\.com was not found in DNS/,
    ],
    [{ code: 'ETIMEDOUT', message: 'Connection timeout' }, /did not answer in time/],
    [
      { code: 'EAUTH', message: 'Invalid login', response: '535 5.7.8 Authentication failed' },
      /^The server refused the user name or password: 535 5\.7\.8 Authentication failed$/,
    ],
    [
      { code: 'EENVELOPE', message: 'Recipient refused', response: '550 No such user' },
      /sender or recipient address: 550 No such user$/,
    ],
    [
      { code: 'ESOCKET', message: 'ssl3_get_record:wrong version number' },
      /TLS handshake .* Port 465 needs "TLS from the start"/,
    ],
    [
      { code: 'EPROTOCOL', message: 'Unexpected reply 421 busy' },
      /^The SMTP exchange with smtp\.example\.com:587 failed: Unexpected reply 421 busy$/,
    ],
  ])('%j reads as plain words', (fields, expected) => {
    expect(explainSmtpError(failure(fields), server)).toMatch(expected);
  });

  it('is cut to a readable length', () => {
    expect(explainSmtpError(failure({ message: 'x'.repeat(5_000) }), server).length).toBeLessThanOrEqual(501);
  });
});
