import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { startS3Server, type S3Server } from '../../../test/support/s3-server.js';
import { LocalArtifactStore } from './artifact-store.js';
import { createArtifactStore, type ArtifactStoreConfig } from './artifact-store.factory.js';
import { S3ArtifactStore } from './s3-artifact-store.js';

const BUCKET = 'suite-artifacts-test';
const MIB = 1024 * 1024;

describe('S3ArtifactStore against a real S3 server (s3rver)', () => {
  let server: S3Server;
  let endpoint: string;
  let client: S3Client;
  const dirs: string[] = [];
  const stores: S3ArtifactStore[] = [];
  const scratch = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 's3-store-'));
    dirs.push(dir);
    return dir;
  };
  const store = (
    options: Partial<ConstructorParameters<typeof S3ArtifactStore>[0]> = {},
  ): S3ArtifactStore => {
    const created = new S3ArtifactStore({ client, bucket: BUCKET, stagingDir: scratch(), ...options });
    stores.push(created);
    return created;
  };
  const s3Client = (): S3Client =>
    new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
  const object = (key: string) => client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));

  beforeAll(async () => {
    server = await startS3Server([BUCKET]);
    endpoint = server.endpoint;
    client = s3Client();
  });

  afterAll(async () => {
    for (const s of stores) await s.close().catch(() => undefined);
    client?.destroy();
    await server?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('uploads the log and the video on complete, under the prefix, and removes the local files', async () => {
    const s = store({ prefix: 'runner' });
    const jobId = randomUUID();
    await s.appendLog(jobId, '{"seq":1}\n');
    await s.appendLog(jobId, '{"seq":2}\n');
    const video = randomBytes(3000);
    const videoPath = await s.localPath(jobId, 'video');
    await writeFile(videoPath, video);

    await s.complete(jobId);

    const log = await object(`runner/jobs/${jobId}/agent-log.ndjson`);
    expect(log.ContentType).toBe('application/x-ndjson');
    expect(await log.Body!.transformToString()).toBe('{"seq":1}\n{"seq":2}\n');
    const stored = await object(`runner/jobs/${jobId}/video.mp4`);
    expect(stored.ContentType).toBe('video/mp4');
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(video)).toBe(true);
    expect(existsSync(videoPath)).toBe(false);

    // Another host (no staging files) reads the same objects.
    const reader = store({ prefix: 'runner/' });
    expect(await reader.readLog(jobId)).toBe('{"seq":1}\n{"seq":2}\n');
    expect(await reader.size(jobId, 'video')).toBe(3000);
    expect((await buffer(reader.open(jobId, 'video'))).equals(video)).toBe(true);
    expect(
      (await buffer(reader.open(jobId, 'video', { start: 10, end: 109 }))).equals(video.subarray(10, 110)),
    ).toBe(true);
  });

  it('uploads a large video in parts and serves ranges across part boundaries', async () => {
    // A client of its own that records the operations sent, to see the upload went in parts.
    const sent: string[] = [];
    const recording = s3Client();
    recording.middlewareStack.add(
      (next, context) => (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize' },
    );
    const s = store({ client: recording, partSize: 5 * MIB });
    const jobId = randomUUID();
    const video = randomBytes(11 * MIB + 123);
    await writeFile(await s.localPath(jobId, 'video'), video);
    await s.complete(jobId);

    expect(await s.size(jobId, 'video')).toBe(video.length);
    expect(sent.filter((name) => name !== 'HeadObjectCommand')).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    const start = 5 * MIB - 50;
    const slice = await buffer(s.open(jobId, 'video', { start, end: start + 99 }));
    expect(slice.equals(video.subarray(start, start + 100))).toBe(true);
    const tail = await buffer(s.open(jobId, 'video', { start: video.length - 100, end: video.length - 1 }));
    expect(tail.equals(video.subarray(-100))).toBe(true);
  });

  it('shows a running job’s log on other hosts before the job completes', async () => {
    const worker = store({ logFlushMs: 20 });
    const api = store();
    const jobId = randomUUID();
    await worker.appendLog(jobId, '{"seq":1,"message":"opened"}\n');
    await worker.appendLog(jobId, '{"seq":2,"message":"clicked"}\n');
    let seen = '';
    for (let i = 0; i < 200 && !seen.includes('"seq":2'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      seen = await api.readLog(jobId);
    }
    expect(seen).toBe('{"seq":1,"message":"opened"}\n{"seq":2,"message":"clicked"}\n');
    await worker.complete(jobId);
  });

  it('continues the log of an earlier attempt that ran on another worker', async () => {
    const first = store();
    const second = store();
    const jobId = randomUUID();
    await first.appendLog(jobId, '{"seq":1,"message":"attempt 1"}\n');
    await first.complete(jobId);
    await second.appendLog(jobId, '{"seq":2,"message":"attempt 2"}\n');
    await second.complete(jobId);
    expect(await first.readLog(jobId)).toBe(
      '{"seq":1,"message":"attempt 1"}\n{"seq":2,"message":"attempt 2"}\n',
    );
  });

  it('treats missing artifacts as absent, and a missing object as a failing stream', async () => {
    const s = store();
    const jobId = randomUUID();
    expect(await s.readLog(jobId)).toBe('');
    expect(await s.size(jobId, 'video')).toBeUndefined();
    await s.complete(jobId); // nothing recorded: nothing uploaded
    expect(await s.size(jobId, 'log')).toBeUndefined();
    await expect(buffer(s.open(jobId, 'video') as Readable)).rejects.toMatchObject({ name: 'NoSuchKey' });
    expect(() => s.key('../../etc', 'log')).toThrow(/invalid job id/);
  });

  it("uploads a failed step's screenshot as image/png and removes it with the job (retention)", async () => {
    const s = store({ prefix: 'runner' });
    const jobId = randomUUID();
    const png = randomBytes(700);
    const path = await s.localPath(jobId, 'screenshot');
    await writeFile(path, png);
    await s.complete(jobId);
    const stored = await object(`runner/jobs/${jobId}/failure-screenshot.png`);
    expect(stored.ContentType).toBe('image/png');
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(png)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect((await buffer(s.open(jobId, 'screenshot'))).equals(png)).toBe(true);
    await s.remove(jobId);
    expect(await s.size(jobId, 'screenshot')).toBeUndefined();
  });

  it('removes both objects (retention), and removing again is harmless', async () => {
    const s = store();
    const jobId = randomUUID();
    await s.appendLog(jobId, '{"seq":1}\n');
    await writeFile(await s.localPath(jobId, 'video'), randomBytes(500));
    await s.complete(jobId);
    expect(await s.size(jobId, 'video')).toBe(500);

    await s.remove(jobId);
    expect(await s.size(jobId, 'video')).toBeUndefined();
    expect(await s.size(jobId, 'log')).toBeUndefined();
    expect(await s.readLog(jobId)).toBe('');
    await expect(s.remove(jobId)).resolves.toBeUndefined();
  });

  it('hands out presigned URLs only in presigned mode; the URL serves the object and its ranges', async () => {
    const proxy = store();
    const presigned = store({ download: 'presigned', presignTtlSeconds: 60 });
    const jobId = randomUUID();
    const video = randomBytes(1000);
    await writeFile(await presigned.localPath(jobId, 'video'), video);
    await presigned.complete(jobId);

    expect(await proxy.downloadUrl(jobId, 'video')).toBeUndefined();
    const url = await presigned.downloadUrl(jobId, 'video');
    expect(url).toMatch(/X-Amz-Expires=60/);
    const whole = await fetch(url!);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const part = await fetch(url!, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(0, 100))).toBe(true);
  });

  it('is chosen by configuration: the shared directory by default, S3 when a bucket is set', async () => {
    const base: ArtifactStoreConfig = {
      ARTIFACTS_DIR: scratch(),
      ARTIFACT_DOWNLOAD: 'proxy',
      ARTIFACT_PRESIGN_TTL_S: 300,
      S3_FORCE_PATH_STYLE: true,
    };
    expect(createArtifactStore(base)).toBeInstanceOf(LocalArtifactStore);
    expect(createArtifactStore({ ...base, ARTIFACT_STORE: 'local', S3_BUCKET: BUCKET })).toBeInstanceOf(
      LocalArtifactStore,
    );
    expect(() => createArtifactStore({ ...base, ARTIFACT_STORE: 's3' })).toThrow(/S3_BUCKET is required/);

    const configured = createArtifactStore({
      ...base,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'configured/',
    });
    expect(configured).toBeInstanceOf(S3ArtifactStore);
    const jobId = randomUUID();
    await configured.appendLog(jobId, '{"seq":1}\n');
    await configured.complete(jobId);
    const log = await object(`configured/jobs/${jobId}/agent-log.ndjson`);
    expect(await log.Body!.transformToString()).toBe('{"seq":1}\n');
    await configured.close();
  });
});
