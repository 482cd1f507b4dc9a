import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { JobRecordDto } from '@suite/contracts';
import { APP_ERROR_MODEL, asKnownError, RunnerErrorCode, toJsonRpcError } from '@suite/errors';
import type { JobService, Principal } from '@suite/jobs';
import type { Readable } from 'node:stream';

export interface McpResourceDeps {
  jobs: JobService;
  /** PUBLIC_RUNNER_URL: resource URIs are the artifact links the tool results carry. */
  publicUrl: string;
}

/** How many of the caller's recent jobs resources/list shows. */
const LISTED_JOBS = 20;
/** A video up to this size is read as a blob; a larger one is answered with its link. */
export const VIDEO_BLOB_MAX_BYTES = 4 * 1024 * 1024;

const KINDS = {
  log: { title: 'Agent log', mimeType: 'text/plain' },
  video: { title: 'Video', mimeType: 'video/mp4' },
  screenshot: { title: 'Screenshot of the failed step', mimeType: 'image/png' },
} as const;

/** MCP's "resource not found" (-32002); other failures keep the JSON-RPC code the error model gives them. */
const RESOURCE_NOT_FOUND = -32002;

function resourceError(thrown: unknown, uri: string): McpError {
  // A lost Postgres or Redis is the runner's service_unavailable, as on every transport.
  const error = APP_ERROR_MODEL.fromDependency(thrown) ?? thrown;
  const known = asKnownError(error);
  if (
    known?.family === 'runner' &&
    (known.code === RunnerErrorCode.JobNotFound || known.code === RunnerErrorCode.ArtifactNotFound)
  ) {
    return new McpError(RESOURCE_NOT_FOUND, known.message, { uri });
  }
  const { code, message, data } = toJsonRpcError(error, null).error;
  return new McpError(code, message, data);
}

const jobIdOf = (variables: Record<string, string | string[]>): string => {
  const value = variables.job_id;
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

async function readAll(body: NodeJS.ReadableStream, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      (body as Readable).destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The caller's job artifacts as MCP resources: each job's agent log (text), video (a blob up to
 * VIDEO_BLOB_MAX_BYTES, else its link) and, when a step failed, its screenshot (a PNG blob). URIs are the runner's own artifact URLs, as in tool results.
 */
export function registerRunnerResources(
  server: McpServer,
  principal: Principal,
  deps: McpResourceDeps,
): void {
  const { jobs, publicUrl } = deps;
  let recent: Promise<JobRecordDto[]> | undefined;
  // Both templates list from one read of the caller's recent jobs.
  const recentJobs = () => (recent ??= jobs.list(principal, { limit: LISTED_JOBS }).then((l) => l.jobs));

  const resource = (job: JobRecordDto, kind: keyof typeof KINDS): Resource => ({
    uri: `${publicUrl}/v1/jobs/${job.id}/${kind}`,
    name: `job-${job.id}-${kind}`,
    title: `${KINDS[kind].title} of job ${job.id} (${job.status})`,
    mimeType: KINDS[kind].mimeType,
  });

  server.registerResource(
    'job-log',
    new ResourceTemplate(`${publicUrl}/v1/jobs/{job_id}/log`, {
      list: async () => ({ resources: (await recentJobs()).map((job) => resource(job, 'log')) }),
    }),
    {
      title: 'Agent log of a job',
      description: 'What the agent did, one line per entry; grows while the job runs.',
      mimeType: 'text/plain',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      try {
        const text = await jobs.log(principal, jobIdOf(variables), 'text');
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
      } catch (error) {
        throw resourceError(error, uri.href);
      }
    },
  );

  server.registerResource(
    'job-video',
    new ResourceTemplate(`${publicUrl}/v1/jobs/{job_id}/video`, {
      list: async () => ({
        resources: (await recentJobs()).filter((job) => job.links.video).map((job) => resource(job, 'video')),
      }),
    }),
    {
      title: 'Video of a job',
      description: `Recording of the browser session (H.264 MP4), once the job ended. Read as a blob up to ${VIDEO_BLOB_MAX_BYTES / (1024 * 1024)} MiB; a larger one as its link (download it with the API key).`,
      mimeType: 'video/mp4',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      let video;
      try {
        video = await jobs.video(principal, jobIdOf(variables), undefined);
      } catch (error) {
        throw resourceError(error, uri.href);
      }
      const link = (why: string, href: string): ReadResourceResult => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${why} Download it from ${href}` }],
      });
      if (video.status === 302)
        return link('The video is served by the object store.', video.headers.location!);
      const size = Number(video.headers['content-length']);
      if (!video.body || !(size <= VIDEO_BLOB_MAX_BYTES)) {
        (video.body as Readable | undefined)?.destroy();
        return link(
          `The video is ${size} bytes, more than the ${VIDEO_BLOB_MAX_BYTES} this server sends over MCP.`,
          `${uri.href} with the API key.`,
        );
      }
      const bytes = await readAll(video.body, VIDEO_BLOB_MAX_BYTES);
      if (!bytes)
        return link('The video grew past the limit while it was read.', `${uri.href} with the API key.`);
      return { contents: [{ uri: uri.href, mimeType: 'video/mp4', blob: bytes.toString('base64') }] };
    },
  );

  server.registerResource(
    'job-screenshot',
    new ResourceTemplate(`${publicUrl}/v1/jobs/{job_id}/screenshot`, {
      list: async () => ({
        resources: (await recentJobs())
          .filter((job) => job.links.screenshot)
          .map((job) => resource(job, 'screenshot')),
      }),
    }),
    {
      title: 'Screenshot of the failed step of a job',
      description:
        'The page at the moment a step failed (PNG of the viewport), with values of metadata.secrets masked; only jobs with a failed step have one.',
      mimeType: 'image/png',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      let shot;
      try {
        shot = await jobs.screenshot(principal, jobIdOf(variables));
      } catch (error) {
        throw resourceError(error, uri.href);
      }
      const link = (why: string, href: string): ReadResourceResult => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${why} Download it from ${href}` }],
      });
      if (shot.status === 302 || !shot.body)
        return link('The screenshot is served by the object store.', shot.headers.location ?? uri.href);
      // A viewport PNG is far below the video's limit; the limit only guards against a corrupt file.
      const bytes = await readAll(shot.body, VIDEO_BLOB_MAX_BYTES);
      if (!bytes)
        return link(
          'The screenshot is larger than this server sends over MCP.',
          `${uri.href} with the API key.`,
        );
      return { contents: [{ uri: uri.href, mimeType: 'image/png', blob: bytes.toString('base64') }] };
    },
  );
}
