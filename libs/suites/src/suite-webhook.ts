import { SuiteRunStatus, SuiteTestVerdict, type SuiteRunDto } from '@suite/contracts';
import type { Suite } from './suite.repository.js';

export type SuiteNotificationEvent = 'suite.run.failed' | 'suite.run.recovered';

/**
 * What a suite's webhook receives: `text` (one readable message: Slack, Mattermost, Rocket.Chat
 * and Google Chat incoming webhooks show it as is) plus the same facts as fields for programs.
 */
export interface SuiteNotification {
  text: string;
  event: SuiteNotificationEvent;
  suite: { id: string; name: string };
  run: {
    id: string;
    status: SuiteRunStatus;
    passed: number;
    failed: number;
    total: number;
    finished_at: string | null;
  };
  failures: { title: string; job_id: string; job_url: string; step: string | null; error: string | null }[];
}

/** Whether a finished scheduled run is notified: every failure, and a success right after a failure. */
export function notificationEventOf(
  run: SuiteRunDto,
  previous: SuiteRunDto | undefined,
): SuiteNotificationEvent | undefined {
  if (run.status === SuiteRunStatus.Failed) return 'suite.run.failed';
  if (run.status === SuiteRunStatus.Passed && previous?.status === SuiteRunStatus.Failed) {
    return 'suite.run.recovered';
  }
  return undefined;
}

export function suiteNotification(
  suite: Suite,
  run: SuiteRunDto,
  event: SuiteNotificationEvent,
): SuiteNotification {
  const failures = run.tests
    .filter((test) => test.verdict === SuiteTestVerdict.Failed || test.verdict === SuiteTestVerdict.Cancelled)
    .map((test) => ({
      title: test.title,
      job_id: test.job_id,
      job_url: test.job_url,
      step: test.failing_step ? `${test.failing_step.index}. ${test.failing_step.text}` : null,
      error: test.failing_step?.error ?? test.error,
    }));
  const head =
    event === 'suite.run.failed'
      ? `❌ Suite "${suite.name}" failed: ${run.failed} of ${run.total} tests failed (scheduled run ${run.id}).`
      : `✅ Suite "${suite.name}" passes again: ${run.passed} of ${run.total} tests passed (scheduled run ${run.id}).`;
  const lines = failures.map(
    (f) =>
      `• ${f.title}${f.step ? ` — step ${f.step}` : ''}${f.error ? `: ${f.error}` : ''} (job ${f.job_id})`,
  );
  return {
    text: [head, ...lines].join('\n'),
    event,
    suite: { id: suite.id, name: suite.name },
    run: {
      id: run.id,
      status: run.status,
      passed: run.passed,
      failed: run.failed,
      total: run.total,
      finished_at: run.finished_at,
    },
    failures,
  };
}
