import { describe, expect, it } from '@jest/globals';
import { parseTestFile } from './test-file.parser.js';
import { TestFileError } from './test-file.js';

const errorOf = (source: string): TestFileError => {
  try {
    parseTestFile('tests/bad.test.md', source);
  } catch (error) {
    if (error instanceof TestFileError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
};

describe('test file parsing', () => {
  it('reads front matter and a numbered list, keeping each step’s line', () => {
    const test = parseTestFile(
      'tests/sign-in.test.md',
      [
        '---',
        'title: Sign in works',
        'url: /login',
        'tags: [smoke, auth]',
        'timeout: 90s',
        'model: instruction-interpreter',
        'secrets:',
        '  PASSWORD: E2E_PASSWORD',
        '---',
        '',
        '1. Type "ada@example.com" into the Email field',
        '2. Type "{{secret.PASSWORD}}" into the Password field',
        '3. Click Sign in',
      ].join('\n'),
    );
    expect(test).toEqual({
      file: 'tests/sign-in.test.md',
      title: 'Sign in works',
      url: '/login',
      tags: ['smoke', 'auth'],
      timeoutMs: 90_000,
      model: 'instruction-interpreter',
      secrets: { PASSWORD: 'E2E_PASSWORD' },
      lines: { title: 2, url: 3, tags: 4, timeout: 5, model: 6, secrets: 7 },
      steps: [
        { text: 'Type "ada@example.com" into the Email field', line: 11 },
        { text: 'Type "{{secret.PASSWORD}}" into the Password field', line: 12 },
        { text: 'Click Sign in', line: 13 },
      ],
    });
  });

  it('reads plain lines and bullets without front matter, skipping headings, comments and code fences', () => {
    const test = parseTestFile(
      'tests/checkout.test.md',
      [
        '# Checkout',
        '',
        '<!-- a note',
        'over two lines -->',
        'Open /cart',
        '- [ ] Click "Pay"',
        '* The page contains "Paid"',
        '```',
        'not a step',
        '```',
      ].join('\r\n'),
    );
    expect(test.title).toBe('Checkout');
    expect(test.steps).toEqual([
      { text: 'Open /cart', line: 5 },
      { text: 'Click "Pay"', line: 6 },
      { text: 'The page contains "Paid"', line: 7 },
    ]);
    expect(test.tags).toEqual([]);
    expect(test.url).toBeUndefined();
  });

  it('names a test after its file when it has no title or heading', () => {
    expect(parseTestFile('a/b/cart-total.test.md', 'Open /cart').title).toBe('cart-total');
  });

  it('accepts secrets as a list of variable names and tags as a comma-separated text', () => {
    const test = parseTestFile('t.test.md', '---\nsecrets: [API_TOKEN]\ntags: smoke, nightly\n---\nOpen /');
    expect(test.secrets).toEqual({ API_TOKEN: 'API_TOKEN' });
    expect(test.tags).toEqual(['smoke', 'nightly']);
  });

  it('refuses invalid YAML, naming the file and the line', () => {
    const error = errorOf('---\ntitle: ok\ntags: [smoke, auth\nurl: /x\n---\nOpen /');
    expect(error.file).toBe('tests/bad.test.md');
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/^tests\/bad\.test\.md:\d+: front matter is not valid YAML/);
  });

  it('refuses an unknown front matter key on its line, listing the known ones', () => {
    const error = errorOf('---\ntitle: ok\ntittle: typo\n---\nOpen /');
    expect(error.message).toBe(
      'tests/bad.test.md:3: unknown front matter key "tittle" (known: title, url, start_url, tags, timeout, model, secrets)',
    );
  });

  it('refuses front matter that is never closed', () => {
    expect(errorOf('---\ntitle: ok\nOpen /').message).toBe(
      'tests/bad.test.md:1: the front matter opened here is never closed with "---"',
    );
  });

  it('refuses a file without steps', () => {
    expect(errorOf('---\ntitle: empty\n---\n\n# Nothing here\n').message).toMatch(
      /^tests\/bad\.test\.md:\d+: no steps/,
    );
  });

  it('refuses a secret used in a step but not declared, on the step’s line', () => {
    const error = errorOf('---\ntitle: x\n---\nOpen /\nType "{{secret.TOKEN}}" into Token');
    expect(error.line).toBe(5);
    expect(error.message).toContain('{{secret.TOKEN}} is used but not declared');
  });

  it('refuses a secret value written in the file instead of a variable name', () => {
    const error = errorOf('---\nsecrets:\n  PASSWORD: "hunter2 with spaces"\n---\nOpen /');
    expect(error.line).toBe(3);
    expect(error.message).toContain('values come from the environment, never from the file');
  });

  it('refuses a timeout that is not a duration and tags that are not words', () => {
    expect(errorOf('---\ntimeout: soon\n---\nOpen /').message).toMatch(/:2: "timeout" must be a duration/);
    expect(errorOf('---\ntags: {a: 1}\n---\nOpen /').message).toMatch(/:2: "tags" must be a list of words/);
  });
});
