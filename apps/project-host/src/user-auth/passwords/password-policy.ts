import { COMMON_BASE_WORDS, COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_CHARACTERS = 12;
/** bcrypt reads 72 bytes; longer passwords would be silently cut, so they are refused instead. */
export const PASSWORD_MAX_BYTES = 72;

/**
 * Passwords are compared and hashed in Unicode NFKC, so the same password typed on two keyboards
 * (composed or decomposed accents, full-width digits) is the same password (NIST SP 800-63B).
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
};

/**
 * Why a new password is refused, or undefined when it is acceptable. `email` (lower case) makes a
 * password built from the account's own address count as weak.
 */
export function passwordProblem(password: string, email?: string): string | undefined {
  const normalized = normalizePassword(password);
  if ([...normalized].length < PASSWORD_MIN_CHARACTERS) {
    return `must be at least ${PASSWORD_MIN_CHARACTERS} characters`;
  }
  if (Buffer.byteLength(normalized, 'utf8') > PASSWORD_MAX_BYTES) {
    return `must be at most ${PASSWORD_MAX_BYTES} bytes (UTF-8)`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(normalized)) return 'must not contain control characters';
  if (isCommon(normalized.toLowerCase(), email)) return 'is too common or too easy to guess; choose another';
  return undefined;
}

function isCommon(lower: string, email?: string): boolean {
  if (COMMON_PASSWORDS.has(lower)) return true;
  // One short chunk repeated: aaaaaaaaaaaa, abcabcabcabc, 121212121212.
  if (/^(.{1,4})\1+$/u.test(lower)) return true;
  if (isRun(lower)) return true;
  const core = lower.replace(/^[^a-z@$]+/, '').replace(/[^a-z]+$/, '');
  const word = [...core].map((c) => LEET[c] ?? c).join('');
  if (core.length === 0 || COMMON_BASE_WORDS.has(word) || COMMON_BASE_WORDS.has(core)) return true;
  if (email) {
    const local = email.split('@')[0] ?? '';
    const compact = lower.replace(/[^a-z0-9]/g, '');
    if (lower === email || compact === email.replace(/[^a-z0-9]/g, '')) return true;
    if (local.length >= 3 && (word === local || core === local)) return true;
  }
  return false;
}

/** Straight runs such as 123456789012 or abcdefghijkl (wrapping 9 to 0 and z to a). */
function isRun(lower: string): boolean {
  const alphabet = /^[0-9]+$/.test(lower)
    ? '0123456789'
    : /^[a-z]+$/.test(lower)
      ? 'abcdefghijklmnopqrstuvwxyz'
      : '';
  if (!alphabet) return false;
  for (const step of [1, -1]) {
    let run = true;
    for (let i = 1; i < lower.length && run; i++) {
      const previous = alphabet.indexOf(lower[i - 1]!);
      const expected = alphabet[(previous + step + alphabet.length) % alphabet.length];
      run = lower[i] === expected;
    }
    if (run) return true;
  }
  return false;
}
