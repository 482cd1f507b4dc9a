import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type DtoClass,
  dtoJsonSchema,
  FINAL_JOB_STATUSES,
  JobIdArgsDto,
  type JobRecordDto,
  JobStatus,
  ListJobsArgsDto,
  RUN_WAIT_SECONDS_DEFAULT,
  RunBrowserTestArgsDto,
  validateBody,
} from '@suite/contracts';
import { Logger } from '@nestjs/common';
import { APP_ERROR_MODEL, toMcpToolError } from '@suite/errors';
import { publicStatus, type JobEventsHub, type JobService, type Principal } from '@suite/jobs';
import { z } from 'zod';
import { stepText } from '../a2a/task-stream.js';

export interface McpToolDeps {
  jobs: JobService;
  events: JobEventsHub;
  /** PUBLIC_RUNNER_URL: artifact links in results are absolute. */
  publicUrl: string;
}

/**
 * A tool's arguments are a DTO (RunBrowserTestArgsDto is CreateJobDto plus the wait options,
 * ListJobsArgsDto picks ListJobsQueryDto's fields): `tools/list` shows the DTO's JSON Schema, made
 * from its class-validator rules, and the handler validates with the DTO (`validateBody`), so a
 * limit, an enum or a required field is written once. The SDK's own zod check lets any object
 * through (a loose object whose `meta` is the published schema), so bad arguments reach the
 * handler and come back as the runner's isError result with every problem listed.
 */
function argumentsSchema(dto: DtoClass<object>) {
  return z.looseObject({}).meta(dtoJsonSchema(dto));
}

const RUN_ARGS = argumentsSchema(RunBrowserTestArgsDto);
const JOB_ID_ARGS = argumentsSchema(JobIdArgsDto);
const LIST_ARGS = argumentsSchema(ListJobsArgsDto);

/** The tool's arguments as its DTO, or the runner's validation_failed (loc `arguments.<field>`). */
const argumentsOf = <T extends object>(dto: DtoClass<T>, raw: unknown): T =>
  validateBody(dto, raw, 'arguments').value;

const jobStatus = z.enum(JobStatus);

const jobSchema = z
  .object({
    id: z.string().describe('The job id (also the A2A task id).'),
    status: jobStatus,
    query: z.string(),
    initial_url: z.string(),
    model: z.string(),
    env: z.string(),
    summary: z.string().nullable().describe('The verdict in a few sentences; null until the job ends.'),
    error: z.string().nullable(),
    steps: z.array(z.record(z.string(), z.unknown())),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    links: z
      .object({
        self: z.string(),
        log: z.string(),
        video: z.string().nullable(),
        screenshot: z
          .string()
          .optional()
          .describe('The page where a step failed (PNG, secrets masked); only when one was taken.'),
        script: z
          .string()
          .optional()
          .describe('A runnable Playwright test of a passed run (?format=puppeteer for Puppeteer).'),
      })
      .describe('Absolute URLs; fetch them with the same API key.'),
  })
  .loose();

/**
 * A failed call carries `error` instead of the result (toMcpToolError); clients validate error
 * results against the output schema too, so every schema admits it and its result keys are optional.
 */
const toolError = z
  .object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.record(z.string(), z.unknown())).optional(),
    retryAfterSeconds: z.number().optional(),
    errorId: z.string().optional(),
  })
  .optional()
  .describe('Present only when the call failed (isError).');

const absolute = (job: JobRecordDto, base: string): JobRecordDto => ({
  ...job,
  links: {
    self: `${base}${job.links.self}`,
    log: `${base}${job.links.log}`,
    video: job.links.video ? `${base}${job.links.video}` : null,
    ...(job.links.screenshot ? { screenshot: `${base}${job.links.screenshot}` } : {}),
    ...(job.links.script ? { script: `${base}${job.links.script}` } : {}),
  },
});

function describeJob(job: JobRecordDto): string {
  const head = `Job ${job.id} is ${job.status}.`;
  const verdict = job.summary ? ` ${job.summary}` : job.error ? ` ${job.error}` : '';
  const video = job.links.video ? `; video: ${job.links.video}` : '';
  const screenshot = job.links.screenshot ? `; screenshot of the failure: ${job.links.screenshot}` : '';
  const links = ` Log: ${job.links.log}${video}${screenshot}.`;
  return `${head}${verdict}${links}`;
}

const ok = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/** A job's result: its description, and its log, video and failure screenshot as links to the server's resources. */
function jobResult(text: string, job: JobRecordDto): CallToolResult {
  const result = ok(text, { job });
  result.content.push({
    type: 'resource_link',
    uri: job.links.log,
    name: `job-${job.id}-log`,
    title: `Agent log of job ${job.id}`,
    mimeType: 'text/plain',
  });
  if (job.links.video) {
    result.content.push({
      type: 'resource_link',
      uri: job.links.video,
      name: `job-${job.id}-video`,
      title: `Video of job ${job.id}`,
      mimeType: 'video/mp4',
    });
  }
  if (job.links.screenshot) {
    result.content.push({
      type: 'resource_link',
      uri: job.links.screenshot,
      name: `job-${job.id}-screenshot`,
      title: `Screenshot of the failed step of job ${job.id}`,
      mimeType: 'image/png',
    });
  }
  return result;
}

const logger = new Logger('mcp');

/**
 * Any failure becomes an isError result the calling model can read and act on: a lost Postgres or
 * Redis as the runner's service_unavailable (as on every transport), a bug under a logged error id.
 */
async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (thrown) {
    const error = APP_ERROR_MODEL.fromDependency(thrown) ?? thrown;
    const errorId = APP_ERROR_MODEL.isUnexpected(error) ? APP_ERROR_MODEL.newErrorId() : undefined;
    if (errorId) logger.error({ err: thrown, errorId }, `unexpected tool error ${errorId}`);
    return toMcpToolError(error, { errorId });
  }
}

const FINAL = new Set<string>(FINAL_JOB_STATUSES);

/** The runner's tools, bound to the caller's principal (one server per stateless request). */
export function registerRunnerTools(server: McpServer, principal: Principal, deps: McpToolDeps): void {
  const { jobs, events, publicUrl } = deps;

  server.registerTool(
    'run_browser_test',
    {
      title: 'Run a browser test',
      description:
        'Runs natural-language browser test instructions in a real Chromium (open/go to, click, type, press, select, check, hover, scroll, wait for, and assertions on text, title, URL, visibility and state). Returns the job at once; with wait=true it waits for the verdict (sending progress notifications when the call carries a progress token).',
      inputSchema: RUN_ARGS,
      outputSchema: { job: jobSchema.optional(), error: toolError },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (raw, extra) =>
      guarded(async () => {
        const { wait, timeout_seconds, ...request } = argumentsOf(RunBrowserTestArgsDto, raw);
        let job = await jobs.create(principal, request);
        if (wait) {
          const progressToken = extra._meta?.progressToken;
          let progress = 0;
          const notify = (message: string) => {
            if (progressToken === undefined) return;
            progress += 1;
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress, message },
              })
              .catch(() => undefined);
          };
          const stop = await events.subscribe(job.id, (event) => {
            if (event.type === 'status') notify(`Job ${publicStatus(event.status)}`);
            else if (event.type === 'step') notify(stepText(event));
          });
          try {
            await events.waitUntilSettled(
              job.id,
              async () => (await jobs.get(principal, job.id)).status,
              (timeout_seconds ?? RUN_WAIT_SECONDS_DEFAULT) * 1000,
              extra.signal,
            );
          } finally {
            await stop().catch(() => undefined);
          }
          job = await jobs.get(principal, job.id);
        }
        const view = absolute(job, publicUrl);
        const next = FINAL.has(view.status) ? '' : ' Call get_job with its id to follow it.';
        return jobResult(`${describeJob(view)}${next}`, view);
      }),
  );

  server.registerTool(
    'get_job',
    {
      title: 'Get a browser test job',
      description: 'Returns a job: its status, summary, step results and links to its log and video.',
      inputSchema: JOB_ID_ARGS,
      outputSchema: { job: jobSchema.optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (raw) =>
      guarded(async () => {
        const { job_id } = argumentsOf(JobIdArgsDto, raw);
        const job = absolute(await jobs.get(principal, job_id), publicUrl);
        return jobResult(describeJob(job), job);
      }),
  );

  server.registerTool(
    'list_jobs',
    {
      title: 'List browser test jobs',
      description: 'Lists your recent jobs, newest first, optionally only those with one status.',
      inputSchema: LIST_ARGS,
      outputSchema: { jobs: z.array(jobSchema).optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (raw) =>
      guarded(async () => {
        const query = argumentsOf(ListJobsArgsDto, raw);
        const list = await jobs.list(principal, query);
        const found = list.jobs.map((job) => absolute(job, publicUrl));
        const text = found.length
          ? found
              .map((job) => `- ${job.id}: ${job.status}${job.summary ? ` \u2014 ${job.summary}` : ''}`)
              .join('\n')
          : 'No jobs.';
        return ok(text, { jobs: found });
      }),
  );

  server.registerTool(
    'cancel_job',
    {
      title: 'Cancel a browser test job',
      description:
        'Cancels a job that is still queued. Running jobs are not stopped (they finish on their own); finished jobs are left as they are. The result says which happened.',
      inputSchema: JOB_ID_ARGS,
      outputSchema: {
        id: z.string().optional(),
        status: jobStatus.optional(),
        cancelled: z.boolean().optional().describe('True when this call cancelled the job.'),
        message: z.string().optional(),
        error: toolError,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (raw) =>
      guarded(async () => {
        const { job_id } = argumentsOf(JobIdArgsDto, raw);
        const result = await jobs.cancel(principal, job_id);
        return ok(result.message, { ...result });
      }),
  );

  server.registerTool(
    'get_job_log',
    {
      title: 'Read a job\u2019s agent log',
      description: 'Returns the agent log of a job so far (one line per entry), also while it runs.',
      inputSchema: JOB_ID_ARGS,
      outputSchema: { job_id: z.string().optional(), log: z.string().optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (raw) =>
      guarded(async () => {
        const { job_id } = argumentsOf(JobIdArgsDto, raw);
        const log = await jobs.log(principal, job_id, 'text');
        return ok(log || '(the log is empty so far)', { job_id, log });
      }),
  );
}
