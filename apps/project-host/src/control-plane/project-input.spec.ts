import { describe, expect, it } from '@jest/globals';
import { AuthError } from '@suite/errors';
import {
  parseAddDomain,
  parseAuthSettings,
  parseCreateProject,
  parsePage,
  parseSmtpSettings,
} from './project-input.js';

const problem = (parse: () => unknown): string => {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('invalid-request');
    return (error as AuthError).message;
  }
  throw new Error('expected a validation error');
};

describe('control-plane input', () => {
  it('accepts slugs of lower-case letters, digits and inner hyphens, 3 to 63 long', () => {
    for (const slug of ['abc', 'acme-shop', 'a1-b2-c3', '123', 'x'.repeat(63)]) {
      expect(parseCreateProject({ slug })).toEqual({ slug, name: slug });
    }
    expect(parseCreateProject({ slug: 'acme', name: '  Acme Shop  ' }).name).toBe('Acme Shop');
  });

  it('refuses reserved slugs and uuids', () => {
    expect(problem(() => parseCreateProject({ slug: 'www' }))).toBe('slug "www" is reserved');
    expect(problem(() => parseCreateProject({ slug: '0190a5a0-0000-7000-8000-000000000000' }))).toMatch(
      /^slug must not be a uuid/,
    );
  });

  it('keeps secrets that are left out (undefined) apart from secrets cleared (null)', () => {
    const base = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' };
    expect(parseAuthSettings(base)).toMatchObject({ idpClientId: undefined, idpClientSecret: undefined });
    expect(parseAuthSettings({ ...base, idpClientSecret: null })).toMatchObject({ idpClientSecret: null });
    const smtp = { host: 'smtp.test', port: 25, secure: false, from: 'a@b.test' };
    expect(parseSmtpSettings(smtp)).toMatchObject({ user: null, pass: undefined });
    expect(parseSmtpSettings({ ...smtp, pass: null })).toMatchObject({ pass: null });
  });

  it('accepts a From address with or without a display name', () => {
    const smtp = { host: '127.0.0.1', port: 2525, secure: false };
    for (const from of ['no-reply@acme.test', 'Acme <no-reply@acme.test>', '"Acme, Inc." <hi@acme.test>']) {
      expect(parseSmtpSettings({ ...smtp, from }).from).toBe(from);
    }
    expect(problem(() => parseSmtpSettings({ ...smtp, from: 'Acme <nobody>' }))).toMatch(
      /^from must be a mail address/,
    );
  });

  it('lower-cases a domain and drops its trailing dot', () => {
    expect(parseAddDomain({ domain: 'App.Example.COM.' })).toEqual({
      domain: 'app.example.com',
      verified: false,
    });
    expect(parseAddDomain({ domain: 'xn--bcher-kva.example', verified: true })).toEqual({
      domain: 'xn--bcher-kva.example',
      verified: true,
    });
  });

  it('reads page and pageSize from the query string with defaults and bounds', () => {
    expect(parsePage({})).toEqual({ page: 1, pageSize: 20 });
    expect(parsePage({ page: '3', pageSize: ['5', '7'] })).toEqual({ page: 3, pageSize: 7 });
    expect(problem(() => parsePage({ pageSize: '101' }))).toBe(
      'pageSize must be a whole number from 1 to 100',
    );
    expect(problem(() => parsePage({ page: '-1' }))).toBe('page must be a whole number from 1 to 1000000');
  });
});
