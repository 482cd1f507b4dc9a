import type { AgentLog } from './agent-log.js';
import type { ElementLocator } from './element-description-script.js';
import type { Step, StepBody } from './step-types.js';

/**
 * One step as it actually ran, for exporting the run as a script: the step's own fields (without
 * the element as the user or model named it) plus the element it acted on, described so another
 * tool can find it again. Secrets appear as `{{secret.NAME}}` placeholders, never as values.
 */
export interface RecordedAction {
  step: StepBody;
  element?: ElementLocator;
}

/**
 * The step for an exported script. A value the log masks (typed into a secret-looking field)
 * becomes a `{{secret.NAME}}` placeholder named after the field, so the script reads it from the
 * environment.
 */
export function recordAction(
  step: Step,
  element: RecordedAction['element'],
  log?: Pick<AgentLog, 'redactText'>,
): RecordedAction {
  const body: Partial<Step> = { ...step };
  delete body.index;
  delete body.text;
  if (body.action === 'type' && body.value && log && log.redactText(body.value) !== body.value) {
    const name = (body.target?.name ?? 'secret').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    body.value = `{{secret.${(name || 'SECRET').toUpperCase()}}}`;
  }
  return { step: body as RecordedAction['step'], ...(element ? { element } : {}) };
}
