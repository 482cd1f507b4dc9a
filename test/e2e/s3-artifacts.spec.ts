import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient, sql } from '../support/runner-client.js';
import { startS3Server, type S3Server } from '../support/s3-server.js';

// Artifacts in an S3-compatible bucket (s3rver, a real S3 server): the worker uploads a job's log
// and video when the job completes, and jobs-api serves them from the bucket (streamed, with byte
// ranges, or as a redirect to a presigned URL). No process shares a directory with another.

interface Job {
  id: string;
  status: string;
  links: { log: string; video: string | null };
}

const KEY = 's3-artifacts-key';
const BUCKET = 'suite-e2e-artifacts';
const PREFIX = `e2e-${randomBytes(4).toString('hex')}/`;
const pages: Record<string, string> = {
  '/': `<!doctype html><title>Shop</title><a href="/thanks">Sign up</a>`,
  '/thanks': `<!doctype html><title>Thanks</title><p>Thanks for signing up!</p>`,
};

/** Every file under `dir` (directories left empty do not count). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('job artifacts on S3-compatible storage', () => {
  const apps: AppProcess[] = [];
  const dirs: string[] = [];
  let s3: S3Server;
  let site: Server;
  let siteUrl = '';
  let proxy: RunnerClient;
  let presigned: RunnerClient;
  let workerDir = '';
  let apiDir = '';
  let job: Job;
  const env: NodeJS.ProcessEnv = {};

  const scratch = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 's3-artifacts-'));
    dirs.push(dir);
    return dir;
  };
  /** The bucket as any S3 client sees it (s3rver allows anonymous reads): independent of the code under test. */
  const bucketKeys = async (prefix: string): Promise<{ key: string; size: number }[]> => {
    const res = await fetch(`${s3.endpoint}/${BUCKET}?list-type=2&prefix=${encodeURIComponent(prefix)}`);
    const xml = await res.text();
    return [...xml.matchAll(/<Key>([^<]+)<\/Key>.*?<Size>(\d+)<\/Size>/g)].map((m) => ({
      key: m[1]!,
      size: Number(m[2]),
    }));
  };
  const objectBytes = async (key: string, range?: string): Promise<Buffer> => {
    const res = await fetch(`${s3.endpoint}/${BUCKET}/${key}`, { headers: range ? { range } : {} });
    expect(res.ok).toBe(true);
    return Buffer.from(await res.arrayBuffer());
  };
  const startJobsApi = async (extra: NodeJS.ProcessEnv): Promise<RunnerClient> => {
    const port = await freePort();
    const app = startApp('jobs-api', { ...env, ARTIFACTS_DIR: apiDir, PORT: String(port), ...extra });
    apps.push(app);
    await waitForHttp(`http://127.0.0.1:${port}/health`, app);
    return new RunnerClient(`http://127.0.0.1:${port}`, KEY);
  };
  const startWorker = async (extra: NodeJS.ProcessEnv = {}): Promise<AppProcess> => {
    const port = await freePort();
    const worker = startApp('browser-worker', {
      ...env,
      ARTIFACTS_DIR: workerDir,
      HEALTH_PORT: String(port),
      ...extra,
    });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
    return worker;
  };
  const waitForEnd = async (id: string): Promise<Job> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const current = (await proxy.request(`/v1/jobs/${id}`)).json as Job;
      if (['succeeded', 'failed', 'cancelled'].includes(current.status)) return current;
      if (Date.now() > deadline) {
        throw new Error(`job ${id} still ${current.status}:\n${apps.map((app) => app.output()).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    s3 = await startS3Server([BUCKET]);
    site = createServer((req, res) => {
      const body = pages[(req.url ?? '/').split('?')[0]!];
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    // Separate directories: jobs-api can only serve what is in the bucket.
    workerDir = scratch();
    apiDir = scratch();
    Object.assign(env, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-s3-artifacts`,
      API_KEYS: KEY,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '1',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: PREFIX,
    });
    proxy = await startJobsApi({});
    presigned = await startJobsApi({ ARTIFACT_DOWNLOAD: 'presigned', ARTIFACT_PRESIGN_TTL_S: '120' });
    await startWorker();

    const created = await proxy.request('/v1/jobs', {
      json: {
        query: '1. Click Sign up\n2. Verify the page contains "Thanks for signing up"',
        initial_url: siteUrl,
      },
    });
    expect(created.status).toBe(202);
    job = await waitForEnd((created.json as Job).id);
    // The job ends as its capture ends; the video is completed (and uploaded) just after.
    const video = `${PREFIX}jobs/${job.id}/video.mp4`;
    for (let i = 0; i < 150 && (await bucketKeys(video)).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site?.close(resolve));
    await s3?.close();
    if (job) await sql('DELETE FROM jobs WHERE id = $1', [job.id]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('uploads the log and the video as objects and leaves no local artifact files', async () => {
    expect(job.status).toBe('succeeded');
    expect(job.links.video).toBe(`/v1/jobs/${job.id}/video`);
    const objects = await bucketKeys(`${PREFIX}jobs/${job.id}/`);
    expect(objects.map((o) => o.key).sort()).toEqual([
      `${PREFIX}jobs/${job.id}/agent-log.ndjson`,
      `${PREFIX}jobs/${job.id}/video.mp4`,
    ]);
    expect(objects.every((o) => o.size > 0)).toBe(true);
    expect(filesUnder(workerDir)).toEqual([]);
    expect(filesUnder(apiDir)).toEqual([]);

    const log = await proxy.request(job.links.log, { headers: { accept: 'application/x-ndjson' } });
    expect(log.status).toBe(200);
    expect(log.text).toBe((await objectBytes(`${PREFIX}jobs/${job.id}/agent-log.ndjson`)).toString('utf8'));
    expect(log.text).toMatch(/verdict: succeeded/);
  });

  it('streams the video from the bucket, honouring Range (206) and refusing a bad range (416)', async () => {
    const key = `${PREFIX}jobs/${job.id}/video.mp4`;
    const [object] = await bucketKeys(key);
    const size = object!.size;

    const whole = await proxy.request(job.links.video!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.bytes.equals(await objectBytes(key))).toBe(true);

    const first = await proxy.request(job.links.video!, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(first.headers.get('content-length')).toBe('100');
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    expect(first.bytes.equals((await objectBytes(key)).subarray(0, 100))).toBe(true);

    const tail = await proxy.request(job.links.video!, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect(tail.bytes.equals((await objectBytes(key)).subarray(-10))).toBe(true);

    const bad = await proxy.request(job.links.video!, { headers: { range: `bytes=${size}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('in presigned mode redirects to a short-lived URL that serves the object', async () => {
    const res = await fetch(`${presigned.baseUrl}${job.links.video}`, {
      headers: { authorization: `Bearer ${KEY}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/${BUCKET}/${PREFIX}jobs/${job.id}/video.mp4?`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('120');
    const video = await fetch(location);
    expect(video.status).toBe(200);
    expect(
      Buffer.from(await video.arrayBuffer()).equals(await objectBytes(`${PREFIX}jobs/${job.id}/video.mp4`)),
    ).toBe(true);
    const ranged = await fetch(location, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    // Still authenticated and scoped to the owner before any URL is handed out.
    const anonymous = await fetch(`${presigned.baseUrl}${job.links.video}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });

  it('retention deletes the objects, after which the video is gone', async () => {
    await sql(`UPDATE jobs SET finished_at = now() - interval '40 days' WHERE id = $1`, [job.id]);
    const reaper = await startWorker({ REAPER_INTERVAL_MS: '300', ARTIFACT_RETENTION_DAYS: '30' });
    const deadline = Date.now() + 30_000;
    while ((await bucketKeys(`${PREFIX}jobs/${job.id}/`)).length > 0) {
      if (Date.now() > deadline) throw new Error(`objects were not expired:\n${reaper.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const video = await proxy.request(`/v1/jobs/${job.id}/video`);
    expect(video.status).toBe(404);
    expect((await proxy.request(`/v1/jobs/${job.id}/log`)).text).toBe('');
  });
});
