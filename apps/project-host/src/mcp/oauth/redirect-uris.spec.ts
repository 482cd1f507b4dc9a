import { describe, expect, it } from '@jest/globals';
import { redirectUriMatches, redirectUriProblem } from './redirect-uris.js';

describe('MCP client redirect URIs', () => {
  it('registers https, loopback http and private-use schemes only', () => {
    expect(redirectUriProblem('https://claude.ai/api/mcp/auth_callback')).toBeUndefined();
    expect(redirectUriProblem('http://127.0.0.1:33418/callback')).toBeUndefined();
    expect(redirectUriProblem('http://localhost/callback')).toBeUndefined();
    expect(redirectUriProblem('cursor://anysphere.cursor-retrieval/oauth/callback')).toBeUndefined();
    expect(redirectUriProblem('http://evil.example/callback')).toMatch(/loopback only/);
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/not allowed/);
    expect(redirectUriProblem('data:text/html,hi')).toMatch(/not allowed/);
    expect(redirectUriProblem('https://a.example/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('https://user:pw@a.example/cb')).toMatch(/credentials/);
    expect(redirectUriProblem('/relative')).toMatch(/absolute/);
  });

  it('matches exactly, and loopback http on any port (RFC 8252)', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1:5000/callback'];
    expect(redirectUriMatches(registered, 'https://app.example/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:61234/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'https://app.example/cb/')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example/cb?x=1')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example.evil/cb')).toBe(false);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:61234/other')).toBe(false);
    expect(redirectUriMatches(registered, 'http://localhost:5000/callback')).toBe(false);
    expect(redirectUriMatches(registered, 'https://127.0.0.1:5000/callback')).toBe(false);
  });
});
