import {
  CreateJobDto,
  type ListSuiteRunsQueryDto,
  SUITES_PER_OWNER_MAX,
  type SuiteOverviewQueryDto,
  SuiteRunStatus,
  type SuiteTestDto,
  type SuiteListDto,
  type SuiteOverviewListDto,
  type SuiteRecordDto,
  type SuiteRunDto,
  type SuiteRunListDto,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { issue, RunnerError, RunnerErrorCode } from '@suite/errors';
import { JobService, type Principal } from '@suite/jobs';
import { isHttpUrl } from './suite-input.validator.js';
import { suiteOverviewOf } from './suite-overview.js';
import { toRunDto } from './suite-run.mapper.js';
import type { SuiteScheduler } from './suite-scheduler.js';
import {
  SuiteNameTakenError,
  type RunJobRef,
  type RunTrigger,
  type StoredSuiteTest,
  type Suite,
  type SuiteData,
  type SuiteRepository,
  type SuiteRun,
} from './suite.repository.js';

export interface SuiteServiceDeps {
  suites: SuiteRepository;
  jobs: JobService;
  scheduler: SuiteScheduler;
}

/**
 * Suites kept by the runner: CRUD scoped to the API key's owner (another owner's suite is simply
 * not found), and runs that queue one job per test through the one `JobService` (so fair share
 * and the per-owner limits apply as to any job). Suites arrive validated (`SuiteInputValidator`
 * at the edge), so this service never parses a body.
 */
export class SuiteService {
  constructor(private readonly deps: SuiteServiceDeps) {}

  async create(principal: Principal, data: SuiteData): Promise<SuiteRecordDto> {
    if ((await this.deps.suites.count(principal.owner)) >= SUITES_PER_OWNER_MAX) {
      throw new RunnerError(
        RunnerErrorCode.RateLimited,
        `You already have ${SUITES_PER_OWNER_MAX} suites, the most one owner may keep; delete some first.`,
      );
    }
    const suite = await this.deps.suites.create(principal.owner, data).catch(nameTaken);
    await this.syncSchedule(suite, () => this.deps.suites.delete(principal.owner, suite.id));
    return toSuiteRecord(suite);
  }

  async replace(principal: Principal, id: string, data: SuiteData): Promise<SuiteRecordDto> {
    await this.find(principal, id);
    const suite = await this.deps.suites.replace(principal.owner, id, data).catch(nameTaken);
    if (!suite) throw notFound(id);
    await this.syncSchedule(suite);
    return toSuiteRecord(suite);
  }

  async list(principal: Principal, name?: string): Promise<SuiteListDto> {
    const suites = await this.deps.suites.list(principal.owner, name || undefined);
    return { suites: suites.map(toSuiteRecord) };
  }

  async get(principal: Principal, id: string): Promise<SuiteRecordDto> {
    return toSuiteRecord(await this.find(principal, id));
  }

  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    const suite = await this.find(principal, id);
    await this.deps.scheduler.remove(suite.id);
    await this.deps.suites.delete(principal.owner, suite.id);
    return { id: suite.id, deleted: true };
  }

  /** `POST /v1/suites/{id}/runs`: queues every test of the suite now. */
  async run(principal: Principal, id: string): Promise<SuiteRunDto> {
    return this.startRun(await this.find(principal, id), 'manual');
  }

  /**
   * Queues one job per test as the suite's owner and records the run. When the queue refuses a
   * test (the owner's limit), the jobs already queued are cancelled and the refusal is passed on.
   */
  async startRun(suite: Suite, trigger: RunTrigger): Promise<SuiteRunDto> {
    const principal: Principal = { owner: suite.owner, keyId: 'suite' };
    const refs: RunJobRef[] = [];
    const created: MainDb.Job[] = [];
    try {
      for (const test of suite.tests as unknown as StoredSuiteTest[]) {
        const job = await this.deps.jobs.createJob(principal, jobRequestOf(suite, test, trigger));
        refs.push({ title: test.title, job_id: job.job.id });
        created.push(job.job);
      }
    } catch (error) {
      await Promise.all(
        refs.map((ref) => this.deps.jobs.cancel(principal, ref.job_id).catch(() => undefined)),
      );
      throw error;
    }
    const run = await this.deps.suites.createRun(suite, trigger, refs);
    return toRunDto(run, new Map(created.map((job) => [job.id, job])));
  }

  async runs(principal: Principal, id: string, value: ListSuiteRunsQueryDto): Promise<SuiteRunListDto> {
    const suite = await this.find(principal, id);
    const runs = await this.deps.suites.listRuns(suite.id, value.limit);
    return { runs: await this.present(suite.owner, runs) };
  }

  /** One run of the suite, with each test's result (the hub's run page). */
  async getRun(principal: Principal, id: string, runId: string): Promise<SuiteRunDto> {
    const suite = await this.find(principal, id);
    const run = await this.deps.suites.findRunOf(suite.id, runId);
    if (!run) {
      throw new RunnerError(
        RunnerErrorCode.SuiteNotFound,
        `Run ${JSON.stringify(runId)} of suite ${JSON.stringify(id)} was not found.`,
      );
    }
    const [shown] = await this.present(suite.owner, [run]);
    return shown!;
  }

  /** Every suite of the owner with its last runs, their pass rate and the tests that flip (the hub). */
  async overview(principal: Principal, value: SuiteOverviewQueryDto): Promise<SuiteOverviewListDto> {
    const suites = await this.deps.suites.list(principal.owner);
    const overviews = [];
    for (const suite of suites) {
      const runs = await this.present(suite.owner, await this.deps.suites.listRuns(suite.id, value.runs));
      overviews.push(suiteOverviewOf(suite, runs));
    }
    return { runs: value.runs, suites: overviews };
  }

  /** Runs as the API shows them; a run found finished is stored as such. */
  async present(owner: string, runs: SuiteRun[]): Promise<SuiteRunDto[]> {
    const ids = runs.flatMap((run) => (run.jobs as unknown as RunJobRef[]).map((ref) => ref.job_id));
    const jobs = new Map((await this.deps.suites.jobsOf(owner, ids)).map((job) => [job.id, job]));
    const shown: SuiteRunDto[] = [];
    for (const run of runs) {
      const own = new Map(
        (run.jobs as unknown as RunJobRef[]).flatMap((ref) => {
          const job = jobs.get(ref.job_id);
          return job ? [[ref.job_id, job] as const] : [];
        }),
      );
      const dto = toRunDto(run, own);
      if (run.status === 'running' && dto.status !== SuiteRunStatus.Running) {
        await this.deps.suites.finish(run.id, dto.status, new Date(dto.finished_at!));
      }
      shown.push(dto);
    }
    return shown;
  }

  private async find(principal: Principal, id: string): Promise<Suite> {
    const suite = await this.deps.suites.findOwned(principal.owner, id);
    if (!suite) throw notFound(id);
    return suite;
  }

  /** The schedule follows the stored suite; when BullMQ cannot take it, `undo` runs and the call fails. */
  private async syncSchedule(suite: Suite, undo?: () => Promise<unknown>): Promise<void> {
    try {
      await this.deps.scheduler.sync(suite.id, suite.schedule);
    } catch (error) {
      await undo?.().catch(() => undefined);
      throw new RunnerError(
        RunnerErrorCode.ServiceUnavailable,
        'The schedule could not be stored (the queue is unavailable); try again shortly.',
        { cause: error },
      );
    }
  }
}

/** The `POST /v1/jobs` request of one test of a suite (made of a suite validated when stored). */
export function jobRequestOf(suite: Suite, test: StoredSuiteTest, trigger: RunTrigger): CreateJobDto {
  const tags = [...new Set([...suite.tags, ...(test.tags ?? [])])];
  const startUrl = startUrlOf(suite, test);
  return Object.assign(new CreateJobDto(), {
    query: test.steps.map((step, i) => `${i + 1}. ${step}`).join('\n'),
    ...(startUrl ? { initial_url: startUrl } : {}),
    metadata: {
      title: test.title,
      source: 'suite',
      suite: { id: suite.id, name: suite.name, trigger },
      ...(tags.length ? { tags } : {}),
      ...(test.timeout_seconds ? { timeout_seconds: test.timeout_seconds } : {}),
    },
  });
}

/** Like the `browser-tests` command: a relative start URL stays under the base URL's path. */
function startUrlOf(suite: Suite, test: StoredSuiteTest): string | undefined {
  if (test.start_url && isHttpUrl(test.start_url)) return test.start_url;
  if (!suite.baseUrl) return undefined;
  const base = suite.baseUrl.endsWith('/') ? suite.baseUrl : `${suite.baseUrl}/`;
  return new URL((test.start_url ?? '').replace(/^\/(?!\/)/, ''), base).toString();
}

export function toSuiteRecord(suite: Suite): SuiteRecordDto {
  return {
    id: suite.id,
    name: suite.name,
    base_url: suite.baseUrl,
    tags: suite.tags,
    tests: suite.tests as unknown as SuiteTestDto[],
    schedule: suite.schedule,
    webhook: suite.webhook,
    created_at: suite.createdAt.toISOString(),
    updated_at: suite.updatedAt.toISOString(),
  };
}

function notFound(id: string): RunnerError {
  return new RunnerError(RunnerErrorCode.SuiteNotFound, `Suite ${JSON.stringify(id)} was not found.`);
}

function nameTaken(error: unknown): never {
  if (error instanceof SuiteNameTakenError) {
    throw RunnerError.validation([
      issue.valueError(['body', 'name'], error.suiteName, 'you already have a suite with this name'),
    ]);
  }
  throw error;
}
