import { createHash } from 'node:crypto';
import type { MainClient } from '@suite/db';

/** What identifies "the same test" for replay: one owner, model, start URL and query. */
export interface ReplayKey {
  owner: string;
  model: string;
  initialUrl: string;
  query: string;
}

export interface StoredReplayScript {
  script: string;
  llmCalls: number;
  jobId: string;
}

function replayKey(key: ReplayKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.owner, key.model, key.initialUrl, key.query]))
    .digest('hex');
}

/** The scripts of passed LLM runs, replayed by later jobs of the same test. */
export class ReplayScriptRepository {
  constructor(private readonly db: MainClient) {}

  async find(key: ReplayKey): Promise<StoredReplayScript | null> {
    return this.db.replayScript.findUnique({
      where: { key: replayKey(key) },
      select: { script: true, llmCalls: true, jobId: true },
    });
  }

  /** The latest passing run's script replaces the stored one (a healed run included). */
  async save(key: ReplayKey, script: StoredReplayScript): Promise<void> {
    const data = { ...key, ...script };
    await this.db.replayScript.upsert({
      where: { key: replayKey(key) },
      create: { key: replayKey(key), ...data },
      update: data,
    });
  }
}
