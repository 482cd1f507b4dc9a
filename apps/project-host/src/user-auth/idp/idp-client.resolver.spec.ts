import { describe, expect, it } from '@jest/globals';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ProjectHostConfig } from '../../project-host.config.js';
import { DEFAULT_IDP_ISSUER_URL, ProjectIdpClientResolver } from './idp-client.resolver.js';

const platformKeys = {
  IDP_CLIENT_ID: 'platform-id',
  IDP_CLIENT_SECRET: 'platform-secret',
  IDP_ISSUER_URL: 'https://idp.example.com',
} as ProjectHostConfig;

function project(auth: Partial<ProjectContext['auth']>): ProjectContext {
  return {
    auth: {
      enabled: true,
      emailPassword: true,
      allowSignups: true,
      idpMode: 'platform',
      idpClientId: null,
      idpClientSecret: null,
      ...auth,
    },
  } as ProjectContext;
}

describe('ProjectIdpClientResolver', () => {
  it('uses the platform keys and issuer in Platform mode', () => {
    expect(new ProjectIdpClientResolver(platformKeys).resolve(project({}))).toEqual({
      ok: true,
      client: {
        mode: 'platform',
        issuerUrl: 'https://idp.example.com',
        clientId: 'platform-id',
        clientSecret: 'platform-secret',
      },
    });
  });

  it('uses the project keys in Custom mode, never the platform ones', () => {
    const resolved = new ProjectIdpClientResolver(platformKeys).resolve(
      project({ idpMode: 'custom', idpClientId: 'own-id', idpClientSecret: 'own-secret' }),
    );
    expect(resolved).toMatchObject({ ok: true, client: { mode: 'custom', clientId: 'own-id' } });
    expect(
      new ProjectIdpClientResolver(platformKeys).resolve(
        project({ idpMode: 'custom', idpClientId: 'own-id' }),
      ),
    ).toEqual({ ok: false, reason: 'unconfigured' });
  });

  it('is disabled in Off mode even with keys', () => {
    expect(new ProjectIdpClientResolver(platformKeys).resolve(project({ idpMode: 'off' }))).toEqual({
      ok: false,
      reason: 'disabled',
    });
  });

  it('is unconfigured in Platform mode when either platform key is missing', () => {
    const noSecret = { ...platformKeys, IDP_CLIENT_SECRET: undefined } as ProjectHostConfig;
    expect(new ProjectIdpClientResolver(noSecret).resolve(project({}))).toEqual({
      ok: false,
      reason: 'unconfigured',
    });
    const noId = { ...platformKeys, IDP_CLIENT_ID: '' } as ProjectHostConfig;
    expect(new ProjectIdpClientResolver(noId).resolve(project({}))).toEqual({
      ok: false,
      reason: 'unconfigured',
    });
  });

  it('defaults the issuer to the public identity provider', () => {
    const noIssuer = { ...platformKeys, IDP_ISSUER_URL: undefined } as ProjectHostConfig;
    expect(new ProjectIdpClientResolver(noIssuer).resolve(project({}))).toMatchObject({
      ok: true,
      client: { issuerUrl: DEFAULT_IDP_ISSUER_URL },
    });
  });
});
