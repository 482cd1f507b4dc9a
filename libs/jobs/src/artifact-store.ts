import { createReadStream, type ReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type ArtifactKind = 'log' | 'video';

const FILE: Record<ArtifactKind, string> = { log: 'agent-log.ndjson', video: 'video.mp4' };

/**
 * Where job artifacts live. The default is a directory every process of the suite shares (a
 * volume in containers); object storage can implement the same interface.
 */
export interface ArtifactStore {
  /** A local path the worker writes to directly (ffmpeg output, log appends). */
  localPath(jobId: string, kind: ArtifactKind): Promise<string>;
  appendLog(jobId: string, lines: string): Promise<void>;
  readLog(jobId: string): Promise<string>;
  size(jobId: string, kind: ArtifactKind): Promise<number | undefined>;
  open(jobId: string, kind: ArtifactKind, range?: { start: number; end: number }): ReadStream;
  remove(jobId: string): Promise<void>;
}

export class LocalArtifactStore implements ArtifactStore {
  constructor(private readonly root: string) {}

  private dir(jobId: string): string {
    // Job ids are UUIDs checked before they get here; refuse anything that could leave the root.
    if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw new Error(`invalid job id for artifacts: ${jobId}`);
    return join(this.root, 'jobs', jobId);
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

  open(jobId: string, kind: ArtifactKind, range?: { start: number; end: number }): ReadStream {
    return createReadStream(join(this.dir(jobId), FILE[kind]), range);
  }

  async remove(jobId: string): Promise<void> {
    await rm(this.dir(jobId), { recursive: true, force: true });
  }
}
