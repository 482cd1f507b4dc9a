import { describe, expect, it } from '@jest/globals';
import {
  AddDomainDto,
  AuthSettingsDto,
  CreateProjectDto,
  PageQueryDto,
  SmtpSettingsDto,
  validateAdminInput,
} from '@suite/contracts';
import { toAddDomain, toAuthSettings, toCreateProject, toPage, toSmtpSettings } from './project-input.js';

// What the controllers hand the services: the DTO as the edge validated it, then mapped.
const body = <T extends object>(dto: new () => T, value: unknown): T =>
  validateAdminInput(dto, value, 'body');
const query = <T extends object>(dto: new () => T, value: unknown): T =>
  validateAdminInput(dto, value, 'query');

describe('control-plane input', () => {
  it('names a project by its slug unless it was given a name', () => {
    for (const slug of ['abc', 'acme-shop', 'a1-b2-c3', '123', 'x'.repeat(63)]) {
      expect(toCreateProject(body(CreateProjectDto, { slug }))).toEqual({ slug, name: slug });
    }
    expect(toCreateProject(body(CreateProjectDto, { slug: 'acme', name: '  Acme Shop  ' })).name).toBe(
      'Acme Shop',
    );
  });

  it('keeps secrets that are left out (undefined) apart from secrets cleared (null)', () => {
    const base = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' };
    const auth = (value: object) => toAuthSettings(body(AuthSettingsDto, value));
    expect(auth(base)).toMatchObject({ idpClientId: undefined, idpClientSecret: undefined });
    expect(auth({ ...base, idpClientSecret: null })).toMatchObject({ idpClientSecret: null });
    const smtp = { host: 'smtp.test', port: 25, secure: false, from: 'a@b.test' };
    expect(toSmtpSettings(body(SmtpSettingsDto, smtp))).toMatchObject({ user: null, pass: undefined });
    expect(toSmtpSettings(body(SmtpSettingsDto, { ...smtp, pass: null }))).toMatchObject({ pass: null });
  });

  it('stores app schemes lower-cased, without their colon, once each', () => {
    const base = { enabled: true, emailPassword: true, allowSignups: true, idpMode: 'platform' };
    const schemes = (redirectSchemes: unknown) =>
      toAuthSettings(body(AuthSettingsDto, { ...base, redirectSchemes })).redirectSchemes;
    expect(schemes([' Acme ', 'acme:', 'acme://', 'com.example.app'])).toEqual(['acme', 'com.example.app']);
    expect(schemes(null)).toBeNull();
    expect(schemes(undefined)).toBeNull();
  });

  it('lower-cases a domain and drops its trailing dot', () => {
    expect(toAddDomain(body(AddDomainDto, { domain: 'App.Example.COM.' }))).toEqual({
      domain: 'app.example.com',
      verified: false,
    });
    expect(toAddDomain(body(AddDomainDto, { domain: 'xn--bcher-kva.example', verified: true }))).toEqual({
      domain: 'xn--bcher-kva.example',
      verified: true,
    });
  });

  it('reads page and pageSize with their defaults', () => {
    expect(toPage(query(PageQueryDto, {}))).toEqual({ page: 1, pageSize: 20 });
    expect(toPage(query(PageQueryDto, { page: '3', pageSize: ['5', '7'] }))).toEqual({
      page: 3,
      pageSize: 7,
    });
  });
});
