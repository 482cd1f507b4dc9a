import { describe, expect, it } from '@jest/globals';
import { BrowserEnv } from '../jobs/browser-env.enum.js';
import { DEFAULT_START_URL, LIST_LIMIT_MAX, LIST_LIMIT_MIN, QUERY_MAX_LENGTH } from '../jobs/job-limits.js';
import { JobStatus } from '../jobs/job-status.enum.js';
import { JobIdArgsDto } from '../mcp/job-id-args.dto.js';
import { ListJobsArgsDto } from '../mcp/list-jobs-args.dto.js';
import { RUN_WAIT_SECONDS_MAX, RunBrowserTestArgsDto } from '../mcp/run-browser-test-args.dto.js';
import { dtoJsonSchema } from './dto-json-schema.js';

describe('dtoJsonSchema (what MCP clients see of a DTO)', () => {
  it('shows CreateJobDto’s rules and words for run_browser_test, plus the wait options', () => {
    const schema = dtoJsonSchema(RunBrowserTestArgsDto);
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['query']);
    expect(schema.properties.query).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: QUERY_MAX_LENGTH,
      description: expect.stringMatching(/browser test instructions/),
      examples: [expect.any(String)],
    });
    expect(schema.properties.initial_url).toMatchObject({ type: 'string', default: DEFAULT_START_URL });
    expect(schema.properties.env).toMatchObject({
      type: 'string',
      enum: [BrowserEnv.LocalBrowser, BrowserEnv.HostedBrowser],
    });
    expect(schema.properties.highlight_mouse).toMatchObject({ type: 'boolean', default: true });
    expect(schema.properties.metadata).toMatchObject({ type: 'object', additionalProperties: true });
    expect(schema.properties.metadata).not.toHaveProperty('$ref');
    expect(schema.properties.wait).toMatchObject({ type: 'boolean' });
    expect(schema.properties.timeout_seconds).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: RUN_WAIT_SECONDS_MAX,
    });
  });

  it('shows ListJobsQueryDto’s limit bounds and statuses for list_jobs, nothing required', () => {
    const schema = dtoJsonSchema(ListJobsArgsDto);
    expect(Object.keys(schema.properties).sort()).toEqual(['limit', 'status']);
    expect(schema.required).toBeUndefined();
    expect(schema.properties.limit).toMatchObject({
      type: 'integer',
      minimum: LIST_LIMIT_MIN,
      maximum: LIST_LIMIT_MAX,
    });
    expect(schema.properties.status).toMatchObject({ enum: Object.values(JobStatus) });
  });

  it('requires job_id for the tools that act on one job', () => {
    expect(dtoJsonSchema(JobIdArgsDto)).toEqual({
      type: 'object',
      properties: {
        job_id: {
          type: 'string',
          minLength: 1,
          description: 'The id of a job, as returned by run_browser_test or list_jobs.',
          examples: ['0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11'],
        },
      },
      required: ['job_id'],
    });
  });
});
