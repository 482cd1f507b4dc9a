import { describe, expect, it } from '@jest/globals';
import { CliError } from '../cli-error.js';
import { customIdpOf, smtpOf } from './env-file.js';

describe('customIdpOf', () => {
  it('is Custom mode only with both keys', () => {
    expect(customIdpOf({ IDP_CLIENT_ID: 'id' })).toBeNull();
    expect(customIdpOf({ IDP_CLIENT_SECRET: 'secret' })).toBeNull();
    expect(customIdpOf({ IDP_CLIENT_ID: ' ', IDP_CLIENT_SECRET: 'secret' })).toBeNull();
    expect(customIdpOf({ IDP_CLIENT_ID: 'id', IDP_CLIENT_SECRET: 'secret' })).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
    });
    expect(
      customIdpOf({
        IDP_CLIENT_ID: 'id',
        IDP_CLIENT_SECRET: 'secret',
        IDP_ISSUER_URL: 'http://127.0.0.1:9000',
      }),
    ).toEqual({ clientId: 'id', clientSecret: 'secret', issuerUrl: 'http://127.0.0.1:9000' });
  });
});

describe('smtpOf', () => {
  it('is null without SMTP_HOST (the local sink is used)', () => {
    expect(smtpOf({ SMTP_FROM: 'a@b.c' })).toBeNull();
  });

  it('reads the SMTP_* variables, with the usual default ports', () => {
    expect(smtpOf({ SMTP_HOST: 'smtp.acme.test', SMTP_FROM: 'Acme <no-reply@acme.test>' })).toEqual({
      host: 'smtp.acme.test',
      port: 587,
      secure: false,
      from: 'Acme <no-reply@acme.test>',
    });
    expect(
      smtpOf({
        SMTP_HOST: 'smtp.acme.test',
        SMTP_SECURE: 'true',
        SMTP_USER: 'mailer',
        SMTP_PASS: 'pw',
        SMTP_FROM: 'no-reply@acme.test',
      }),
    ).toEqual({
      host: 'smtp.acme.test',
      port: 465,
      secure: true,
      user: 'mailer',
      pass: 'pw',
      from: 'no-reply@acme.test',
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => smtpOf({ SMTP_HOST: 'h', SMTP_PORT: 'x', SMTP_FROM: 'a@b.c' })).toThrow(
      new CliError('.env: SMTP_PORT must be a port number (got "x")'),
    );
    expect(() => smtpOf({ SMTP_HOST: 'h' })).toThrow(/SMTP_FROM is required with SMTP_HOST/);
  });
});
