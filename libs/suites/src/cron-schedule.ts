import { CronExpressionParser } from 'cron-parser';

/**
 * Why a cron pattern cannot be a suite's schedule, or undefined when it can: it must parse (5
 * fields, or 6 with seconds first) and never fire twice within `minSeconds` (checked over its
 * next ticks, which covers patterns like `0,1 * * * *`).
 */
export function scheduleProblem(pattern: string, minSeconds: number): string | undefined {
  const fields = pattern.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return 'must be a cron pattern of 5 fields (minute hour day month weekday), or 6 with seconds first';
  }
  let ticks: number[];
  try {
    const expression = CronExpressionParser.parse(pattern, { tz: 'UTC', currentDate: new Date(0) });
    ticks = Array.from({ length: 64 }, () => expression.next().getTime());
  } catch (error) {
    return `is not a valid cron pattern: ${(error as Error).message}`;
  }
  const shortest = Math.min(...ticks.slice(1).map((tick, i) => tick - ticks[i]!));
  if (shortest < minSeconds * 1000) {
    return `runs every ${shortest / 1000} s at times; the shortest interval allowed is ${minSeconds} s (SUITE_MIN_SCHEDULE_SECONDS)`;
  }
  return undefined;
}
