import { describe, expect, it } from '@jest/globals';
import { randomToken } from '../crypto/auth-secrets.js';
import { HIDDEN, MAIL_PREVIEW_MAX_LENGTH, mailPreview } from './mail-preview.js';

describe('mailPreview', () => {
  const code = randomToken();

  it('hides a link’s code but keeps where it leads and what it is for', () => {
    const link = `https://shop.example.com/?type=magic&code=${code}`;
    const preview = mailPreview(`Sign in:\n\n${link}\n`, [link]);
    expect(preview).toBe(`Sign in:\n\nhttps://shop.example.com/?type=magic&code=${HIDDEN}\n`);
  });

  it('hides a code on its own line, a known secret anywhere, and a code the sender did not name', () => {
    const other = randomToken();
    const preview = mailPreview(`Or enter this code: ${code}\nAnd this one: ${other}`, [code]);
    expect(preview).toBe(`Or enter this code: ${HIDDEN}\nAnd this one: ${HIDDEN}`);
  });

  it('hides query values, fragments and credentials of any link, and six-to-eight-digit codes', () => {
    const preview = mailPreview(
      'Open https://u:p@app.test/verify/0190d3c2-7a1b-7cde-8f00-112233445566?t=abc123&lang=en#tok and enter 482913.',
    );
    expect(preview).toBe(
      `Open https://${HIDDEN}@app.test/verify/${HIDDEN}?t=${HIDDEN}&lang=en#${HIDDEN} and enter ${HIDDEN}.`,
    );
  });

  it('keeps ordinary words, slugs, years and amounts', () => {
    const text = 'Welcome to shop-eu-2026, Ada: your account is ready since 2026 (order 1234).';
    expect(mailPreview(text)).toBe(text);
  });

  it('is cut to its maximum length', () => {
    expect(mailPreview('a '.repeat(MAIL_PREVIEW_MAX_LENGTH))).toHaveLength(MAIL_PREVIEW_MAX_LENGTH + 1);
  });
});
