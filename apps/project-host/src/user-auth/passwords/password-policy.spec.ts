import { describe, expect, it } from '@jest/globals';
import { normalizePassword, passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it.each([
    'correct horse battery staple',
    'Tr0ub4dor&3-extended',
    'vT9!qLx2#mPw',
    'ünïcödé-pässwörd-42',
    '🙂🙂🙂-sunny-hills',
  ])('accepts %s', (password) => {
    expect(passwordProblem(password)).toBeUndefined();
  });

  it.each([
    ['11 characters', 'Aa1!Aa1!Aa1', /at least 12 characters/],
    ['12 bytes but 4 characters', '😀😀😀', /at least 12 characters/],
    ['more than 72 bytes', 'é'.repeat(37), /at most 72 bytes/],
    ['a NUL byte', 'abcdefghijk\u0000l', /control characters/],
    ['a breach-list password', 'qwertyuiop123', /too common/],
    ['a common word with digits', 'Password123456', /too common/],
    ['a common word in leetspeak', 'P@ssw0rd!2024', /too common/],
    ['a common word with symbols around it', '!!!welcome!!!', /too common/],
    ['digits only from the list', '123456789012', /too common/],
    ['a descending run', '987654321098', /too common/],
    ['a letter run', 'abcdefghijklm', /too common/],
    ['a repeated character', 'zzzzzzzzzzzz', /too common/],
    ['a repeated chunk', 'abcabcabcabc', /too common/],
    ['only symbols and digits', '!!!!1111????', /too common/],
  ])('refuses %s', (_, password, message) => {
    expect(passwordProblem(password)).toMatch(message);
  });

  it('refuses the account address and its local part', () => {
    expect(passwordProblem('ada.lovelace@example.com', 'ada.lovelace@example.com')).toMatch(/too common/);
    expect(passwordProblem('adalovelace1815', 'adalovelace@example.com')).toMatch(/too common/);
    expect(passwordProblem('adalovelace1815', 'grace@example.com')).toBeUndefined();
  });

  it('counts characters after NFKC normalisation', () => {
    // Full-width digits and letters normalise to ASCII: the same password however it was typed.
    expect(normalizePassword('ＡＢＣ１２３')).toBe('ABC123');
    expect(normalizePassword('e\u0301')).toBe('é');
  });
});
