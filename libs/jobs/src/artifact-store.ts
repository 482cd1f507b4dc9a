import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export type ArtifactKind = 'log' | 'video' | 'screenshot';

/** File names of a job's artifacts, in its directory (local) or under its key prefix (S3). */
export const ARTIFACT_FILE: Record<ArtifactKind, string> = {
  log: 'agent-log.ndjson',
  video: 'video.mp4',
  screenshot: 'failure-screenshot.png',
};
export const ARTIFACT_CONTENT_TYPE: Record<ArtifactKind, string> = {
  log: 'application/x-ndjson',
  video: 'video/mp4',
  screenshot: 'image/png',
};
const FILE = ARTIFACT_FILE;

/** Job ids are UUIDs checked before they get here; refuse anything that could leave the root or prefix. */
export function checkArtifactJobId(jobId: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw new Error(`invalid job id for artifacts: ${jobId}`);
  return jobId;
}

/**
 * Where job artifacts live. The default is a directory every process of the suite shares (a
 * volume in containers); `S3ArtifactStore` keeps them in an S3-compatible bucket.
 */
export interface ArtifactStore {
  /** A local path the worker writes to directly (ffmpeg output, log appends). */
  localPath(jobId: string, kind: ArtifactKind): Promise<string>;
  appendLog(jobId: string, lines: string): Promise<void>;
  readLog(jobId: string): Promise<string>;
  size(jobId: string, kind: ArtifactKind): Promise<number | undefined>;
  open(jobId: string, kind: ArtifactKind, range?: { start: number; end: number }): Readable;
  /**
   * The worker is done writing the job's artifacts (call it before the job is marked finished):
   * object storage uploads the local files and deletes them; the shared directory keeps them.
   */
  complete(jobId: string, options?: { pending?: readonly ArtifactKind[] }): Promise<void>;
  /**
   * An artifact left `pending` by `complete` is done too (the video, finished after the job):
   * object storage uploads it and deletes what is left locally.
   */
  completePending(jobId: string, kind: ArtifactKind): Promise<void>;
  /**
   * A short-lived URL a client can download the artifact from directly, or undefined when
   * downloads go through the API (the shared directory, or S3 with ARTIFACT_DOWNLOAD=proxy).
   */
  downloadUrl(jobId: string, kind: ArtifactKind): Promise<string | undefined>;
  remove(jobId: string): Promise<void>;
  /** Releases connections (on shutdown). */
  close(): Promise<void>;
}

export class LocalArtifactStore implements ArtifactStore {
  constructor(private readonly root: string) {}

  private dir(jobId: string): string {
    return join(this.root, 'jobs', checkArtifactJobId(jobId));
  }

  async localPath(jobId: string, kind: ArtifactKind): Promise<string> {
    await mkdir(this.dir(jobId), { recursive: true });
    return join(this.dir(jobId), FILE[kind]);
  }

  async appendLog(jobId: string, lines: string): Promise<void> {
    await appendFile(await this.localPath(jobId, 'log'), lines);
  }

  async readLog(jobId: string): Promise<string> {
    try {
      return await readFile(join(this.dir(jobId), FILE.log), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw error;
    }
  }

  async size(jobId: string, kind: ArtifactKind): Promise<number | undefined> {
    try {
      const info = await stat(join(this.dir(jobId), FILE[kind]));
      return info.size;
    } catch {
      return undefined;
    }
  }

  open(jobId: string, kind: ArtifactKind, range?: { start: number; end: number }): Readable {
    return createReadStream(join(this.dir(jobId), FILE[kind]), range);
  }

  /** The files already are where every process reads them. */
  async complete(): Promise<void> {}

  async completePending(): Promise<void> {}

  async downloadUrl(): Promise<string | undefined> {
    return undefined;
  }

  async remove(jobId: string): Promise<void> {
    await rm(this.dir(jobId), { recursive: true, force: true });
  }

  async close(): Promise<void> {}
}
