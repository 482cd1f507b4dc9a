import { createHash } from 'node:crypto';
import type { MainClient, MainDb } from '@suite/db';
import type { StoredStepResolution } from '@suite/llm-agent';

/**
 * What identifies "the same test" for the hybrid engine: one owner, start URL and query. Not the
 * model: what is stored are the concrete actions, which the interpreter replays without one.
 */
export interface TestKey {
  owner: string;
  initialUrl: string;
  query: string;
}

/** Whitespace does not make another test: lines trimmed, runs of spaces collapsed, blank lines dropped. */
export function normalizeQuery(query: string): string {
  return query
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

export function testKey(key: TestKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.owner, key.initialUrl, normalizeQuery(key.query)]))
    .digest('hex');
}

/** The steps of interpreter tests that the model resolved, replayed by later runs of the same test. */
export class StepResolutionRepository {
  constructor(private readonly db: MainClient) {}

  async find(key: TestKey): Promise<StoredStepResolution[]> {
    const row = await this.db.stepResolution.findUnique({
      where: { key: testKey(key) },
      select: { steps: true },
    });
    return Array.isArray(row?.steps) ? (row.steps as unknown as StoredStepResolution[]) : [];
  }

  /**
   * Merges the steps resolved or healed by one run into the stored ones (a step's new resolution
   * replaces its old one); nothing is written when the run resolved nothing.
   */
  async save(key: TestKey, resolved: readonly StoredStepResolution[], jobId: string): Promise<void> {
    if (resolved.length === 0) return;
    const id = testKey(key);
    await this.db.$transaction(async (tx) => {
      const row = await tx.stepResolution.findUnique({ where: { key: id }, select: { steps: true } });
      const byIndex = new Map<number, StoredStepResolution>();
      for (const step of Array.isArray(row?.steps) ? (row.steps as unknown as StoredStepResolution[]) : [])
        byIndex.set(step.index, step);
      for (const step of resolved) byIndex.set(step.index, step);
      const steps = [...byIndex.values()].sort(
        (a, b) => a.index - b.index,
      ) as unknown as MainDb.Prisma.InputJsonValue;
      const data = { owner: key.owner, initialUrl: key.initialUrl, query: key.query, steps, jobId };
      await tx.stepResolution.upsert({ where: { key: id }, create: { key: id, ...data }, update: data });
    });
  }
}
