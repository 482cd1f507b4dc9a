import {
  JobStatus,
  StepStatus,
  SuiteRunStatus,
  SuiteTestVerdict,
  type SuiteRunDto,
  type SuiteRunTestDto,
} from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { toJobRecord } from '@suite/jobs';
import type { RunJobRef, SuiteRun } from './suite.repository.js';

const VERDICT: Record<JobStatus, SuiteTestVerdict> = {
  [JobStatus.Queued]: SuiteTestVerdict.Pending,
  [JobStatus.Running]: SuiteTestVerdict.Pending,
  [JobStatus.Succeeded]: SuiteTestVerdict.Passed,
  [JobStatus.Failed]: SuiteTestVerdict.Failed,
  [JobStatus.Cancelled]: SuiteTestVerdict.Cancelled,
};

/** One test of a run from its job (a job deleted since counts as failed). */
export function toRunTest(ref: RunJobRef, job: MainDb.Job | undefined): SuiteRunTestDto {
  if (!job) {
    return {
      title: ref.title,
      job_id: ref.job_id,
      job_status: JobStatus.Failed,
      verdict: SuiteTestVerdict.Failed,
      failing_step: null,
      error: 'the job of this test no longer exists',
      job_url: `/v1/jobs/${ref.job_id}`,
    };
  }
  const record = toJobRecord(job, false);
  const failing = record.steps.find((step) => step.status === StepStatus.Failed);
  const verdict = VERDICT[record.status];
  return {
    title: ref.title,
    job_id: job.id,
    job_status: record.status,
    verdict,
    failing_step: failing ? { index: failing.index, text: failing.text, error: failing.error ?? null } : null,
    error: verdict === SuiteTestVerdict.Failed ? (record.error ?? failing?.error ?? null) : null,
    job_url: record.links.self,
  };
}

/**
 * A run as the API shows it: its tests from their jobs; it is running while a job is pending, and
 * has passed when every test passed (a cancelled test fails the run).
 */
export function toRunDto(run: SuiteRun, jobs: Map<string, MainDb.Job>): SuiteRunDto {
  const refs = run.jobs as unknown as RunJobRef[];
  const tests = refs.map((ref) => toRunTest(ref, jobs.get(ref.job_id)));
  const passed = tests.filter((t) => t.verdict === SuiteTestVerdict.Passed).length;
  const pending = tests.some((t) => t.verdict === SuiteTestVerdict.Pending);
  const status = pending
    ? SuiteRunStatus.Running
    : passed === tests.length
      ? SuiteRunStatus.Passed
      : SuiteRunStatus.Failed;
  const finishedAt = pending
    ? null
    : (run.finishedAt ??
      new Date(
        Math.max(run.createdAt.getTime(), ...[...jobs.values()].map((j) => j.finishedAt?.getTime() ?? 0)),
      ));
  return {
    id: run.id,
    suite_id: run.suiteId,
    trigger: run.trigger as SuiteRunDto['trigger'],
    status,
    passed,
    failed: tests.length - passed - tests.filter((t) => t.verdict === SuiteTestVerdict.Pending).length,
    total: tests.length,
    tests,
    created_at: run.createdAt.toISOString(),
    finished_at: finishedAt?.toISOString() ?? null,
  };
}
