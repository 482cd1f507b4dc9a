/** One test of a stored suite (`SuiteTestDto` of the runner): a `*.test.md` file minus secrets. */
export interface SuiteTest {
  title: string;
  steps: string[];
  start_url?: string;
  tags?: string[];
  timeout_seconds?: number;
}

/** The body of `POST /v1/suites` and `PUT /v1/suites/{id}`. */
export interface SuiteBody {
  name: string;
  tests: SuiteTest[];
  base_url?: string | null;
  tags?: string[];
  schedule?: string | null;
  webhook?: string | null;
}

/** A stored suite (`GET /v1/suites/{id}`). */
export interface SuiteRecord extends Required<Omit<SuiteBody, 'tags'>> {
  id: string;
  tags: string[];
  created_at: string;
  updated_at: string;
}

/** One run of a suite (`POST /v1/suites/{id}/runs`): a job per test, in the suite's order. */
export interface SuiteRunRecord {
  id: string;
  suite_id: string;
  status: 'running' | 'passed' | 'failed';
  total: number;
  tests: { title: string; job_id: string; job_status: string; verdict: string }[];
  created_at: string;
}
