import { describe, expect, it } from '@jest/globals';
import { textMatches, urlMatches } from './step-assertions.js';
import { compileUserPattern, regexLiteral, UserPatternError } from './user-pattern.js';

const refusal = (pattern: string): string => {
  try {
    compileUserPattern(pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(UserPatternError);
    return (error as Error).message;
  }
  throw new Error(`${pattern} was accepted`);
};

describe('compileUserPattern', () => {
  it('reads /source/flags as a regular expression with the flags i, m and s', () => {
    expect(compileUserPattern('/^Dash/').test('Dashboard')).toBe(true);
    expect(compileUserPattern('/^dash/').test('Dashboard')).toBe(false);
    expect(compileUserPattern('/^dash/i').test('Dashboard')).toBe(true);
    expect(compileUserPattern('/^two$/').test('one\ntwo')).toBe(false);
    expect(compileUserPattern('/^two$/m').test('one\ntwo')).toBe(true);
    expect(compileUserPattern('/one.two/').test('one\ntwo')).toBe(false);
    expect(compileUserPattern('/one.two/s').test('one\ntwo')).toBe(true);
    // g, d and u change nothing for a yes/no answer; a URL path is not a literal.
    expect(compileUserPattern('/\\d+/gu').test('order 42')).toBe(true);
    expect(regexLiteral('/a/b')).toBeUndefined();
    expect(compileUserPattern('/orders/\\d+').test('https://shop.test/orders/42')).toBe(true);
  });

  it('reads other text as a case-insensitive pattern, and invalid ones as plain text', () => {
    expect(compileUserPattern('order #\\d+').test('Order #42 placed')).toBe(true);
    expect(compileUserPattern('Price (USD').test('price (usd) 12')).toBe(true);
    expect(compileUserPattern('Price (USD').test('Price USD')).toBe(false);
  });

  it('rewrites JavaScript escapes RE2 spells differently', () => {
    expect(compileUserPattern('/\\u0041\\u{42}/').test('xABy')).toBe(true);
    expect(compileUserPattern('/a\\/b/').test('a/b')).toBe(true);
    expect(compileUserPattern('/a[^]b/').test('a\nb')).toBe(true);
    expect(compileUserPattern('/(?<year>\\d{4})-\\d{2}/').test('2026-11')).toBe(true);
  });

  it('refuses lookaround, backreferences and the y and v flags, saying what RE2 does not support', () => {
    expect(refusal('/Neigh(?=bour)/')).toMatch(
      /^the pattern \/Neigh\(\?=bour\)\/ uses a lookahead \(\?=…\), which is not supported: patterns use RE2 syntax/,
    );
    expect(refusal('/a(?!b)/')).toMatch(/negative lookahead/);
    expect(refusal('/(?<=a)b/')).toMatch(/uses a lookbehind/);
    expect(refusal('/(?<!a)b/')).toMatch(/negative lookbehind/);
    expect(refusal('/(a)\\1/')).toMatch(/the backreference \\1/);
    expect(refusal('(?<q>a)\\k<q>')).toMatch(/named backreference/);
    expect(refusal('/a/y')).toMatch(/the flag y, which is not supported/);
    expect(refusal('/a/v')).toMatch(/the flag v/);
    // Inside a character class these are plain characters.
    expect(compileUserPattern('/[(?=]/').test('=')).toBe(true);
    // Valid JavaScript that RE2 cannot compile is refused with RE2's reason.
    expect(refusal('/a{1001}/')).toMatch(/not supported \(invalid repeat count/);
  });

  it('gives the right answer to a catastrophic pattern on long text', () => {
    const title = `${'a'.repeat(32)}!`;
    expect(compileUserPattern('/^(a+)+$/').test(title)).toBe(false);
    expect(compileUserPattern('/^(a+)+$/').test('a'.repeat(32))).toBe(true);
    const long = `${'a'.repeat(200_000)}!`;
    expect(compileUserPattern('/(a|aa)+$/').test(long)).toBe(false);
    expect(compileUserPattern('(x+x+)+y').test('x'.repeat(50_000))).toBe(false);
  });

  it('is what the title, text and URL checks use', () => {
    expect(textMatches(`${'a'.repeat(40)}!`, '/^(a+)+$/', 'matches')).toBe(false);
    expect(urlMatches('https://shop.test/orders/42', '/orders\\/\\d+$/', 'matches')).toBe(true);
    expect(() => urlMatches('https://shop.test/', '/(?=x)/', 'matches')).toThrow(UserPatternError);
  });
});
