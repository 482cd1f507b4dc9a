import { describe, expect, it } from '@jest/globals';
import { parseTestFile } from '../test-files/test-file.parser.js';
import { describeSuiteProblem, suiteBodyOf } from './suite-body.js';

const file = (name: string, ...lines: string[]) => parseTestFile(name, lines.join('\n'));
const options = { name: 'smoke', baseUrl: 'https://shop.example/', schedule: null, webhook: null };

describe('pushing test files to a suite', () => {
  it('turns test files into the suite body (timeouts in whole seconds, steps as text)', () => {
    const { body, errors } = suiteBodyOf(
      [
        file(
          'a.test.md',
          '---',
          'url: /cart',
          'tags: [smoke]',
          'timeout: 1500ms',
          '---',
          '# Cart',
          '1. Open the cart',
        ),
        file('b.test.md', 'The page contains "Shop"'),
      ],
      { ...options, schedule: '0 6 * * *' },
    );
    expect(errors).toEqual([]);
    expect(body).toEqual({
      name: 'smoke',
      base_url: 'https://shop.example/',
      schedule: '0 6 * * *',
      webhook: null,
      tests: [
        { title: 'Cart', steps: ['Open the cart'], start_url: '/cart', tags: ['smoke'], timeout_seconds: 2 },
        { title: 'b', steps: ['The page contains "Shop"'] },
      ],
    });
  });

  it('refuses what a stored suite cannot hold, by file and line', () => {
    const { errors } = suiteBodyOf(
      [
        file(
          's.test.md',
          '---',
          'title: S',
          'url: https://x.example/',
          'secrets: [TOKEN]',
          '---',
          'Type "{{secret.TOKEN}}" into Token',
        ),
        file('m.test.md', '---', 'url: https://x.example/', 'model: gpt', '---', 'Click Go'),
        file('r.test.md', '---', 'tags: [x]', 'url: /login', '---', 'Click Go'),
        file('t.test.md', '---', 'url: https://x.example/', 'timeout: 2h', '---', 'Click Go'),
      ],
      { ...options, baseUrl: null },
    );
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^s\.test\.md:4: a suite cannot hold secrets/),
      expect.stringMatching(/^m\.test\.md:3: a suite runs with the runner's default model/),
      expect.stringMatching(/^r\.test\.md:3: its url "\/login" is relative; pass --base-url/),
      expect.stringMatching(/^t\.test\.md:3: a suite's test waits at most 60m/),
    ]);
  });

  it('names the file and line of a problem the runner reports for a test', () => {
    const tests = [file('a.test.md', 'One'), file('b.test.md', '# B', '', '1. First', '2. Second')];
    expect(describeSuiteProblem({ loc: ['body', 'tests', 1, 'steps', 1], msg: 'is too long' }, tests)).toBe(
      'b.test.md:4: steps is too long',
    );
    expect(
      describeSuiteProblem({ loc: ['body', 'schedule'], msg: 'runs more often than every 60s' }, tests),
    ).toBe('--schedule: runs more often than every 60s');
  });
});
