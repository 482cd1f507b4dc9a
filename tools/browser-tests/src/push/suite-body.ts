import type { SuiteBody, SuiteTest } from '../runner/suite-types.js';
import { TestFileError, type TestFile } from '../test-files/test-file.js';

/** The runner's limits of a stored test (`SuiteTestDto`). */
const TIMEOUT_MAX_SECONDS = 3_600;
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

export interface SuiteBodyOptions {
  name: string;
  /** The suite's base URL: `--base-url`, else the stored suite's. */
  baseUrl: string | null;
  schedule: string | null;
  webhook: string | null;
}

/**
 * The body of `POST`/`PUT /v1/suites` for test files. What a stored suite cannot hold is refused
 * by file and line: secrets (the runner would have to keep their values), a model of its own, a
 * relative start URL without a base URL.
 */
export function suiteBodyOf(
  tests: TestFile[],
  options: SuiteBodyOptions,
): { body: SuiteBody; errors: TestFileError[] } {
  const errors: TestFileError[] = [];
  const out: SuiteTest[] = [];
  for (const test of tests) {
    const fail = (key: keyof NonNullable<TestFile['lines']>, reason: string) =>
      errors.push(new TestFileError(test.file, test.lines?.[key], reason));
    if (Object.keys(test.secrets).length > 0)
      fail(
        'secrets',
        'a suite cannot hold secrets (the runner runs it on its own, without your environment); run this test with `browser-tests run` instead',
      );
    if (test.model)
      fail('model', `a suite runs with the runner's default model; remove "model: ${test.model}" to push it`);
    if (test.url && !ABSOLUTE.test(test.url) && !options.baseUrl)
      fail('url', `its url "${test.url}" is relative; pass --base-url (the suite keeps it)`);
    if (!test.url && !options.baseUrl)
      errors.push(
        new TestFileError(
          test.file,
          undefined,
          'it has no start url; pass --base-url (the suite keeps it), or give an absolute "url:" in its front matter',
        ),
      );
    const seconds = test.timeoutMs === undefined ? undefined : Math.ceil(test.timeoutMs / 1_000);
    if (seconds !== undefined && seconds > TIMEOUT_MAX_SECONDS)
      fail('timeout', `a suite's test waits at most ${TIMEOUT_MAX_SECONDS / 60}m; shorten "timeout"`);
    out.push({
      title: test.title,
      steps: test.steps.map((step) => step.text),
      ...(test.url ? { start_url: test.url } : {}),
      ...(test.tags.length > 0 ? { tags: test.tags } : {}),
      ...(seconds !== undefined ? { timeout_seconds: Math.max(1, seconds) } : {}),
    });
  }
  return {
    body: {
      name: options.name,
      tests: out,
      base_url: options.baseUrl,
      schedule: options.schedule,
      webhook: options.webhook,
    },
    errors,
  };
}

/**
 * A 422 `detail` item of the runner, told by file and line when it is about one test
 * (`["body", "tests", 2, "steps", 0]` → `tests/b.test.md:7: …`).
 */
export function describeSuiteProblem(
  detail: { loc?: (string | number)[]; msg?: string },
  tests: TestFile[],
): string {
  const loc = (detail.loc ?? []).filter((part) => part !== 'body');
  const msg = detail.msg ?? 'is not valid';
  if (loc[0] === 'tests' && typeof loc[1] === 'number' && tests[loc[1]]) {
    const test = tests[loc[1]]!;
    const field = loc[2];
    const line =
      field === 'steps' && typeof loc[3] === 'number'
        ? test.steps[loc[3]]?.line
        : field === 'start_url'
          ? test.lines?.url
          : field === 'title'
            ? test.lines?.title
            : field === 'tags'
              ? test.lines?.tags
              : field === 'timeout_seconds'
                ? test.lines?.timeout
                : undefined;
    const what = field === undefined ? 'the test' : String(field);
    return new TestFileError(test.file, line, `${what} ${msg}`).message;
  }
  const flag: Record<string, string> = {
    name: '--suite',
    base_url: '--base-url',
    schedule: '--schedule',
    webhook: '--webhook',
    tests: 'the tests',
  };
  return `${flag[String(loc[0])] ?? loc.join('.')}: ${msg}`;
}
