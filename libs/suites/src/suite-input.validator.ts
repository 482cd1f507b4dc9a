import { CreateSuiteDto, SUITE_TESTS_MAX, SuiteTestDto, validateBody, validateItem } from '@suite/contracts';
import type { EgressPolicy, HostResolver } from '@suite/egress-policy';
import { issue, RunnerError, RunnerErrorCode, type ValidationIssue } from '@suite/errors';
import { checkWebhookUrl } from '@suite/push-delivery';
import { scheduleProblem } from './cron-schedule.js';
import type { StoredSuiteTest, SuiteData } from './suite.repository.js';

export interface SuiteInputValidatorDeps {
  /** The webhook policy of A2A push notifications (public-only, PUSH_ALLOWED_HOSTS). */
  webhookPolicy: EgressPolicy;
  resolve: HostResolver;
  /** SUITE_MIN_SCHEDULE_SECONDS: the shortest interval of a schedule. */
  minScheduleSeconds: number;
}

/**
 * The one check of a suite body (`POST` and `PUT /v1/suites`), run at the edge: the DTOs'
 * rules (`CreateSuiteDto`, each test a `SuiteTestDto`) and what needs the deployment (the
 * schedule's shortest interval, the webhook policy and its DNS answer), every problem in one 422.
 * `SuiteService` takes what it answers.
 */
export class SuiteInputValidator {
  constructor(private readonly deps: SuiteInputValidatorDeps) {}

  async validate(body: unknown): Promise<SuiteData> {
    const problems: ValidationIssue[] = [];
    // Every problem at once, the tests' included, even when the suite's own fields have some.
    const value = issuesOf(problems, () => validateBody(CreateSuiteDto, body).value);
    const rawTests = (body as { tests?: unknown } | null)?.tests;
    const tests: StoredSuiteTest[] = [];
    const at = new Map<StoredSuiteTest, number>();
    const items = Array.isArray(rawTests) && rawTests.length <= SUITE_TESTS_MAX ? rawTests : [];
    items.forEach((raw, i) => {
      const test = issuesOf(problems, () => validateItem(SuiteTestDto, raw, ['body', 'tests', i]).value);
      if (test) {
        const stored: StoredSuiteTest = {
          title: test.title,
          steps: test.steps,
          ...(test.start_url !== undefined ? { start_url: test.start_url } : {}),
          ...(test.tags?.length ? { tags: test.tags } : {}),
          ...(test.timeout_seconds !== undefined ? { timeout_seconds: test.timeout_seconds } : {}),
        };
        tests.push(stored);
        at.set(stored, i);
      }
    });
    // The checks below read what was sent, so they are reported with the DTO's own problems.
    const sent = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const text = (field: string) => (typeof sent[field] === 'string' ? sent[field] : null);
    const baseUrl = text('base_url');
    if (baseUrl !== null && !isHttpUrl(baseUrl)) {
      problems.push(issue.valueError(['body', 'base_url'], baseUrl, 'must be an absolute http or https URL'));
    }
    tests.forEach((test) => {
      const i = at.get(test)!;
      if (test.start_url === undefined || isHttpUrl(test.start_url)) return;
      if (/^[a-z][a-z0-9+.-]*:/i.test(test.start_url)) {
        problems.push(
          issue.valueError(['body', 'tests', i, 'start_url'], test.start_url, 'must be an http or https URL'),
        );
      } else if (baseUrl === null) {
        problems.push(
          issue.valueError(
            ['body', 'tests', i, 'start_url'],
            test.start_url,
            'is relative; give the suite a base_url, or an absolute URL',
          ),
        );
      }
    });
    const schedule = text('schedule')?.trim() || null;
    if (schedule) {
      const problem = scheduleProblem(schedule, this.deps.minScheduleSeconds);
      if (problem) problems.push(issue.valueError(['body', 'schedule'], sent.schedule, problem));
    }
    const webhook = text('webhook') || null;
    if (webhook) {
      const checked = await checkWebhookUrl(webhook, this.deps.webhookPolicy, this.deps.resolve, 'webhook');
      if (!checked.ok) problems.push(issue.valueError(['body', 'webhook'], webhook, checked.problem));
    }
    if (problems.length || !value) throw RunnerError.validation(problems);
    return { name: value.name, baseUrl, tags: value.tags ?? [], tests, schedule, webhook };
  }
}

/** The value `validate` returns, or undefined with its validation issues added to `problems`. */
function issuesOf<T>(problems: ValidationIssue[], validate: () => T): T | undefined {
  try {
    return validate();
  } catch (error) {
    if (!(error instanceof RunnerError) || error.code !== RunnerErrorCode.ValidationFailed) throw error;
    problems.push(...(error.details.issues ?? []));
    return undefined;
  }
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}
