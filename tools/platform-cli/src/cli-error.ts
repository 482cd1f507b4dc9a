/** A failure the user can fix: printed as one clear line, then the process exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit code for bad input on the command line (unknown option, missing directory, bad port). */
export const USAGE_EXIT_CODE = 2;
