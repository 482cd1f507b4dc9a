import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from './a2a-error.js';
import { AuthError, AuthErrorCode } from './auth-error.js';
import { toMcpToolError } from './mcp-tool-error.mapper.js';
import { RunnerError, RunnerErrorCode } from './runner-error.js';
import { issue } from './validation-issue.js';

describe('toMcpToolError (/mcp)', () => {
  it('lists each validation problem as "loc: msg" and asks for fixed arguments', () => {
    const result = toMcpToolError(
      RunnerError.validation([
        issue.missing(['arguments', 'query'], {}),
        issue.stringPatternMismatch(['arguments', 'env'], 'firefox', '^(local_browser|hosted_browser)$'),
      ]),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: [
          'Invalid arguments (validation_failed):',
          '- arguments.query: Field required',
          "- arguments.env: String should match pattern '^(local_browser|hosted_browser)$'",
          'Fix the arguments and call the tool again.',
        ].join('\n'),
      },
    ]);
    expect(result.structuredContent.error.code).toBe('validation_failed');
    expect(result.structuredContent.error.issues).toHaveLength(2);
  });

  it('explains an unknown job and how to find the right id', () => {
    expect(toMcpToolError(new RunnerError(RunnerErrorCode.JobNotFound, 'Job 42 not found'))).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Job 42 not found (job_not_found).\nCheck the id (list the jobs to find it) and call the tool again.',
        },
      ],
      structuredContent: { error: { code: 'job_not_found', message: 'Job 42 not found' } },
    });
  });

  it('says when to retry', () => {
    const result = toMcpToolError(
      new RunnerError(RunnerErrorCode.RateLimited, 'Too many jobs at once', { retryAfterSeconds: 10 }),
    );
    expect(result.content[0]!.text).toBe('Too many jobs at once (rate_limited).\nTry again in 10 seconds.');
    expect(result.structuredContent.error.retryAfterSeconds).toBe(10);
  });

  it('hides unexpected errors behind the logged error id', () => {
    const result = toMcpToolError(new Error('ECONNREFUSED 10.0.0.3:5432'), { errorId: 'abc' });
    expect(result.content[0]!.text).toBe(
      'Internal error (error id abc). It was logged; retrying may help, or report the id.',
    );
    expect(result.structuredContent).toEqual({
      error: { code: 'internal', message: 'Internal error', errorId: 'abc' },
    });
    expect(JSON.stringify(result)).not.toContain('ECONNREFUSED');
  });

  it('gives every code of every family a readable text', () => {
    const errors = [
      ...Object.values(RunnerErrorCode).map((code) => new RunnerError(code, `message for ${code}`)),
      ...Object.values(AuthErrorCode).map((code) => new AuthError(code)),
      ...Object.values(A2aErrorCode)
        .filter((value): value is A2aErrorCode => typeof value === 'number')
        .map((code) => new A2aError(code)),
    ];
    for (const error of errors) {
      const result = toMcpToolError(error);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text.length).toBeGreaterThan(10);
      expect(result.structuredContent.error.code).toMatch(/^[a-z_-]+$/);
    }
  });
});
