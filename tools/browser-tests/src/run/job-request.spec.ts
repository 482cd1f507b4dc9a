import { describe, expect, it } from '@jest/globals';
import { parseTestFile } from '../test-files/test-file.parser.js';
import { jobRequestOf, secretValuesOf, startUrlOf } from './job-request.js';

const test = parseTestFile(
  'tests/login.test.md',
  '---\ntitle: Login\nurl: /login?next=%2F\ntags: [smoke]\nsecrets: { PASSWORD: E2E_PASSWORD }\n---\n- Type "{{secret.PASSWORD}}" into Password\n- Click Sign in',
);

describe('job requests of test files', () => {
  it('resolves a relative start URL against the base URL, so one suite runs on any deployment', () => {
    expect(startUrlOf(test, 'https://staging.example.com/app')).toBe(
      'https://staging.example.com/app/login?next=%2F',
    );
    expect(startUrlOf({ ...test, url: 'https://other.example/' }, undefined)).toBe('https://other.example/');
    expect(startUrlOf({ ...test, url: undefined }, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/');
    expect(() => startUrlOf(test, undefined)).toThrow(
      /tests\/login\.test\.md: its url "\/login\?next=%2F" is relative; pass --base-url/,
    );
  });

  it('sends secrets only in metadata.secrets, leaving the placeholders in the steps', () => {
    const request = jobRequestOf(test, {
      baseUrl: 'http://127.0.0.1:3000',
      env: { E2E_PASSWORD: 'pa55-word' },
    });
    expect(request).toEqual({
      query: '1. Type "{{secret.PASSWORD}}" into Password\n2. Click Sign in',
      initial_url: 'http://127.0.0.1:3000/login?next=%2F',
      metadata: {
        title: 'Login',
        source: 'browser-tests',
        file: 'tests/login.test.md',
        tags: ['smoke'],
        secrets: { PASSWORD: 'pa55-word' },
      },
    });
    expect(request.query).not.toContain('pa55-word');
    expect(secretValuesOf([test], { E2E_PASSWORD: 'pa55-word' })).toEqual(['pa55-word']);
  });

  it('names the file and the variable when a secret’s variable is not set', () => {
    expect(() => jobRequestOf(test, { baseUrl: 'http://x', env: {} })).toThrow(
      'tests/login.test.md: secret PASSWORD comes from the environment variable E2E_PASSWORD, which is not set',
    );
  });

  it('lets --model override the file’s model', () => {
    const request = jobRequestOf(
      { ...test, secrets: {}, model: 'a' },
      { baseUrl: 'http://x', model: 'b', env: {} },
    );
    expect(request.model).toBe('b');
  });
});
