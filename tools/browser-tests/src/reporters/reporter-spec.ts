import { CliError, EXIT_USAGE } from '../cli/cli-error.js';

export type ReporterSpec =
  { type: 'junit'; path: string } | { type: 'ctrf'; path: string } | { type: 'github' };

const DEFAULT_PATHS = { junit: 'junit.xml', ctrf: 'ctrf-report.json' } as const;

/** `junit=out.xml,ctrf=out.json,github` (the option may also be given several times). */
export function parseReporters(values: string[]): ReporterSpec[] {
  const specs: ReporterSpec[] = [];
  for (const part of values
    .flatMap((value) => value.split(','))
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...rest] = part.split('=');
    const path = rest.join('=').trim();
    if (name === 'junit' || name === 'ctrf') specs.push({ type: name, path: path || DEFAULT_PATHS[name] });
    else if (name === 'github') {
      if (path) throw new CliError(`--reporter github takes no file (got "${part}")`, EXIT_USAGE);
      specs.push({ type: 'github' });
    } else
      throw new CliError(
        `unknown reporter "${name}" in --reporter (known: junit=FILE, ctrf=FILE, github)`,
        EXIT_USAGE,
      );
  }
  return specs;
}
