import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schema as ctrfSchema, validate as validateCtrf } from 'ctrf';
import { parse as parseJunit, type TestSuite, type TestSuites } from 'junit2json';
import { ctrfReport } from './ctrf.reporter.js';
import { githubAnnotations, githubSummary } from './github.reporter.js';
import { junitXml } from './junit.reporter.js';
import { sampleRun } from './sample-run.fixture.js';
import { parseReporters } from './reporter-spec.js';

describe('JUnit XML', () => {
  it('reads back with a JUnit parser: a testcase per test, the failing step as the failure message, links as attachments', async () => {
    const parsed = (await parseJunit(junitXml(sampleRun()))) as TestSuites;
    expect(parsed).toMatchObject({ tests: 4, failures: 1, errors: 0 });
    const suite = parsed.testsuite![0] as TestSuite;
    expect(suite.name).toBe('browser-tests');
    const cases = suite.testcase!;
    expect(cases.map((c) => [c.name, c.classname])).toEqual([
      ['Home & <greeting>', 'tests/home.test.md'],
      ['Checkout, with total: 100%', 'tests/checkout.test.md'],
      ['Sometimes slow', 'tests/flaky.test.md'],
      ['Never started', 'tests/late.test.md'],
    ]);
    const [passed, failed, flaky, interrupted] = cases;
    expect(passed!.failure).toBeUndefined();
    expect(failed!.failure![0]!.message).toBe(
      'Step 2/3 failed: Click "Cart" — No element matches "Cart" <button>',
    );
    expect(failed!.failure![0]!.inner).toContain('Failing step 2/3 (tests/checkout.test.md:6): Click "Cart"');
    const out = failed!['system-out']![0]!;
    expect(out).toContain('[[ATTACHMENT|http://127.0.0.1:8080/jobs/job-2]]');
    expect(out).toContain('[[ATTACHMENT|http://127.0.0.1:8080/v1/jobs/job-2/video]]');
    expect(out).toContain('[[ATTACHMENT|http://127.0.0.1:8080/v1/jobs/job-2/screenshot]]');
    expect(flaky!.failure).toBeUndefined();
    expect(flaky!['system-out']![0]).toContain('Attempt 1: failed');
    expect(interrupted!.skipped).toHaveLength(1);
    expect(cases.every((c) => typeof c.time === 'number')).toBe(true);
  });
});

describe('CTRF JSON', () => {
  const report = ctrfReport(sampleRun(), '0.1.0');

  it('is valid against the CTRF schema (checked by ajv and by the ctrf reference implementation)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const check = ajv.compile(ctrfSchema);
    expect(check(JSON.parse(JSON.stringify(report)))).toBe(true);
    expect(check.errors ?? []).toEqual([]);
    expect(validateCtrf(report)).toEqual({ valid: true, errors: [] });
  });

  it('counts each outcome, marks the flaky test with its failed attempt, and links the artifacts', () => {
    const results = report.results as {
      summary: Record<string, number>;
      tests: Record<string, unknown>[];
    };
    expect(results.summary).toMatchObject({ tests: 4, passed: 2, failed: 1, skipped: 1, flaky: 1 });
    const [, failed, flaky] = results.tests;
    expect(failed).toMatchObject({
      status: 'failed',
      message: 'Step 2/3 failed: Click "Cart" — No element matches "Cart" <button>',
      line: 6,
      filePath: 'tests/checkout.test.md',
      tags: ['checkout'],
      screenshot: 'http://127.0.0.1:8080/v1/jobs/job-2/screenshot',
    });
    expect(failed!.attachments).toEqual([
      { name: 'job page', contentType: 'text/html', path: 'http://127.0.0.1:8080/jobs/job-2' },
      { name: 'video', contentType: 'video/mp4', path: 'http://127.0.0.1:8080/v1/jobs/job-2/video' },
      {
        name: 'screenshot',
        contentType: 'image/png',
        path: 'http://127.0.0.1:8080/v1/jobs/job-2/screenshot',
      },
    ]);
    expect(flaky).toMatchObject({ status: 'passed', flaky: true, retries: 1, rawStatus: 'flaky' });
    expect(flaky!.retryAttempts).toEqual([expect.objectContaining({ attempt: 1, status: 'failed' })]);
  });
});

describe('GitHub reporter', () => {
  it('annotates the failing step’s line, escaping workflow-command characters', () => {
    expect(githubAnnotations(sampleRun())).toEqual([
      '::error file=tests/checkout.test.md,line=6,title=Checkout%2C with total%3A 100%25 failed::Step 2/3 failed: Click "Cart" — No element matches "Cart" <button>%0AJob: http://127.0.0.1:8080/jobs/job-2',
      '::warning file=tests/flaky.test.md,line=6,title=Sometimes slow is flaky::Passed on attempt 2 after: Step 2/3 failed: Click "Cart" — No element matches "Cart" <button>%0AJob: http://127.0.0.1:8080/jobs/job-3',
    ]);
  });

  it('writes a Markdown job summary with a row per test and each failure', () => {
    const summary = githubSummary(sampleRun());
    expect(summary).toContain('## Browser tests: 1 passed, 1 failed, 1 flaky, 1 interrupted');
    expect(summary).toContain('| ❌ | Checkout, with total: 100% | `tests/checkout.test.md` | 4.1s | 1 |');
    expect(summary).toContain('[screenshot](http://127.0.0.1:8080/v1/jobs/job-2/screenshot)');
    expect(summary).toContain('- Failing step 2/3 (line 6): Click "Cart"');
  });
});

describe('--reporter', () => {
  it('reads a comma-separated list with files, and refuses unknown reporters', () => {
    expect(parseReporters(['junit=out/junit.xml,ctrf=out/ctrf.json', 'github'])).toEqual([
      { type: 'junit', path: 'out/junit.xml' },
      { type: 'ctrf', path: 'out/ctrf.json' },
      { type: 'github' },
    ]);
    expect(parseReporters(['junit'])).toEqual([{ type: 'junit', path: 'junit.xml' }]);
    expect(() => parseReporters(['html=x.html'])).toThrow('unknown reporter "html"');
  });
});
