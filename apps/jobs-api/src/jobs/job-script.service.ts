import { Injectable } from '@nestjs/common';
import { FINAL_JOB_STATUSES, type JobStatus } from '@suite/contracts';
import { issue, RunnerError, type ValidationIssue } from '@suite/errors';
import { JobService, type Principal } from '@suite/jobs';
import {
  exportBlocker,
  exportTestScript,
  type RecordedAction,
  SecretValues,
  secretsFromMetadata,
  TEST_SCRIPT_FORMATS,
  type TestScriptFormat,
} from '@suite/llm-agent';

export interface JobScript {
  body: string;
  contentType: string;
  filename: string;
}

const CONTENT_TYPE = 'text/javascript; charset=utf-8';

/** A finished, passed job's recorded actions as a Playwright test or a Puppeteer script. */
@Injectable()
export class JobScriptService {
  constructor(private readonly jobs: JobService) {}

  async script(principal: Principal, id: string, format: unknown): Promise<JobScript> {
    const chosen = format === undefined || format === '' ? 'playwright' : format;
    if (typeof chosen !== 'string' || !TEST_SCRIPT_FORMATS.includes(chosen as TestScriptFormat))
      throw RunnerError.validation([issue.enum(['query', 'format'], chosen, TEST_SCRIPT_FORMATS)]);
    const job = await this.jobs.stored(principal, id);
    const actions = job.actions as RecordedAction[] | null;
    const unavailable = (why: string) =>
      RunnerError.validation([
        {
          type: 'script_unavailable',
          loc: ['path', 'job_id'],
          msg: `No script for job ${job.id}: ${why}.`,
          input: id,
        },
      ] satisfies ValidationIssue[]);
    if (!FINAL_JOB_STATUSES.includes(job.status as JobStatus))
      throw unavailable(`the job is ${job.status}; the script is available once it has passed`);
    if (!actions || actions.length === 0)
      throw unavailable(
        `the job ${job.status === 'succeeded' ? 'recorded no actions' : `ended ${job.status}`}; only a passed run can be exported`,
      );
    const blocker = exportBlocker(actions);
    if (blocker) throw unavailable(blocker);
    const secrets = new SecretValues(secretsFromMetadata(job.metadata));
    const title =
      secrets
        .redact(job.query.split('\n')[0] ?? '')
        .trim()
        .slice(0, 120) || `job ${job.id}`;
    const body = exportTestScript(actions, {
      format: chosen as TestScriptFormat,
      initialUrl: job.initialUrl,
      title,
      origin: `Exported from job ${job.id} (model ${job.model}, finished ${job.finishedAt?.toISOString() ?? 'unknown'}).`,
    });
    const name = `job-${job.id.slice(0, 8)}${chosen === 'playwright' ? '.spec.mjs' : '.puppeteer.mjs'}`;
    return { body: secrets.redact(body), contentType: CONTENT_TYPE, filename: name };
  }
}
