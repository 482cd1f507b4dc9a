/** Exit codes: 0 every test passed, 1 a test failed, 2 usage, authentication or connection errors. */
export const EXIT_PASSED = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** Ctrl-C, as shells report a process ended by SIGINT. */
export const EXIT_INTERRUPTED = 130;

/** An error the user can act on: printed as its message alone, then the process exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
