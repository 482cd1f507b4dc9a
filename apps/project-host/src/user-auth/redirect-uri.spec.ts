import { describe, expect, it } from '@jest/globals';
import { AuthError } from '@suite/errors';
import { assertRedirectUri, checkRedirectUri, withQuery } from './redirect-uri.js';

const HOSTS = ['0190c1a2-0000-7000-8000-000000000001.localhost', 'shop.localhost', 'app.shop.example'];
const PROD_HOSTS = [
  '0190c1a2-0000-7000-8000-000000000001.apps.example.com',
  'shop.apps.example.com',
  'login.shop.com',
];

describe('checkRedirectUri', () => {
  it.each([
    ['https on the id host', 'https://0190c1a2-0000-7000-8000-000000000001.localhost/cb'],
    ['https on the slug host with a port and a query', 'https://shop.localhost:8443/auth/done?next=%2Fhome'],
    ['https on a verified custom domain', 'https://app.shop.example/'],
    ['https with an upper-case scheme and host', 'HTTPS://App.Shop.Example/x'],
    ['http on localhost, any port', 'http://localhost:5173/auth'],
    ['http on localhost without a path', 'http://localhost'],
    ['http on 127.0.0.1', 'http://127.0.0.1:3000/cb'],
    ['http on [::1]', 'http://[::1]:8080/cb'],
    ['http on the project host under .localhost (local development)', 'http://shop.localhost:8082/cb'],
    ['a native app scheme', 'com.shop.app://auth/callback'],
    ['a short app scheme', 'myapp://callback?x=1'],
    ['an app scheme with an empty path', 'exp+shop://'],
    ['an app scheme with a path that starts with one slash', 'myapp:///done'],
  ])('accepts %s', (_, uri) => {
    expect(checkRedirectUri(uri, HOSTS)).toEqual({ ok: true, uri: expect.any(String) });
  });

  it.each([
    ['https on another origin', 'https://evil.example/cb'],
    ['https on a look-alike suffix', 'https://shop.localhost.evil.example/'],
    ['https on a parent domain', 'https://localhost/'],
    ['https on a sibling project', 'https://other.localhost/'],
    ['http on another origin', 'http://evil.example/'],
    ['http on a project host that is not .localhost', 'http://login.shop.com/cb', PROD_HOSTS],
    ['http on localhost with a trailing dot', 'http://localhost./cb'],
    ['http on a localhost look-alike', 'http://localhost.evil.example/'],
    ['user information', 'https://evil.example@shop.localhost/'],
    ['user information with a password', 'https://a:b@shop.localhost/'],
    ['user information on localhost', 'http://evil.example@localhost/'],
    ['a percent-encoded host', 'https://shop%2elocalhost/'],
    ['an encoded @ in the host', 'https://evil.example%40shop.localhost/'],
    ['a backslash', 'https:\\\\evil.example'],
    ['a backslash after the host', 'https://shop.localhost\\@evil.example/'],
    ['an encoded backslash', 'https://shop.localhost/%5c%5cevil.example'],
    ['an encoded control character', 'https://shop.localhost/%0d%0aSet-Cookie:x'],
    ['a tab', 'https://shop.localhost/\tx'],
    ['a space', 'https://shop.localhost/ x'],
    ['a newline', 'https://shop.localhost/\nx'],
    ['a fragment', 'https://shop.localhost/#access_token'],
    ['a scheme-relative URI', '//evil.example/'],
    ['https without //', 'https:shop.localhost/'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: with //', 'javascript://shop.localhost/%0aalert(1)'],
    ['JavaScript: in mixed case', 'JaVaScRiPt://x'],
    ['data:', 'data:text/html;base64,PHNjcmlwdD4='],
    ['data: with //', 'data://text/html,x'],
    ['vbscript:', 'vbscript://msgbox'],
    ['file:', 'file:///etc/passwd'],
    ['blob:', 'blob://https://evil.example/x'],
    ['an app scheme with user information', 'myapp://user@host/cb'],
    ['an app scheme with a double slash path', 'myapp:////evil.example'],
    ['an empty string', ''],
    ['plain text', 'not a uri'],
    ['a path only', '/auth/callback'],
    ['a very long URI', `https://shop.localhost/${'a'.repeat(2100)}`],
    // IP-literal and look-alike host spoofs.
    ['an IP literal prefix on another domain (https)', 'https://127.0.0.1.evil.com/'],
    ['an IP literal prefix on another domain (http)', 'http://127.0.0.1.evil.com/'],
    ['localhost as a subdomain of another domain', 'http://localhost.evil.com:5173/'],
    ['the project host as a subdomain of another domain', 'https://shop.localhost.evil.com/'],
    ['the project host as a suffix without a dot', 'https://evilshop.localhost/'],
    ['the project host as a prefix with a dash', 'https://shop.localhost-evil.com/'],
    ['an IPv6 literal prefix on another domain', 'http://[::1].evil.com/'],
    ['an IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/'],
    ['the unspecified address 0.0.0.0', 'http://0.0.0.0:3000/'],
    ['a loopback with a port then user information', 'http://127.0.0.1:80@evil.com/'],
    ['localhost with a port then user information', 'http://localhost:5173@evil.com/'],
    ['[::1] then user information', 'http://[::1]@evil.com/'],
    ['user information with a port on the own host', 'https://shop.localhost:443@evil.com/'],
    ['an out-of-range port', 'http://127.0.0.1:99999/'],
    ['two ports', 'https://shop.localhost:8443:443/'],
    ['an empty host with three slashes', 'https:///shop.localhost/'],
    ['an empty host with three slashes to another origin', 'https:///evil.com'],
    ['one slash after the scheme', 'https:/evil.com'],
    ['a query that looks like user information', 'https://evil.com?@shop.localhost/'],
    ['a fragment that looks like user information', 'https://evil.com#@shop.localhost/'],
    ['the own host in the path of another origin', 'https://evil.com/https://shop.localhost/'],
    // Backslashes and encoded tricks.
    ['a backslash before user information', 'https://evil.com\\@shop.localhost/'],
    ['an encoded backslash before user information', 'https://evil.com%5c@shop.localhost/'],
    ['an encoded slash before user information', 'https://evil.com%2f@shop.localhost/'],
    ['an encoded NUL in the host', 'https://shop.localhost%00.evil.com/'],
    ['an encoded dot in localhost', 'http://localhost%2eevil.com/'],
    ['an encoded ideographic full stop', 'https://shop.localhost%E3%80%82evil.com/'],
    ['an encoded slash after 127.0.0.1', 'http://127.0.0.1%2f@evil.com/'],
    ['a backslash path to another origin', '/\\evil.com'],
    ['a slash and backslash path', '/\\/evil.com'],
    ['two backslashes', '\\\\evil.com'],
    ['three slashes', '///evil.com'],
    ['a backslash after localhost', 'http://localhost:5173\\@evil.com/'],
    // Unicode dots and look-alike letters.
    ['an ideographic full stop in the host', 'https://shop.localhost\u3002evil.com/'],
    ['an ideographic full stop inside the own host', 'https://shop\u3002localhost/'],
    ['a full-width full stop inside the own host', 'https://shop\uff0elocalhost/'],
    ['a half-width ideographic full stop inside the own host', 'https://shop\uff61localhost/'],
    ['a Cyrillic o in the own host', 'https://sh\u043ep.localhost/'],
    ['a full-width scheme', '\uff48\uff54\uff54\uff50\uff53://shop.localhost/'],
    ['a line separator', 'https://shop.localhost/\u2028'],
    ['a zero-width no-break space', '\ufeffhttps://shop.localhost/'],
    // Script and local schemes, in odd casing and with whitespace or control characters.
    ['JAVASCRIPT: in upper case', 'JAVASCRIPT:alert(1)'],
    ['javascript: with leading whitespace', '  javascript:alert(1)'],
    ['javascript: with a tab inside the scheme', 'java\tscript:alert(1)'],
    ['javascript: with a newline inside the scheme', 'java\nscript://x/%0aalert(1)'],
    ['javascript: with a NUL before it', '\u0000javascript://x'],
    ['javascript: percent-encoded colon', 'javascript%3aalert(1)'],
    ['javascript: with an HTML entity', 'jav&#x09;ascript:alert(1)'],
    ['DaTa: with //', 'DaTa://text/html,<script>alert(1)</script>'],
    ['data: with leading whitespace', ' data:text/html,x'],
    ['vbscript: in mixed case', 'vBsCrIpT://msgbox'],
    ['VBSCRIPT: without //', 'VBSCRIPT:msgbox(1)'],
    ['FILE: in upper case', 'FILE:///etc/passwd'],
    ['file: with a Windows drive', 'File:///c:/windows/win.ini'],
    ['file: with a host', 'file://evil.com/share'],
    ['intent:', 'intent://evil.com#Intent;end'],
    ['an app scheme with user information after a host', 'myapp://evil.com@'],
    ['an app scheme with a non-ASCII host', 'myapp://\u0435vil/cb'],
  ])('refuses %s', (_, uri, hosts = HOSTS) => {
    const result = checkRedirectUri(uri, hosts);
    expect(result.ok).toBe(false);
  });

  it('normalises accepted web URIs the way a browser would read them', () => {
    expect(checkRedirectUri('HTTPS://App.Shop.Example', HOSTS)).toEqual({
      ok: true,
      uri: 'https://app.shop.example/',
    });
    expect(checkRedirectUri('http://127.1:3000/x', HOSTS)).toEqual({
      ok: true,
      uri: 'http://127.0.0.1:3000/x',
    });
  });
});

describe('assertRedirectUri', () => {
  it('throws 400 invalid_redirect_uri with the reason', () => {
    expect.assertions(3);
    try {
      assertRedirectUri('https://evil.example/', HOSTS);
    } catch (error) {
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('invalid_redirect_uri');
      expect((error as AuthError).status).toBe(400);
    }
  });

  it('returns the accepted URI', () => {
    expect(assertRedirectUri('myapp://done', HOSTS)).toBe('myapp://done');
  });
});

describe('withQuery', () => {
  it('appends parameters with ? or &, escaping values', () => {
    expect(withQuery('http://localhost:5173/cb', { type: 'magic', code: 'a b' })).toBe(
      'http://localhost:5173/cb?type=magic&code=a+b',
    );
    expect(withQuery('https://shop.localhost/cb?next=1', { code: 'x' })).toBe(
      'https://shop.localhost/cb?next=1&code=x',
    );
    expect(withQuery('myapp://auth?', { code: 'x' })).toBe('myapp://auth?code=x');
    expect(withQuery('myapp://auth', { code: 'x' })).toBe('myapp://auth?code=x');
  });
});

describe('browser hand-off schemes and the project app-scheme list', () => {
  it.each([
    'x-safari-https://evil.example/steal',
    'X-Safari-Https://evil.example/steal',
    'googlechrome://evil.example/steal',
    'googlechromes://evil.example/steal',
    'microsoft-edge://evil.example/',
    'microsoft-edge-https://evil.example/',
    'firefox://open-url?url=https://evil.example/',
    'opera://evil.example/',
    'opera-https://evil.example/',
    'android-app://com.evil/https/evil.example/',
    'intent://evil.example/#Intent;scheme=https;end',
    'web+steal://evil.example/',
    'some-browser-https://evil.example/',
    'x-safari-http://evil.example/',
    'ddgquicklink://evil.example/',
  ])('refuses %s: the OS hands it to a browser, on a web origin', (uri) => {
    const result = checkRedirectUri(uri, HOSTS);
    expect(result.ok).toBe(false);
  });

  it('accepts only the listed app schemes when the project set a list', () => {
    expect(checkRedirectUri('com.shop.app://auth', HOSTS, ['com.shop.app'])).toEqual({
      ok: true,
      uri: 'com.shop.app://auth',
    });
    expect(checkRedirectUri('other.app://auth', HOSTS, ['com.shop.app'])).toEqual({
      ok: false,
      reason: expect.stringContaining("not one of this project's app schemes"),
    });
    // An empty list allows no app scheme; web redirects are unaffected by the list.
    expect(checkRedirectUri('com.shop.app://auth', HOSTS, []).ok).toBe(false);
    expect(checkRedirectUri('http://localhost:5173/cb', HOSTS, []).ok).toBe(true);
    // null: any app scheme but the hand-off ones.
    expect(checkRedirectUri('other.app://auth', HOSTS, null).ok).toBe(true);
  });

  it('keeps a hand-off scheme out even when a project lists it', () => {
    expect(checkRedirectUri('googlechrome://evil.example/', HOSTS, ['googlechrome']).ok).toBe(false);
  });
});
