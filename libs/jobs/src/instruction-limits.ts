import { instructionLimitProblem } from '@suite/browser-agent';
import { issue, RunnerError } from '@suite/errors';

/**
 * Refuses a job's query when it is over the interpreter's limits (steps, length of a step), for
 * every way a job is made (`/v1`, A2A, MCP, the instruction check): a 422 on `body.query` (or the
 * transport's own shape of it) naming the limit. Cutting the query into steps is linear in its
 * length; nothing is parsed here.
 */
export function assertInstructionLimits(query: string, loc: (string | number)[] = ['body', 'query']): void {
  const problem = instructionLimitProblem(query);
  if (problem) throw RunnerError.validation([issue.valueError(loc, query, problem)]);
}
