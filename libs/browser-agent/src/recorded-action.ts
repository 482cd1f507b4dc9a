import type { ElementLocator } from './element-description-script.js';
import type { StepBody } from './step-types.js';

/**
 * One step as it actually ran, for exporting the run as a script: the step's own fields (without
 * the element as the user or model named it) plus the element it acted on, described so another
 * tool can find it again. Secrets appear as `{{secret.NAME}}` placeholders, never as values.
 */
export interface RecordedAction {
  step: StepBody;
  element?: ElementLocator;
}
