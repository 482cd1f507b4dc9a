import { describe, expect, it } from '@jest/globals';
import { consentPage, consentPageHeaders, type ConsentView } from './consent-page.js';

// The consent page's markup and policy for the identity provider's sign-in.

const SIGN_IN: ConsentView = {
  projectName: 'Acme',
  clientName: 'Probe',
  returnsTo: '127.0.0.1:8976',
  hidden: { request: 'sealed', csrf: 'token' },
  step: 'sign-in',
  emailPassword: true,
  redirectUri: 'http://127.0.0.1:8976/callback',
  idp: { name: 'idp.example', discovered: true },
  formOrigins: ['http://localhost:8082', 'https://idp.example'],
};

function formAction(view: ConsentView): string {
  return /form-action ([^;]*)/.exec(consentPageHeaders(view)['content-security-policy']!)![1]!;
}

describe('consent page', () => {
  it('lets the client and, on the sign-in step, the provider sign-in origins through form-action', () => {
    expect(formAction(SIGN_IN)).toBe(
      "'self' http://127.0.0.1:8976 http://localhost:8082 https://idp.example",
    );
    expect(formAction({ ...SIGN_IN, step: 'consent' })).toBe("'self' http://127.0.0.1:8976");
    const headers = consentPageHeaders(SIGN_IN);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'none'");
    expect(headers['cache-control']).toBe('no-store');
  });

  it('marks the provider button of a page that could not name the provider yet', () => {
    expect(consentPage(SIGN_IN)).not.toContain('idp_undiscovered');
    const late = consentPage({ ...SIGN_IN, idp: { name: 'idp.example', discovered: false } });
    expect(late).toMatch(
      /<input type="hidden" name="idp_undiscovered" value="1">\s*<div class="actions"><button type="submit" name="action" value="idp">Sign in with idp.example<\/button>/,
    );
  });

  it('goes on to the provider with an instant redirect and a link, the address escaped', () => {
    const html = consentPage({
      ...SIGN_IN,
      step: 'continue',
      hidden: {},
      continueTo: 'http://localhost:8082/internal/auth/idp/start?hop=a&b="c"',
    });
    const escaped = 'http://localhost:8082/internal/auth/idp/start?hop=a&amp;b=&quot;c&quot;';
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${escaped}">`);
    expect(html).toContain(`<a href="${escaped}">Continue to idp.example</a>`);
    expect(html).not.toContain('<form');
  });
});
