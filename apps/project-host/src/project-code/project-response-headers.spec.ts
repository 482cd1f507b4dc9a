import { describe, expect, it } from '@jest/globals';
import { filterProjectHeaders, isProjectStatus } from './project-response-headers.js';

describe('project response headers', () => {
  it('keeps ordinary headers, lower-cased, numbers as text', () => {
    expect(
      filterProjectHeaders({
        'Content-Type': 'text/html',
        'X-From': 'project',
        'Cache-Control': 'no-store',
        'Access-Control-Allow-Origin': 'https://app.example.com',
        'x-count': 3,
      }),
    ).toEqual({
      headers: {
        'content-type': 'text/html',
        'x-from': 'project',
        'cache-control': 'no-store',
        'access-control-allow-origin': 'https://app.example.com',
        'x-count': '3',
      },
      dropped: [],
    });
  });

  it('drops hop-by-hop headers, Proxy-*, headers Connection names, and Content-Length', () => {
    const { headers, dropped } = filterProjectHeaders({
      Connection: 'close, X-Secret-Hop',
      'Keep-Alive': 'timeout=5',
      'Transfer-Encoding': 'chunked',
      TE: 'trailers',
      Trailer: 'x-checksum',
      Upgrade: 'websocket',
      'Proxy-Authenticate': 'Basic',
      'Proxy-Connection': 'keep-alive',
      'X-Secret-Hop': '1',
      'Content-Length': '999',
      'x-kept': 'yes',
    });
    expect(headers).toEqual({ 'x-kept': 'yes' });
    expect(dropped).toEqual([
      { name: 'connection', reason: 'hop-by-hop' },
      { name: 'keep-alive', reason: 'hop-by-hop' },
      { name: 'transfer-encoding', reason: 'hop-by-hop' },
      { name: 'te', reason: 'hop-by-hop' },
      { name: 'trailer', reason: 'hop-by-hop' },
      { name: 'upgrade', reason: 'hop-by-hop' },
      { name: 'proxy-authenticate', reason: 'hop-by-hop' },
      { name: 'proxy-connection', reason: 'hop-by-hop' },
      { name: 'x-secret-hop', reason: 'hop-by-hop' },
      { name: 'content-length', reason: 'framing' },
    ]);
  });

  it("drops what the platform owns: transport security, site-wide clearing, the proxy's and its own headers", () => {
    const names = [
      'Strict-Transport-Security',
      'Public-Key-Pins',
      'Expect-CT',
      'Alt-Svc',
      'Clear-Site-Data',
      'Set-Cookie2',
      'X-Accel-Redirect',
      'X-Sendfile',
      'X-Platform-Project',
      'x-suite-trace',
    ];
    const { headers, dropped } = filterProjectHeaders(Object.fromEntries(names.map((n) => [n, 'x'])));
    expect(headers).toEqual({});
    expect(dropped).toEqual(names.map((n) => ({ name: n.toLowerCase(), reason: 'platform' })));
  });

  it('keeps host-only cookies and drops any cookie with a Domain, or named like the platform', () => {
    const { headers, dropped } = filterProjectHeaders({
      'Set-Cookie': [
        'theme=dark; Path=/; HttpOnly',
        'sid=1; Domain=localhost; Path=/',
        'wide=1; path=/; DOMAIN=.example.com',
        'bare=1; Secure; domain',
        '__Host-cart=2; Path=/; Secure',
        'platform_session=x; Path=/',
        '__Secure-suite.token=x; Secure',
      ],
    });
    expect(headers).toEqual({
      'set-cookie': ['theme=dark; Path=/; HttpOnly', '__Host-cart=2; Path=/; Secure'],
    });
    expect(dropped).toEqual([
      { name: 'set-cookie', reason: 'cookie-domain' },
      { name: 'set-cookie', reason: 'cookie-domain' },
      { name: 'set-cookie', reason: 'cookie-domain' },
      { name: 'set-cookie', reason: 'cookie-reserved' },
      { name: 'set-cookie', reason: 'cookie-reserved' },
    ]);
    expect(JSON.stringify(dropped)).not.toContain('localhost');
  });

  it('drops a Location or Refresh that is not an http(s) or relative URL', () => {
    for (const target of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,x',
    ]) {
      expect(filterProjectHeaders({ Location: target }).dropped).toEqual([
        { name: 'location', reason: 'unsafe-url' },
      ]);
    }
    expect(filterProjectHeaders({ Refresh: '0; url=javascript:alert(1)' }).dropped).toEqual([
      { name: 'refresh', reason: 'unsafe-url' },
    ]);
    expect(
      filterProjectHeaders({
        Location: '/next?a=1',
        'Content-Location': 'https://example.com/x',
        Refresh: '5',
      }).headers,
    ).toEqual({ location: '/next?a=1', 'content-location': 'https://example.com/x', refresh: '5' });
    expect(filterProjectHeaders({ Refresh: "3; URL='/later'" }).headers).toEqual({
      refresh: "3; URL='/later'",
    });
  });

  it('drops names and values Node would refuse to send, and values that are not text', () => {
    const { headers, dropped } = filterProjectHeaders({
      'bad name': 'x',
      ':status': '200',
      'x-split': 'a\r\nSet-Cookie: evil=1',
      'x-unicode': 'snow ☃',
      'x-object': { a: 1 },
      'x-empty': [],
      'x-ok': 'fine',
    });
    expect(headers).toEqual({ 'x-ok': 'fine' });
    expect(dropped.map((d) => d.reason)).toEqual(Array(6).fill('invalid'));
    expect(filterProjectHeaders('nope')).toEqual({ headers: {}, dropped: [] });
  });

  it('accepts final statuses only', () => {
    expect([200, 204, 302, 404, 599].every(isProjectStatus)).toBe(true);
    expect([101, 100, 199, 600, 200.5, '200', NaN].some(isProjectStatus)).toBe(false);
  });
});
