import type { RecordedAction, RunOutcome, StepResult } from '@suite/browser-agent';
import { SecretValues } from '@suite/llm-agent';

/**
 * The actions of a passed run, for GET /v1/jobs/{id}/script, with every secret of the job's metadata
 * as its `{{secret.NAME}}` placeholder (a second line of defence: the agents record placeholders).
 * Null for a run that did not pass: a script of it would not repeat it.
 */
export function passedRunActions(
  outcome: RunOutcome,
  steps: readonly (StepResult & { recorded?: RecordedAction; recordedActions?: RecordedAction[] })[],
  secrets: Readonly<Record<string, string>>,
): RecordedAction[] | null {
  if (outcome.kind !== 'passed') return null;
  const values = new SecretValues(secrets);
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return values.redact(value);
    if (Array.isArray(value)) return value.map(redact);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
    return value;
  };
  // A step the model resolved (hybrid engine) may have taken several actions.
  return steps
    .filter((step) => step.status === 'passed')
    .flatMap((step) => step.recordedActions ?? (step.recorded ? [step.recorded] : []))
    .map((action) => redact(action) as RecordedAction);
}
