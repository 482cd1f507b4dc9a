import { describe, expect, it } from '@jest/globals';
import { MAIL_NAME_MAX_LENGTH, nameForMail, welcomeMail } from './auth-mails.js';

// The welcome mail carries the name the registrant chose: anyone can register any address with any
// name, so it must not turn the project's own mail into a phishing lure or inject markup.

describe('welcome mail', () => {
  it('escapes the name in the HTML, and leaves out one that carries markup', () => {
    const quoted = welcomeMail({ name: 'Shop' }, 'ada@example.com', 'Ada "The Countess" & co');
    expect(quoted.html).toContain('Hello Ada &#34;The Countess&#34; &#38; co,');
    const markup = welcomeMail({ name: 'Shop' }, 'ada@example.com', '<img src=x onerror=alert(1)>');
    expect(markup.html).not.toContain('<img');
    expect(markup.html).not.toContain('onerror');
  });

  it.each([
    'Click https://evil.example/claim to keep your account',
    'Visit www.evil-login.com now',
    'evil-login.com support',
    'mail admin@evil.example',
  ])('leaves out a name that reads like a link or an address: %s', (name) => {
    const mail = welcomeMail({ name: 'Shop' }, 'ada@example.com', name);
    expect(mail.text.startsWith('Hello,\n')).toBe(true);
    expect(mail.text).not.toMatch(/evil/);
    expect(mail.html).not.toMatch(/evil/);
  });

  it('cuts a long name and drops invisible direction overrides', () => {
    const shown = nameForMail(`Ada\u202e${'x'.repeat(300)}`)!;
    expect(shown.length).toBeLessThanOrEqual(MAIL_NAME_MAX_LENGTH);
    expect(shown).not.toContain('\u202e');
    expect(welcomeMail({ name: 'Shop' }, 'a@example.com', 'Ada Lovelace').text).toContain(
      'Hello Ada Lovelace,',
    );
    expect(nameForMail('   ')).toBeNull();
    expect(nameForMail(null)).toBeNull();
  });
});
