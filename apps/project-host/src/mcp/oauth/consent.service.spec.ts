import { beforeEach, describe, expect, it } from '@jest/globals';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { AuthSecrets, randomToken } from '@suite/project-runtime';
import { createHash } from 'node:crypto';
import type { ProjectContext } from '../../projects/project-context.js';
import type { ConsentIdpOption } from '../../user-auth/idp/idp-sign-in.service.js';
import { testProject } from '../../user-auth/testing/fakes.js';
import type { ClientMeta } from '../../user-auth/tokens/token-pair.js';
import { consentCookieName } from './consent-cookies.js';
import { ConsentSeals } from './consent-seals.js';
import { ConsentSignInService, type ConsentUser } from './consent-sign-in.service.js';
import { ConsentService, type ConsentAnswer, type ConsentInput } from './consent.service.js';
import { McpOAuthService, type AuthorizeRequest } from './mcp-oauth.service.js';
import type { OAuthClientRecord } from './oauth-clients.js';
import { OAuthError } from './oauth-error.js';

// The consent page's flow over a fake authorization server (one registered client, consents in a
// set) and fake sign-in methods; the seals and CSRF tokens are the real ones. The page itself and
// the routes are the e2e specs' (project-mcp-oauth, -consent-magic-link, -consent-idp, -slow-idp).

const REDIRECT = 'http://127.0.0.1:8976/callback';
const ADA: ConsentUser = { id: 'user-ada', email: 'ada@example.com' };
const META: ClientMeta = { ip: '203.0.113.7', userAgent: 'unit-test' };
const CLIENT: OAuthClientRecord = {
  id: 'mcp_client',
  kind: 'registered',
  name: 'Probe',
  redirectUris: [REDIRECT],
  authMethod: 'none',
  secretHash: null,
  metadata: {} as OAuthClientRecord['metadata'],
};

class FakeOAuth extends McpOAuthService {
  registered = true;
  readonly consents = new Set<string>();
  readonly approved: string[] = [];

  constructor() {
    super(
      ...([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ] as unknown as ConstructorParameters<typeof McpOAuthService>),
    );
  }

  override async clientOf(
    _ctx: ProjectContext,
    query: Record<string, unknown>,
  ): Promise<{ client: OAuthClientRecord; redirectUri: string }> {
    if (!this.registered || query.client_id !== CLIENT.id) {
      throw new OAuthError('invalid_client', 'This application is not registered with this project.');
    }
    if (query.redirect_uri !== REDIRECT)
      throw new OAuthError('invalid_request', 'The redirect URI is not one this application registered.');
    return { client: CLIENT, redirectUri: REDIRECT };
  }

  override async hasConsent(_ctx: ProjectContext, userId: string, clientId: string): Promise<boolean> {
    return this.consents.has(`${userId}:${clientId}`);
  }

  override async approve(
    _ctx: ProjectContext,
    origin: string,
    userId: string,
    client: OAuthClientRecord,
    request: AuthorizeRequest,
  ): Promise<string> {
    this.approved.push(userId);
    this.consents.add(`${userId}:${client.id}`);
    return this.redirect(origin, request, { code: `code-for-${userId}` });
  }
}

class FakeSignIn extends ConsentSignInService {
  option: ConsentIdpOption | undefined = undefined;
  refusal: AuthError | undefined = undefined;
  readonly calls: string[] = [];

  constructor() {
    super(
      ...([undefined, undefined, undefined, undefined] as unknown as ConstructorParameters<
        typeof ConsentSignInService
      >),
    );
  }

  override async password(_ctx: ProjectContext, action: 'signin' | 'signup'): Promise<ConsentUser> {
    this.calls.push(action);
    if (this.refusal) throw this.refusal;
    return ADA;
  }

  override async mailLink(_ctx: ProjectContext, origin: string): Promise<string> {
    this.calls.push(`mail ${origin}/oauth/authorize/magic`);
    return 'Check your email.';
  }

  override async magicLink(_ctx: ProjectContext, code: unknown): Promise<ConsentUser> {
    this.calls.push(`magic ${String(code)}`);
    if (code !== 'good') throw new AuthError(AuthErrorCode.NonceInvalid, undefined, { status: 400 });
    return ADA;
  }

  override async idpOption(): Promise<ConsentIdpOption | undefined> {
    return this.option;
  }

  override async startIdp(_ctx: ProjectContext, _origin: string): Promise<string> {
    this.calls.push('idp');
    return 'http://localhost:8082/internal/auth/idp/start?hop=h';
  }

  override async redeemIdp(
    _ctx: ProjectContext,
    code: unknown,
    browser: string,
  ): Promise<ConsentUser | undefined> {
    this.calls.push(`redeem ${String(code)}`);
    return code === 'good' && browser ? ADA : undefined;
  }
}

let ctx: ProjectContext;
let origin: string;
let oauth: FakeOAuth;
let signIn: FakeSignIn;
let service: ConsentService;
const verifier = randomToken();

beforeEach(() => {
  ctx = testProject();
  origin = ctx.publicUrl;
  oauth = new FakeOAuth();
  signIn = new FakeSignIn();
  service = new ConsentService(
    oauth,
    signIn,
    new ConsentSeals(new AuthSecrets('consent-unit-test-secret-0123456789')),
  );
});

function authorizeQuery(overrides: Record<string, string> = {}): Record<string, unknown> {
  return {
    response_type: 'code',
    client_id: CLIENT.id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    ...overrides,
  };
}

function input(params: Record<string, unknown>, cookies?: string): ConsentInput {
  return { origin, cookies, params, meta: META };
}

/** A browser on the page: its Cookie header, and the hidden fields of the last page it got. */
class Browser {
  cookies = new Map<string, string>();
  fields: Record<string, string> = {};

  get header(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  take(answer: ConsentAnswer): ConsentAnswer {
    for (const line of answer.setCookies) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      if (/Max-Age=0/.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, rest.join('='));
    }
    if (answer.kind === 'page') this.fields = { ...answer.view.hidden };
    return answer;
  }

  async open(query = authorizeQuery()): Promise<ConsentAnswer> {
    return this.take(await service.show(ctx, input(query, this.header)));
  }

  async post(form: Record<string, string>): Promise<ConsentAnswer> {
    return this.take(await service.decide(ctx, input({ ...this.fields, ...form }, this.header)));
  }
}

function pageOf(answer: ConsentAnswer) {
  if (answer.kind !== 'page') throw new Error(`expected a page, got a redirect to ${answer.location}`);
  return answer;
}

function locationOf(answer: ConsentAnswer): URL {
  if (answer.kind !== 'redirect') throw new Error(`expected a redirect, got a ${answer.status} page`);
  return new URL(answer.location);
}

describe('showing the request', () => {
  it('gives a new browser a CSRF cookie and shows the sign-in step with the sealed request and token', async () => {
    const browser = new Browser();
    const shown = pageOf(await browser.open());
    expect(shown.status).toBe(200);
    expect(shown.view.step).toBe('sign-in');
    expect(shown.view.clientName).toBe('Probe');
    expect(shown.view.returnsTo).toBe('127.0.0.1:8976');
    expect(browser.cookies.get(consentCookieName(ctx.publicUrl, 'csrf'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(shown.view.hidden).sort()).toEqual(['csrf', 'request']);
    // A browser that has the cookie keeps it.
    expect((await browser.open()).setCookies).toEqual([]);
  });

  it('shows an unknown client or redirect URI here, and sends other problems back to the client with state and iss', async () => {
    const unknown = pageOf(await new Browser().open(authorizeQuery({ client_id: 'mcp_other' })));
    expect(unknown.status).toBe(400);
    expect(unknown.view.error).toBe('This application is not registered with this project.');
    const elsewhere = pageOf(
      await new Browser().open(authorizeQuery({ redirect_uri: 'https://evil.example/cb' })),
    );
    expect(elsewhere.status).toBe(400);

    const plain = locationOf(await new Browser().open(authorizeQuery({ code_challenge_method: 'plain' })));
    expect(`${plain.origin}${plain.pathname}`).toBe(REDIRECT);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('state')).toBe('st');
    expect(plain.searchParams.get('iss')).toBe(origin);
  });

  it('says so when MCP or sign-in is off for the project', async () => {
    ctx = testProject({ mcpEnabled: false });
    const off = pageOf(await new Browser().open());
    expect(off.status).toBe(404);
    expect(off.view.error).toBe('MCP is off for this project.');
    expect(off.setCookies).toEqual([]);
    ctx = testProject({ enabled: false });
    expect(pageOf(await new Browser().open()).view.error).toBe('Sign-in is off for this project.');
  });
});

describe('the forms', () => {
  it('refuses a form without this browser’s CSRF token, signing nobody in', async () => {
    const browser = new Browser();
    await browser.open();
    for (const csrf of ['', 'a'.repeat(64), undefined]) {
      const forged = pageOf(
        await browser.post({ action: 'signin', ...(csrf === undefined ? {} : { csrf }) }),
      );
      expect(forged.status).toBe(403);
    }
    // The right token with another browser's cookie.
    const other = new Browser();
    await other.open();
    other.fields = { ...browser.fields };
    expect(pageOf(await other.post({ action: 'signin' })).status).toBe(403);
    expect(signIn.calls).toEqual([]);
  });

  it('refuses a sealed request of another project', async () => {
    const browser = new Browser();
    await browser.open();
    const request = browser.fields.request!;
    ctx = { ...testProject(), publicUrl: ctx.publicUrl };
    await browser.open();
    const crossed = pageOf(await browser.post({ action: 'signin', request }));
    expect(crossed.status).toBe(400);
    expect(crossed.view.error).toBe('This sign-in expired. Start again from your application.');
  });

  it('signs in, shows Allow / Deny, and Allow redirects with a code', async () => {
    const browser = new Browser();
    await browser.open();
    const consent = pageOf(await browser.post({ action: 'signin', email: ADA.email, password: 'pw' }));
    expect(consent.view.step).toBe('consent');
    expect(consent.view.signedInAs).toBe(ADA.email);
    expect(consent.view.hidden.ticket).toBeDefined();
    const allowed = locationOf(await browser.post({ action: 'allow' }));
    expect(allowed.searchParams.get('code')).toBe('code-for-user-ada');
    expect(allowed.searchParams.get('state')).toBe('st');
    expect(oauth.approved).toEqual([ADA.id]);
  });

  it('refuses Allow without the ticket of this very request', async () => {
    const browser = new Browser();
    await browser.open();
    pageOf(await browser.post({ action: 'signup', email: ADA.email, password: 'pw' }));
    const ticket = browser.fields.ticket!;
    // A new request in the same browser: the old ticket does not approve it.
    await browser.open(authorizeQuery({ state: 'other' }));
    const refused = pageOf(await browser.post({ action: 'allow', ticket }));
    expect(refused.status).toBe(400);
    // No ticket at all.
    await browser.open();
    expect(pageOf(await browser.post({ action: 'allow' })).status).toBe(400);
    expect(oauth.approved).toEqual([]);
  });

  it('goes straight back to the client when the user approved it before', async () => {
    oauth.consents.add(`${ADA.id}:${CLIENT.id}`);
    const browser = new Browser();
    await browser.open();
    const back = locationOf(await browser.post({ action: 'signin', email: ADA.email, password: 'pw' }));
    expect(back.searchParams.get('code')).toBe('code-for-user-ada');
  });

  it('shows the sign-in step again with what went wrong, the email kept', async () => {
    signIn.refusal = new AuthError(AuthErrorCode.InvalidCredentials, undefined, { status: 401 });
    const browser = new Browser();
    await browser.open();
    const again = pageOf(await browser.post({ action: 'signin', email: ADA.email, password: 'wrong' }));
    expect(again.status).toBe(401);
    expect(again.view.step).toBe('sign-in');
    expect(again.view.error).toBe('The email or password is wrong.');
    expect(again.view.email).toBe(ADA.email);
  });

  it('denies with access_denied, state and iss', async () => {
    const browser = new Browser();
    await browser.open();
    const denied = locationOf(await browser.post({ action: 'deny' }));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('st');
    expect(denied.searchParams.get('iss')).toBe(origin);
  });

  it('says when the client was removed since the page was shown', async () => {
    const browser = new Browser();
    await browser.open();
    oauth.registered = false;
    const gone = pageOf(await browser.post({ action: 'deny' }));
    expect(gone.status).toBe(400);
    expect(gone.view.error).toBe('This application is no longer registered.');
  });

  it('refuses an unknown action', async () => {
    const browser = new Browser();
    await browser.open();
    expect(pageOf(await browser.post({ action: 'approve-all' })).view.error).toBe('Unknown action.');
  });
});

describe('a mailed sign-in link', () => {
  it('keeps the request pending in this browser, and the link goes on to its consent step there only', async () => {
    const browser = new Browser();
    await browser.open();
    const mailed = pageOf(await browser.post({ action: 'magic-link', email: ADA.email }));
    expect(mailed.view.notice).toContain('Check your email.');
    expect(signIn.calls).toEqual([`mail ${origin}/oauth/authorize/magic`]);
    const pending = consentCookieName(ctx.publicUrl, 'pending');
    expect(browser.cookies.has(pending)).toBe(true);

    // Another browser (no pending request): the code is not even tried, so not spent.
    const elsewhere = pageOf(await service.magicLinkReturn(ctx, input({ code: 'good' })));
    expect(elsewhere.status).toBe(400);
    expect(signIn.calls).not.toContain('magic good');

    const wrong = pageOf(await service.magicLinkReturn(ctx, input({ code: 'bad' }, browser.header)));
    expect(wrong.status).toBe(400);
    expect(wrong.view.step).toBe('sign-in');

    const landed = browser.take(await service.magicLinkReturn(ctx, input({ code: 'good' }, browser.header)));
    expect(pageOf(landed).view.step).toBe('consent');
    expect(browser.cookies.has(pending)).toBe(false);
    expect(locationOf(await browser.post({ action: 'allow' })).searchParams.get('code')).toBe(
      'code-for-user-ada',
    );
  });

  it('is refused when email sign-in is off', async () => {
    ctx = testProject({ emailPassword: false });
    const off = pageOf(await service.magicLinkReturn(ctx, input({ code: 'good' })));
    expect(off.status).toBe(403);
  });
});

describe('the identity provider', () => {
  const known: ConsentIdpOption = {
    name: 'idp.example',
    origins: ['http://localhost:8082', 'https://idp.example'],
    discovered: true,
  };

  it('offers the provider with the origins its redirects pass, and redirects the press there', async () => {
    signIn.option = known;
    const browser = new Browser();
    const shown = pageOf(await browser.open());
    expect(shown.view.idp).toEqual({ name: 'idp.example', discovered: true });
    expect(shown.view.formOrigins).toEqual(known.origins);
    const pressed = locationOf(await browser.post({ action: 'idp' }));
    expect(pressed.pathname).toBe('/internal/auth/idp/start');
    expect(browser.cookies.has(consentCookieName(ctx.publicUrl, 'pending'))).toBe(true);
  });

  it('offers a provider whose discovery is not known yet, and its press goes on through a page', async () => {
    signIn.option = { name: 'idp.example', origins: ['http://localhost:8082'], discovered: false };
    const browser = new Browser();
    const shown = pageOf(await browser.open());
    expect(shown.view.idp).toEqual({ name: 'idp.example', discovered: false });
    const pressed = pageOf(await browser.post({ action: 'idp', idp_undiscovered: '1' }));
    expect(pressed.status).toBe(200);
    expect(pressed.view.step).toBe('continue');
    expect(pressed.view.continueTo).toBe('http://localhost:8082/internal/auth/idp/start?hop=h');
    expect(browser.cookies.has(consentCookieName(ctx.publicUrl, 'pending'))).toBe(true);
  });

  it('signs in from the hand-back in the browser that started, and tells why when the provider refused', async () => {
    signIn.option = known;
    const browser = new Browser();
    await browser.open();
    await browser.post({ action: 'idp' });
    const refused = pageOf(await service.idpReturn(ctx, input({ error: 'signup_disabled' }, browser.header)));
    expect(refused.status).toBe(403);
    expect(refused.view.error).toBe('This project does not take new accounts.');
    expect(pageOf(await service.idpReturn(ctx, input({ code: 'good' }))).status).toBe(400);
    expect(pageOf(await service.idpReturn(ctx, input({ code: 'spent' }, browser.header))).status).toBe(400);
    const landed = pageOf(await service.idpReturn(ctx, input({ code: 'good' }, browser.header)));
    expect(landed.view.signedInAs).toBe(ADA.email);
  });
});
