import { describe, expect, it } from '@jest/globals';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { validateAdminInput } from '../validation/validate-admin-input.js';
import { AddDomainDto } from './add-domain.dto.js';
import { AuthSettingsDto } from './auth-settings.dto.js';
import { CreateProjectDto } from './create-project.dto.js';
import { EmailsQueryDto, PageQueryDto, UsersQueryDto } from './list-queries.dto.js';
import { SmtpSettingsDto } from './smtp-settings.dto.js';

function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe(AuthErrorCode.InvalidRequest);
    return (error as AuthError).message;
  }
  throw new Error('expected an invalid-request');
}

const body = <T extends object>(dto: new () => T, value: unknown) =>
  problem(() => validateAdminInput(dto, value, 'body'));

describe('control-plane request DTOs', () => {
  it('answer the first problem of the first bad field, worded "<field> <problem>"', () => {
    expect(body(CreateProjectDto, {})).toBe('slug is required');
    expect(body(CreateProjectDto, { slug: null })).toBe('slug is required');
    expect(body(CreateProjectDto, { slug: '', name: 5 })).toBe('slug must not be empty');
    expect(body(CreateProjectDto, { slug: 'ab' })).toBe('slug must be 3 to 63 characters');
    expect(body(CreateProjectDto, { slug: 'admin' })).toBe('slug "admin" is reserved');
    expect(body(CreateProjectDto, { slug: 'www' })).toBe('slug "www" is reserved');
    expect(body(CreateProjectDto, { slug: '0190a5a0-0000-7000-8000-000000000000' })).toMatch(
      /^slug must not be a uuid/,
    );
    expect(body(CreateProjectDto, { slug: 'acme', name: 'a\u0001' })).toBe(
      'name must not contain control characters',
    );
    expect(body(SmtpSettingsDto, { host: 'smtp.example.com', port: '25' })).toBe(
      'port must be a whole number from 1 to 65535',
    );
    expect(body(AuthSettingsDto, { enabled: 'true' })).toBe('enabled must be true or false');
  });

  it('trim what is trimmed, keep secrets as sent, and tell "left out" from "cleared"', () => {
    const smtp = validateAdminInput(
      SmtpSettingsDto,
      {
        host: ' smtp.example.com ',
        port: 25,
        secure: false,
        pass: ' p ',
        user: null,
        from: ' a@b.co ',
        x: 1,
      },
      'body',
    );
    expect({ ...smtp }).toEqual({
      host: 'smtp.example.com',
      port: 25,
      secure: false,
      pass: ' p ',
      user: null,
      from: 'a@b.co',
    });
    expect({ ...validateAdminInput(AddDomainDto, { domain: 'App.Example.COM.' }, 'body') }).toEqual({
      domain: 'App.Example.COM.',
    });
    expect(body(AddDomainDto, { domain: 'shop.example.com', verified: null })).toBe('verified is required');
  });

  it('accept a From address with or without a display name', () => {
    const smtp = { host: '127.0.0.1', port: 2525, secure: false };
    for (const from of ['no-reply@acme.test', 'Acme <no-reply@acme.test>', '"Acme, Inc." <hi@acme.test>']) {
      expect(validateAdminInput(SmtpSettingsDto, { ...smtp, from }, 'body').from).toBe(from);
    }
    expect(body(SmtpSettingsDto, { ...smtp, from: 'Acme <nobody>' })).toMatch(/^from must be a mail address/);
  });

  it('name the first redirect scheme that is not an app scheme', () => {
    const auth = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' };
    const schemes = (redirectSchemes: unknown) => body(AuthSettingsDto, { ...auth, redirectSchemes });
    expect(schemes('acme')).toBe('redirectSchemes must be a list of app schemes, or null');
    expect(schemes(['acme', 5])).toBe('redirectSchemes entry 1 must be a string');
    expect(schemes(['acme', 'HTTPS:'])).toBe(
      'redirectSchemes "HTTPS:" is a web scheme (web redirects go by host, not scheme)',
    );
    expect(schemes(['javascript'])).toBe('redirectSchemes "javascript" is a refused scheme');
    expect(schemes(['opera-https'])).toMatch(/^redirectSchemes "opera-https" is a browser hand-off scheme/);
    expect(schemes(['1acme'])).toMatch(/^redirectSchemes "1acme" is not a URI scheme/);
  });

  it('refuse a body that is not an object', () => {
    for (const value of [null, undefined, [], 'x', 5]) {
      expect(body(CreateProjectDto, value)).toBe('The body must be a JSON object.');
    }
  });

  it('read a query parameter given twice by its last value, and an empty one as left out', () => {
    expect({ ...validateAdminInput(PageQueryDto, { page: ['x', '2'], pageSize: '' }, 'query') }).toEqual({
      page: '2',
    });
    expect(problem(() => validateAdminInput(PageQueryDto, { pageSize: '101' }, 'query'))).toBe(
      'pageSize must be a whole number from 1 to 100',
    );
    expect(problem(() => validateAdminInput(PageQueryDto, { page: '-1' }, 'query'))).toBe(
      'page must be a whole number from 1 to 1000000',
    );
    expect({ ...validateAdminInput(UsersQueryDto, { search: ' Ada ' }, 'query') }).toEqual({ search: 'ada' });
    expect(problem(() => validateAdminInput(EmailsQueryDto, { status: 'lost' }, 'query'))).toBe(
      'status must be one of "queued", "sent", "failed"',
    );
  });
});
