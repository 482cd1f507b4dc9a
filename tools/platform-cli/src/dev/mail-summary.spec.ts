import { describe, expect, it } from '@jest/globals';
import { mailSummary } from './mail-summary.js';

describe('mailSummary', () => {
  it('shows the recipient, the subject, each link once and the codes', () => {
    const text = [
      'Someone asked to reset the password of your Boards account. Open this link to choose a new one:',
      '',
      'http://boards-1a2b3c.localhost:3000?type=forgot-password&code=Zx_9-y',
      '',
      'Or enter this code: Zx_9-y',
      '',
      'Again: http://boards-1a2b3c.localhost:3000?type=forgot-password&code=Zx_9-y',
    ].join('\n');
    expect(mailSummary({ to: 'ada@example.com', subject: 'Reset your Boards password', text })).toBe(
      [
        'to ada@example.com: Reset your Boards password',
        '  link: http://boards-1a2b3c.localhost:3000?type=forgot-password&code=Zx_9-y',
        '  code: Zx_9-y',
      ].join('\n'),
    );
  });

  it('is one line for a mail without links or codes', () => {
    expect(
      mailSummary({ to: 'ada@example.com', subject: 'Welcome to Boards', text: 'Hello,\n\nready.' }),
    ).toBe('to ada@example.com: Welcome to Boards');
  });
});
