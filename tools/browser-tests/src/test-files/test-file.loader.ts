import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { parseTestFile } from './test-file.parser.js';
import { TestFileError, type TestFile } from './test-file.js';

export interface LoadedTests {
  tests: TestFile[];
  /** Every file that could not be read, each naming its file and line. */
  errors: TestFileError[];
}

/** The files the patterns match (a folder means every `*.test.md` below it), in a stable order. */
export async function findTestFiles(patterns: string[], cwd = process.cwd()): Promise<string[]> {
  const expanded = patterns.map((pattern) =>
    /[*?[\]{}]/.test(pattern) || /\.(md|txt)$/i.test(pattern)
      ? pattern
      : `${pattern.replace(/\/+$/, '')}/**/*.test.md`,
  );
  const files = await glob(expanded, {
    cwd,
    onlyFiles: true,
    ignore: ['**/node_modules/**'],
    expandDirectories: false,
  });
  return [...new Set(files)].sort();
}

export async function loadTests(files: string[], cwd = process.cwd()): Promise<LoadedTests> {
  const tests: TestFile[] = [];
  const errors: TestFileError[] = [];
  for (const file of files) {
    try {
      tests.push(parseTestFile(file, await readFile(resolve(cwd, file), 'utf8')));
    } catch (error) {
      if (error instanceof TestFileError) errors.push(error);
      else errors.push(new TestFileError(file, undefined, (error as Error).message));
    }
  }
  return { tests, errors };
}

export interface TestFilter {
  /** Keep tests whose title or file matches (a /regex/flags or plain text, any case). */
  grep?: string;
  /** Keep tests carrying at least one of these tags. */
  tags?: string[];
}

export function filterTests(tests: TestFile[], filter: TestFilter): TestFile[] {
  const pattern = filter.grep === undefined ? undefined : toPattern(filter.grep);
  const tags = (filter.tags ?? []).map((tag) => tag.toLowerCase());
  return tests.filter(
    (test) =>
      (!pattern || pattern.test(test.title) || pattern.test(test.file)) &&
      (tags.length === 0 || test.tags.some((tag) => tags.includes(tag.toLowerCase()))),
  );
}

function toPattern(grep: string): RegExp {
  const literal = /^\/(.+)\/([imsu]*)$/.exec(grep);
  if (literal) return new RegExp(literal[1]!, literal[2]);
  return new RegExp(grep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}
