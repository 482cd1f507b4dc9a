/** One plain-English browser test, read from a `*.test.md` file. */
export interface TestFile {
  /** The path as the user gave it (relative to the working directory), used in every message. */
  file: string;
  title: string;
  /** The start page as written: absolute, or relative to `--base-url`. */
  url?: string;
  tags: string[];
  /** Stop waiting after this long (ms); the runner's own job limit still applies. */
  timeoutMs?: number;
  model?: string;
  /** Secret name used in the steps as `{{secret.NAME}}` → the environment variable holding its value. */
  secrets: Record<string, string>;
  /** The line of each front matter key (`url` for `start_url` too), for messages naming it. */
  lines?: Partial<Record<'title' | 'url' | 'tags' | 'timeout' | 'model' | 'secrets', number>>;
  steps: TestStep[];
}

export interface TestStep {
  text: string;
  /** 1-based line of the step in its file (for annotations and errors); 0 when it has no file (a stored suite). */
  line: number;
}

/** A test file that cannot be read: names the file and the line, like a compiler. */
export class TestFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
    this.name = 'TestFileError';
  }
}
