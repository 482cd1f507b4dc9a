import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { open as openFile, writeFile, type FileHandle } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ARTIFACT_CONTENT_TYPE,
  ARTIFACT_FILE,
  checkArtifactJobId,
  LocalArtifactStore,
  type ArtifactKind,
  type ArtifactStore,
} from './artifact-store.js';

const MIB = 1024 * 1024;
/** S3's smallest part (every part but the last). */
const MIN_PART_SIZE = 5 * MIB;

export interface S3ArtifactStoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix, e.g. `runner/`; objects are `<prefix>jobs/<job id>/<file>`. */
  prefix?: string;
  /** Local scratch space of the worker: the files a running job writes before they are uploaded. */
  stagingDir: string;
  /** `presigned`: `downloadUrl` hands out presigned GET URLs; `proxy` (default): downloads go through the API. */
  download?: 'proxy' | 'presigned';
  presignTtlSeconds?: number;
  /** Files larger than this are uploaded in parts of this size (default 8 MiB, at least 5 MiB). */
  partSize?: number;
  /** While a job runs its log is re-uploaded at most this often, so readers elsewhere see it grow. */
  logFlushMs?: number;
}

interface LiveLog {
  /** Download of an earlier attempt's log, so a retry on another worker appends to it. */
  seeded: Promise<void>;
  timer?: NodeJS.Timeout;
  /** Uploads of this log, one after the other, so an older copy never overwrites a newer one. */
  uploads: Promise<void>;
}

/**
 * Job artifacts in an S3-compatible bucket. The worker writes to local staging files exactly as with
 * the shared directory (ffmpeg output, log appends); the running job's log is re-uploaded every
 * `logFlushMs` so `GET /v1/jobs/{id}/log` on any host shows it growing, and `complete` uploads the
 * final log, the video and the failure screenshot (multipart when large) and deletes the staging files.
 */
export class S3ArtifactStore implements ArtifactStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly staging: LocalArtifactStore;
  private readonly partSize: number;
  private readonly logFlushMs: number;
  private readonly live = new Map<string, LiveLog>();

  constructor(private readonly options: S3ArtifactStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    const prefix = options.prefix ?? '';
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    this.staging = new LocalArtifactStore(options.stagingDir);
    this.partSize = Math.max(MIN_PART_SIZE, options.partSize ?? 8 * MIB);
    this.logFlushMs = options.logFlushMs ?? 1000;
  }

  /** The object key of an artifact. */
  key(jobId: string, kind: ArtifactKind): string {
    return `${this.prefix}jobs/${checkArtifactJobId(jobId)}/${ARTIFACT_FILE[kind]}`;
  }

  localPath(jobId: string, kind: ArtifactKind): Promise<string> {
    return this.staging.localPath(jobId, kind);
  }

  async appendLog(jobId: string, lines: string): Promise<void> {
    let log = this.live.get(jobId);
    if (!log) {
      log = { seeded: this.seedLog(jobId), uploads: Promise.resolve() };
      this.live.set(jobId, log);
    }
    await log.seeded;
    await this.staging.appendLog(jobId, lines);
    if (!log.timer) {
      const current = log;
      current.timer = setTimeout(() => {
        current.timer = undefined;
        // Best effort while running: a failed interim upload is repaired by the next one or by `complete`.
        current.uploads = current.uploads
          .then(() => this.upload(jobId, 'log'))
          .then(
            () => undefined,
            () => undefined,
          );
      }, this.logFlushMs);
      current.timer.unref();
    }
  }

  async readLog(jobId: string): Promise<string> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(jobId, 'log') }),
      );
      return (await object.Body?.transformToString('utf8')) ?? '';
    } catch (error) {
      if (isNotFound(error)) return '';
      throw error;
    }
  }

  async size(jobId: string, kind: ArtifactKind): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(jobId, kind) }),
      );
      return head.ContentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Streams the object (or one byte range of it); a failure after the start ends the stream with the error. */
  open(jobId: string, kind: ArtifactKind, range?: { start: number; end: number }): Readable {
    const out = new PassThrough();
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(jobId, kind),
      Range: range ? `bytes=${range.start}-${range.end}` : undefined,
    });
    this.client
      .send(command, { abortSignal: abort.signal })
      .then((object) => pipeline(object.Body as Readable, out))
      .catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  async complete(jobId: string, options: { pending?: readonly ArtifactKind[] } = {}): Promise<void> {
    const pending = options.pending ?? [];
    const log = this.live.get(jobId);
    if (log) {
      clearTimeout(log.timer);
      await log.seeded.catch(() => undefined);
      await log.uploads;
      this.live.delete(jobId);
    }
    for (const kind of ['log', 'video', 'screenshot'] as const)
      if (!pending.includes(kind)) await this.upload(jobId, kind);
    // What is still being written stays staged until completePending.
    if (pending.length === 0) await this.staging.remove(jobId);
  }

  async completePending(jobId: string, kind: ArtifactKind): Promise<void> {
    await this.upload(jobId, kind);
    await this.staging.remove(jobId);
  }

  async downloadUrl(jobId: string, kind: ArtifactKind): Promise<string | undefined> {
    if (this.options.download !== 'presigned') return undefined;
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: this.key(jobId, kind) }),
      {
        expiresIn: this.options.presignTtlSeconds ?? 300,
      },
    );
  }

  async remove(jobId: string): Promise<void> {
    const log = this.live.get(jobId);
    if (log) clearTimeout(log.timer);
    this.live.delete(jobId);
    for (const kind of ['log', 'video', 'screenshot'] as const) {
      // Deleting a missing key succeeds in S3, so removal is idempotent.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(jobId, kind) }));
    }
    await this.staging.remove(jobId);
  }

  async close(): Promise<void> {
    for (const log of this.live.values()) clearTimeout(log.timer);
    this.client.destroy();
  }

  /** A job's first log line on this worker: continue the log an earlier attempt left in the bucket. */
  private async seedLog(jobId: string): Promise<void> {
    if ((await this.staging.size(jobId, 'log')) !== undefined) return;
    const earlier = await this.readLog(jobId);
    if (earlier) await writeFile(await this.localPath(jobId, 'log'), earlier, { flag: 'wx' });
  }

  /** Uploads a staging file; false when there is none (no video was recorded, no step failed). */
  private async upload(jobId: string, kind: ArtifactKind): Promise<boolean> {
    let file: FileHandle;
    try {
      file = await openFile(await this.localPath(jobId, kind), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const { size } = await file.stat();
      const target = {
        Bucket: this.bucket,
        Key: this.key(jobId, kind),
        ContentType: ARTIFACT_CONTENT_TYPE[kind],
      };
      if (size <= this.partSize) {
        let body = await readAt(file, 0, size);
        // A log being appended to may end mid-line: upload whole lines only.
        if (kind === 'log') body = body.subarray(0, body.lastIndexOf(0x0a) + 1);
        await this.client.send(new PutObjectCommand({ ...target, Body: body, ContentLength: body.length }));
      } else {
        await this.uploadInParts(file, size, target);
      }
      return true;
    } finally {
      await file.close();
    }
  }

  private async uploadInParts(
    file: FileHandle,
    size: number,
    target: { Bucket: string; Key: string; ContentType: string },
  ): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(target));
    const upload = { Bucket: target.Bucket, Key: target.Key, UploadId };
    try {
      const parts: CompletedPart[] = [];
      for (let offset = 0, partNumber = 1; offset < size; offset += this.partSize, partNumber++) {
        const body = await readAt(file, offset, Math.min(this.partSize, size - offset));
        const { ETag } = await this.client.send(
          new UploadPartCommand({
            ...upload,
            PartNumber: partNumber,
            Body: body,
            ContentLength: body.length,
          }),
        );
        parts.push({ PartNumber: partNumber, ETag });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      // Parts of an abandoned upload are billed until aborted.
      await this.client.send(new AbortMultipartUploadCommand(upload)).catch(() => undefined);
      throw error;
    }
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
