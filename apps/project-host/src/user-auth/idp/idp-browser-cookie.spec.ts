import { describe, expect, it } from '@jest/globals';
import { IdpBrowserCookie } from './idp-browser-cookie.js';

const STATE = 'state-0123456789abcdefghijklmnopqrstuvwxyzABCD';

describe('IdpBrowserCookie', () => {
  it('sets a __Host- cookie of its own per sign-in on https and loopback PUBLIC_URLs', () => {
    for (const url of ['https://platform.example.com', 'http://localhost:8082', 'http://127.0.0.1:8082']) {
      const cookie = new IdpBrowserCookie(url);
      const line = cookie.set(STATE, 'key', 600);
      expect(line).toMatch(
        /^__Host-ua_idp_[0-9a-f]{16}=key; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      );
      expect(cookie.nameFor(STATE)).not.toBe(cookie.nameFor(`${STATE}x`));
    }
  });

  it('goes without the prefix (and Secure) on a plain-http PUBLIC_URL elsewhere, which browsers would refuse', () => {
    expect(new IdpBrowserCookie('http://192.168.1.20:8082').set(STATE, 'key', 600)).toMatch(
      /^ua_idp_[0-9a-f]{16}=key; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it('reads only the cookie of this sign-in, and nothing when its name appears twice', () => {
    const cookie = new IdpBrowserCookie('https://platform.example.com');
    const name = cookie.nameFor(STATE);
    const unprefixed = name.replace('__Host-', '');
    expect(cookie.read(STATE, `ua_idp_browser=planted; ${unprefixed}=planted; ${name}=mine`)).toBe('mine');
    expect(cookie.read(STATE, `${unprefixed}=planted`)).toBeUndefined();
    expect(cookie.read(STATE, `${name}=planted; ${name}=mine`)).toBeUndefined();
    expect(cookie.read(undefined, `${name}=mine`)).toBeUndefined();
    expect(cookie.read(STATE, undefined)).toBeUndefined();
  });
});
