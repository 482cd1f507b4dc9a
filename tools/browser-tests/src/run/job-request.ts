import { CliError, EXIT_USAGE } from '../cli/cli-error.js';
import type { CreateJobRequest } from '../runner/job-types.js';
import type { TestFile } from '../test-files/test-file.js';

export interface RequestContext {
  baseUrl?: string;
  /** Overrides the model of every test. */
  model?: string;
  env: NodeJS.ProcessEnv;
}

/** The start page of a test: its `url` against `--base-url`, or the base URL itself. */
export function startUrlOf(test: TestFile, baseUrl: string | undefined): string {
  if (test.url && /^[a-z][a-z0-9+.-]*:/i.test(test.url)) return test.url;
  if (!baseUrl)
    throw new CliError(
      `${test.file}: ${test.url ? `its url "${test.url}" is relative` : 'it has no start url'}; pass --base-url (or BROWSER_TESTS_BASE_URL), or give an absolute "url:" in its front matter`,
      EXIT_USAGE,
    );
  // "/login" stays under the base URL's path (https://host/preview-42/login), so a suite runs
  // unchanged on a deployment that lives below a path.
  const path = (test.url ?? '').replace(/^\/(?!\/)/, '');
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
}

/**
 * The `POST /v1/jobs` body of a test. Secrets travel only in `metadata.secrets` (the runner masks
 * them in every response, log and screenshot); the steps keep their `{{secret.NAME}}` placeholders.
 */
export function jobRequestOf(test: TestFile, context: RequestContext): CreateJobRequest {
  const secrets: Record<string, string> = {};
  for (const [name, variable] of Object.entries(test.secrets)) {
    const value = context.env[variable];
    if (value === undefined || value === '')
      throw new CliError(
        `${test.file}: secret ${name} comes from the environment variable ${variable}, which is not set`,
        EXIT_USAGE,
      );
    secrets[name] = value;
  }
  const model = context.model ?? test.model;
  return {
    query: test.steps.map((step, i) => `${i + 1}. ${step.text}`).join('\n'),
    initial_url: startUrlOf(test, context.baseUrl),
    ...(model ? { model } : {}),
    metadata: {
      title: test.title,
      source: 'browser-tests',
      file: test.file,
      ...(test.tags.length > 0 ? { tags: test.tags } : {}),
      ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
    },
  };
}

/** Every secret value the tests will send, to keep out of what this command prints and writes. */
export function secretValuesOf(tests: TestFile[], env: NodeJS.ProcessEnv): string[] {
  return tests.flatMap((test) =>
    Object.values(test.secrets)
      .map((variable) => env[variable])
      .filter((value): value is string => typeof value === 'string' && value !== ''),
  );
}
