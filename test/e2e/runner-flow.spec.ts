import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient, sql } from '../support/runner-client.js';

// The whole runner with real processes: jobs-api, browser workers (real Chromium and ffmpeg), the
// real Postgres and Redis of this test run, and local pages served below.

interface Job {
  id: string;
  status: string;
  summary: string | null;
  error: string | null;
  steps: { index: number; status: string; action: string; error: string | null; strategy?: string }[];
  links: { log: string; video: string | null; screenshot?: string };
}

const KEY = 'runner-flow-key';
const pages: Record<string, string> = {
  '/': `<!doctype html><title>Demo Shop</title><h1>Welcome</h1>
    <form action="/thanks"><label for="email">Email</label><input id="email" name="email">
    <label><input type="checkbox" name="tos"> I accept the terms</label>
    <select aria-label="Plan"><option>Free</option><option>Pro</option></select>
    <button type="submit">Sign up</button></form>`,
  '/thanks': `<!doctype html><title>Thanks</title><p>Thanks for signing up!</p>`,
  '/slow': `<!doctype html><title>Slow</title><p>Loaded</p>`,
};

describe('runner end to end', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let api: RunnerClient;
  let artifacts = '';
  const env: NodeJS.ProcessEnv = {};

  const startWorker = async (extra: NodeJS.ProcessEnv = {}): Promise<AppProcess> => {
    const port = await freePort();
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(port), ...extra });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, worker);
    return worker;
  };

  const submit = async (query: string, extra: Record<string, unknown> = {}): Promise<Job> => {
    const res = await api.request('/v1/jobs', { json: { query, initial_url: siteUrl, ...extra } });
    expect(res.status).toBe(202);
    return res.json as Job;
  };

  const waitForEnd = async (id: string, timeoutMs = 45_000): Promise<Job> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = (await api.request(`/v1/jobs/${id}`)).json as Job;
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const waitForStatus = async (id: string, status: string): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while (((await api.request(`/v1/jobs/${id}`)).json as Job).status !== status) {
      if (Date.now() > deadline) throw new Error(`job ${id} never became ${status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = pages[path];
      if (!body) return void res.writeHead(404).end('not found');
      // /slow keeps the browser waiting, so a job is reliably mid-run when a worker is killed.
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/html' }).end(body),
        path === '/slow' ? 4_000 : 0,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;

    artifacts = mkdtempSync(join(tmpdir(), 'runner-flow-'));
    Object.assign(env, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      // A prefix of this file's own: no other spec's worker takes these jobs.
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-runner-flow`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      STALLED_INTERVAL_MS: '3000',
      REAPER_INTERVAL_MS: '0',
      WORKER_CONCURRENCY: '2',
    });
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('a job cancelled while queued never runs, even when a worker comes later', async () => {
    const job = await submit('Open /thanks. The page contains "Thanks"');
    const cancel = await api.request(`/v1/jobs/${job.id}`, { method: 'DELETE' });
    expect(cancel.json).toMatchObject({ status: 'cancelled', cancelled: true });

    await startWorker();
    const control = await submit('Open /thanks. The page contains "Thanks"');
    await waitForEnd(control.id); // the worker is up and has taken work since
    const after = (await api.request(`/v1/jobs/${job.id}`)).json as Job;
    expect(after.status).toBe('cancelled');
    expect(after.steps).toEqual([]);
    expect((await api.request(`/v1/jobs/${job.id}/log`)).text).toBe('');
  });

  it('a plain-English form test succeeds with a summary, a step log and a playable video', async () => {
    const job = await submit(
      [
        '1. Type "a@b.co" into the Email field',
        '2. Check "I accept the terms"',
        '3. Select "Pro" from Plan',
        '4. Click Sign up',
        '5. Verify the page contains "Thanks for signing up"',
        '6. The title is "Thanks"',
      ].join('\n'),
    );
    const done = await waitForEnd(job.id);
    expect(done.status).toBe('succeeded');
    expect(done.summary).toMatch(/6 steps passed/);
    expect(done.steps.map((s) => s.status)).toEqual(Array(6).fill('passed'));
    expect(done.steps[0]).toMatchObject({ action: 'type', strategy: expect.any(String) });
    expect(done.links.video).toBe(`/v1/jobs/${job.id}/video`);

    const text = (await api.request(done.links.log)).text;
    expect(text).toMatch(/step 4 click .*Sign up.* passed/);
    expect(text).toMatch(/verdict: succeeded/);
    const ndjson = await api.request(done.links.log, { headers: { accept: 'application/x-ndjson' } });
    const entries = ndjson.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; time: string });
    expect(entries.length).toBeGreaterThan(6);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));

    const video = await api.request(done.links.video!);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const file = join(artifacts, 'downloaded.mp4');
    writeFileSync(file, video.bytes);
    const probe = execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,pix_fmt',
      '-of',
      'csv=p=0',
      file,
    ]);
    expect(probe.toString().trim()).toBe('h264,yuv420p');
  });

  it('a failing assertion fails the job, says what it expected and found, and still records video', async () => {
    const job = await submit(
      'Open /thanks. Then check that the title contains "Dashboard". Then click "Nowhere"',
    );
    const done = await waitForEnd(job.id);
    expect(done.status).toBe('failed');
    const failed = done.steps.find((s) => s.status === 'failed')!;
    expect(failed.error).toMatch(/Dashboard/);
    expect(failed.error).toMatch(/Thanks/);
    expect(done.steps.at(-1)!.status).toBe('skipped');
    expect(done.links.video).not.toBeNull();
  });

  it('a failed job keeps a PNG screenshot of the page where it failed; a passed one has none', async () => {
    const secret = 'pa55-word-of-the-day';
    const failed = await submit(`Type "${secret}" into Email. Then click "Nowhere"`, {
      metadata: { secrets: { email: secret } },
    });
    const done = await waitForEnd(failed.id);
    expect(done.status).toBe('failed');
    expect(done.links.screenshot).toBe(`/v1/jobs/${failed.id}/screenshot`);
    // The query is the caller's own text; what the run reports masks the secret.
    expect(JSON.stringify([done.steps, done.summary])).not.toContain(secret);
    const shot = await api.request(done.links.screenshot!);
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect(shot.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');

    const passed = await waitForEnd((await submit('Open /thanks. The page contains "Thanks"')).id);
    expect(passed.status).toBe('succeeded');
    expect(passed.links.screenshot).toBeUndefined();
    expect((await api.request(`/v1/jobs/${passed.id}/screenshot`)).status).toBe(404);
  });

  it('a job carries the trace context of the request that created it to the worker', async () => {
    const job = await submit('Open /thanks. The page contains "Thanks"');
    const [row] = await sql<{ trace_context: { traceparent?: string } }>(
      'select trace_context from jobs where id = $1',
      [job.id],
    );
    expect(row!.trace_context.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    await waitForEnd(job.id);
  });

  it('a query with a step the interpreter does not understand fails at once, quoting it', async () => {
    const job = await submit('Open /. Then juggle three flaming torches. Then click Sign up');
    const done = await waitForEnd(job.id);
    expect(done.status).toBe('failed');
    expect(done.summary).toMatch(/juggle three flaming torches/);
    expect(done.steps).toEqual([]);
    expect(done.links.video).toBeNull();
  });

  it('a worker killed mid-job leaves no job running: another worker takes it over', async () => {
    const doomed = await startWorker();
    const job = await submit('Open /slow. The page contains "Loaded"');
    await waitForStatus(job.id, 'running');
    // Whichever worker took it, kill them all but keep one fresh worker alive.
    for (const app of apps.filter((a) => a.child.exitCode === null && a !== apps[0] && a !== doomed)) {
      await app.stop('SIGKILL');
    }
    await doomed.stop('SIGKILL');
    await startWorker();

    const done = await waitForEnd(job.id, 40_000);
    expect(['succeeded', 'failed']).toContain(done.status);
    if (done.status === 'failed') expect(done.error ?? done.summary).toMatch(/worker|stopped/);
  });

  it('SIGTERM lets a running job finish before the worker exits', async () => {
    const worker = await startWorker();
    for (const app of apps.filter((a) => a !== apps[0] && a !== worker)) await app.stop('SIGKILL');
    const job = await submit('Open /slow. The page contains "Loaded"');
    await waitForStatus(job.id, 'running');
    const exit = worker.stop('SIGTERM');
    const done = await waitForEnd(job.id);
    expect(done.status).toBe('succeeded');
    expect([0, 'SIGTERM']).toContain(await exit);
  });
});
