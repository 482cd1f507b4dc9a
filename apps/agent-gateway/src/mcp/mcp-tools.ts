import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  BrowserEnv,
  FINAL_JOB_STATUSES,
  type JobRecordDto,
  JobStatus,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
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

// The tools' arguments follow the runner's DTOs (CreateJobDto, ListJobsQueryDto): their values and
// limits come from the same constants, and the job service validates the arguments with those DTOs.
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

const jobIdArg = z.string().min(1).describe('The id of a job, as returned by run_browser_test or list_jobs.');

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
      inputSchema: {
        query: z
          .string()
          .min(1)
          .describe(
            'The test instructions, e.g. \'Open /login, type "ada" into Email, click "Sign in". The page contains "Welcome".\'',
          ),
        initial_url: z
          .string()
          .optional()
          .describe('Start address of the browser; relative paths in the query resolve against it.'),
        model: z
          .string()
          .optional()
          .describe(
            'Agent model; default: the deployment\u2019s default (the built-in instruction interpreter without an LLM provider).',
          ),
        env: z
          .enum(BrowserEnv)
          .optional()
          .describe(`Where the browser runs; default ${BrowserEnv.LocalBrowser}.`),
        highlight_mouse: z
          .boolean()
          .optional()
          .describe('Draw the mouse pointer in the video; default true.'),
        metadata: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Free-form keys and values stored with the job.'),
        wait: z.boolean().optional().describe('Wait for the job to end before answering; default false.'),
        timeout_seconds: z
          .number()
          .int()
          .min(1)
          .max(600)
          .optional()
          .describe('With wait: answer with the job as it is after this many seconds; default 300.'),
      },
      outputSchema: { job: jobSchema.optional(), error: toolError },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    ({ wait, timeout_seconds, ...body }, extra) =>
      guarded(async () => {
        let job = await jobs.create(principal, body);
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
              (timeout_seconds ?? 300) * 1000,
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
      inputSchema: { job_id: jobIdArg },
      outputSchema: { job: jobSchema.optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ job_id }) =>
      guarded(async () => {
        const job = absolute(await jobs.get(principal, job_id), publicUrl);
        return jobResult(describeJob(job), job);
      }),
  );

  server.registerTool(
    'list_jobs',
    {
      title: 'List browser test jobs',
      description: 'Lists your recent jobs, newest first, optionally only those with one status.',
      inputSchema: {
        limit: z
          .number()
          .int()
          .min(LIST_LIMIT_MIN)
          .max(LIST_LIMIT_MAX)
          .optional()
          .describe(`How many jobs, ${LIST_LIMIT_MIN} to ${LIST_LIMIT_MAX}; default ${LIST_LIMIT_DEFAULT}.`),
        status: jobStatus.optional().describe('Only jobs with this status.'),
      },
      outputSchema: { jobs: z.array(jobSchema).optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit, status }) =>
      guarded(async () => {
        const list = await jobs.list(principal, {
          ...(limit !== undefined ? { limit: String(limit) } : {}),
          ...(status ? { status } : {}),
        });
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
      inputSchema: { job_id: jobIdArg },
      outputSchema: {
        id: z.string().optional(),
        status: jobStatus.optional(),
        cancelled: z.boolean().optional().describe('True when this call cancelled the job.'),
        message: z.string().optional(),
        error: toolError,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ job_id }) =>
      guarded(async () => {
        const result = await jobs.cancel(principal, job_id);
        return ok(result.message, { ...result });
      }),
  );

  server.registerTool(
    'get_job_log',
    {
      title: 'Read a job\u2019s agent log',
      description: 'Returns the agent log of a job so far (one line per entry), also while it runs.',
      inputSchema: { job_id: jobIdArg },
      outputSchema: { job_id: z.string().optional(), log: z.string().optional(), error: toolError },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ job_id }) =>
      guarded(async () => {
        const log = await jobs.log(principal, job_id, 'text');
        return ok(log || '(the log is empty so far)', { job_id, log });
      }),
  );
}
