import type { MainClient, MainDb } from '@suite/db';

export type Suite = MainDb.Suite;
export type SuiteRun = MainDb.SuiteRun;

/** A test as stored in `suites.tests` (the API's snake_case shape). */
export interface StoredSuiteTest {
  title: string;
  steps: string[];
  start_url?: string;
  tags?: string[];
  timeout_seconds?: number;
}

/** One test's job in a run, in the suite's order. */
export interface RunJobRef {
  title: string;
  job_id: string;
}

export interface SuiteData {
  name: string;
  baseUrl: string | null;
  tags: string[];
  tests: StoredSuiteTest[];
  schedule: string | null;
  webhook: string | null;
}

export type RunTrigger = 'manual' | 'schedule';

/** Two suites of one owner with the same name. */
export class SuiteNameTakenError extends Error {
  constructor(readonly suiteName: string) {
    super(`a suite named ${JSON.stringify(suiteName)} exists`);
  }
}

/** The only reader and writer of `suites` and `suite_runs`; every read is scoped to an owner. */
export class SuiteRepository {
  constructor(private readonly db: MainClient) {}

  async create(owner: string, data: SuiteData): Promise<Suite> {
    try {
      return await this.db.suite.create({ data: { owner, ...this.columns(data) } });
    } catch (error) {
      throw this.nameTaken(error, data.name);
    }
  }

  /** Replaces the suite's content; null when it is not the owner's. */
  async replace(owner: string, id: string, data: SuiteData): Promise<Suite | null> {
    try {
      const { count } = await this.db.suite.updateMany({ where: { id, owner }, data: this.columns(data) });
      return count ? this.findOwned(owner, id) : null;
    } catch (error) {
      throw this.nameTaken(error, data.name);
    }
  }

  async delete(owner: string, id: string): Promise<boolean> {
    const { count } = await this.db.suite.deleteMany({ where: { id, owner } });
    return count > 0;
  }

  findOwned(owner: string, id: string): Promise<Suite | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.suite.findFirst({ where: { id, owner } });
  }

  /** For the scheduled run, which acts for the suite's owner. */
  find(id: string): Promise<Suite | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.suite.findUnique({ where: { id } });
  }

  list(owner: string, name?: string): Promise<Suite[]> {
    return this.db.suite.findMany({ where: { owner, ...(name ? { name } : {}) }, orderBy: { name: 'asc' } });
  }

  count(owner: string): Promise<number> {
    return this.db.suite.count({ where: { owner } });
  }

  createRun(suite: Suite, trigger: RunTrigger, jobs: RunJobRef[]): Promise<SuiteRun> {
    return this.db.suiteRun.create({
      data: { suiteId: suite.id, owner: suite.owner, trigger, jobs: jobs as never },
    });
  }

  listRuns(suiteId: string, limit: number, trigger?: RunTrigger): Promise<SuiteRun[]> {
    return this.db.suiteRun.findMany({
      where: { suiteId, ...(trigger ? { trigger } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
  }

  /** A run of this suite (the suite already found for its owner). */
  findRunOf(suiteId: string, id: string): Promise<SuiteRun | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.suiteRun.findFirst({ where: { id, suiteId } });
  }

  findRun(id: string): Promise<SuiteRun | null> {
    return this.db.suiteRun.findUnique({ where: { id } });
  }

  /** The jobs of runs, by id, of the runs' owner. */
  jobsOf(owner: string, ids: string[]): Promise<MainDb.Job[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.job.findMany({ where: { owner, id: { in: ids } } });
  }

  /** Stores a run's outcome once (the first writer wins; later calls change nothing). */
  async finish(id: string, status: 'passed' | 'failed', finishedAt: Date): Promise<void> {
    await this.db.suiteRun.updateMany({ where: { id, status: 'running' }, data: { status, finishedAt } });
  }

  /** True for exactly one caller per run: the one that decides about its notification. */
  async claimNotification(id: string): Promise<boolean> {
    const { count } = await this.db.suiteRun.updateMany({
      where: { id, notified: false },
      data: { notified: true },
    });
    return count > 0;
  }

  private columns(data: SuiteData) {
    return {
      name: data.name,
      baseUrl: data.baseUrl,
      tags: data.tags,
      tests: data.tests as never,
      schedule: data.schedule,
      webhook: data.webhook,
    };
  }

  private nameTaken(error: unknown, name: string): unknown {
    return (error as { code?: string } | null)?.code === 'P2002' ? new SuiteNameTakenError(name) : error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);
