import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';

// A job's video through the whole runner: real jobs-api, a real worker with Chromium and ffmpeg.
// What a user gets: nothing (the same 404 as while no video exists) until the file is complete,
// then a whole, seekable mp4 that ends on the page as the test left it, with the drawn cursor.

const run = promisify(execFile);

interface Job {
  id: string;
  status: string;
  links: { log: string; video: string | null };
}

const KEY = 'video-recording-key';
/** The colour the last step turns the page: the video's last frame must show it. */
const GREEN = { r: 0, g: 170, b: 70 };
const pages: Record<string, string> = {
  '/paint': `<!doctype html><title>Paint</title><h1>Final state</h1>
    <button id="p" style="position:absolute;left:40px;top:120px;width:160px;height:60px">Paint it</button>
    <script>document.getElementById('p').addEventListener('click', () => {
      document.body.style.background = 'rgb(${GREEN.r},${GREEN.g},${GREEN.b})';
    });</script>`,
};

/** The worker's 1280x720 viewport, recorded scaled down to fit 800x800 (as Playwright does). */
const [W, H] = [800, 450];

async function lastFrameRgb(path: string): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-sseof', '-1', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 128 * 1024 * 1024 },
  );
  const rgb = stdout as unknown as Buffer;
  return rgb.subarray(rgb.length - W * H * 3);
}

describe('a job’s video', () => {
  const apps: AppProcess[] = [];
  let site: Server;
  let siteUrl = '';
  let api: RunnerClient;
  let artifacts = '';

  beforeAll(async () => {
    site = createServer((req, res) => {
      const body = pages[(req.url ?? '/').split('?')[0]!];
      if (!body) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    artifacts = mkdtempSync(join(tmpdir(), 'video-recording-'));
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      // A prefix of this file's own: no other spec's worker takes these jobs.
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-video-recording`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
    };
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    const healthPort = await freePort();
    const worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(healthPort) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, worker);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop('SIGKILL')));
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('is "not there yet" while the job runs, then a whole seekable mp4 ending on the final state', async () => {
    // The API's defaults: video and the drawn cursor.
    const created = await api.request('/v1/jobs', {
      json: {
        query: `Open ${siteUrl}/paint\nWait 2 seconds\nClick "Paint it"`,
        initial_url: `${siteUrl}/paint`,
      },
    });
    expect(created.status).toBe(202);
    const id = (created.json as Job).id;
    const file = join(artifacts, 'jobs', id, 'video.mp4');

    // While the recording runs: no link, the same 404 as for a job without a video, nothing partial at the path.
    let seenRunning = false;
    let job = (await api.request(`/v1/jobs/${id}`)).json as Job;
    while (!['succeeded', 'failed'].includes(job.status)) {
      if (job.status === 'running') {
        const early = await api.request(`/v1/jobs/${id}/video`);
        // The job may have ended in between; only an answer given while it ran counts here.
        const still = (await api.request(`/v1/jobs/${id}`)).json as Job;
        if (still.status === 'running') {
          seenRunning = true;
          expect(early.status).toBe(404);
          expect(early.json).toEqual({
            detail: `No video for job ${id}: the job is running; the video is written when it ends.`,
            code: 'artifact_not_found',
          });
          expect(still.links.video).toBeNull();
          // Only a whole file is ever at the path: it is renamed there once complete (the job's final
          // status does not wait for it, but a file can be complete while the status is being written).
          if (existsSync(file)) {
            const { stdout } = await run('ffprobe', [
              ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
            ]);
            expect(Number(stdout.trim())).toBeGreaterThan(2);
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await api.request(`/v1/jobs/${id}`)).json as Job;
    }
    expect(seenRunning).toBe(true);
    expect(job.status).toBe('succeeded');

    // Finished: the link is there at once; the encoder may still be completing the file, and a
    // request in that moment waits for it: what comes back is whole.
    expect(job.links.video).toBe(`/v1/jobs/${id}/video`);
    const video = await api.request(job.links.video!);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(Number(video.headers.get('content-length'))).toBe(video.bytes.length);
    // Nothing half-written is left beside it.
    expect(readdirSync(join(artifacts, 'jobs', id)).filter((name) => name.includes('video'))).toEqual([
      'video.mp4',
    ]);
    const downloaded = join(artifacts, `${id}.mp4`);
    writeFileSync(downloaded, video.bytes);

    const { stdout: info } = await run('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=codec_name,pix_fmt,width,height:format=duration', '-of', 'json'],
      downloaded,
    ]);
    const probe = JSON.parse(info) as {
      streams: { codec_name: string; pix_fmt: string; width: number; height: number }[];
      format: { duration: string };
    };
    expect(probe.streams[0]).toMatchObject({
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      width: W,
      height: H,
    });
    const duration = Number(probe.format.duration);
    expect(duration).toBeGreaterThan(2);

    // Seekable: a keyframe at least every second.
    const { stdout: keys } = await run('ffprobe', [
      ...['-v', 'error', '-skip_frame', 'nokey', '-select_streams', 'v:0'],
      ...['-show_frames', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0'],
      downloaded,
    ]);
    const times = keys
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0]));
    expect(times[0]).toBe(0);
    const gaps = [...times.slice(1).map((t, i) => t - times[i]!), duration - times.at(-1)!];
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1.0001);

    // The last frame is the page as the last step left it, the drawn cursor on the button it clicked.
    const rgb = await lastFrameRgb(downloaded);
    const at = (H - 25) * W * 3 + 25 * 3;
    expect(Math.abs(rgb[at]! - GREEN.r)).toBeLessThan(25);
    expect(Math.abs(rgb[at + 1]! - GREEN.g)).toBeLessThan(25);
    expect(Math.abs(rgb[at + 2]! - GREEN.b)).toBeLessThan(25);
    let cursor = 0;
    for (let i = 0; i + 2 < rgb.length; i += 3)
      if (Math.abs(rgb[i]! - 255) < 60 && rgb[i + 1]! < 90 && Math.abs(rgb[i + 2]! - 200) < 70) cursor += 1;
    expect(cursor).toBeGreaterThan(60);

    // Seeking asks for ranges; the tail of the file is there too.
    const tail = await api.request(job.links.video!, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(video.bytes.subarray(video.bytes.length - 100))).toBe(true);
  });
});
