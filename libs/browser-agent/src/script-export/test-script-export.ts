import type { RecordedAction } from '../recorded-action.js';
import { playwrightFile, playwrightLine } from './playwright-script.js';
import { puppeteerFile, puppeteerLine } from './puppeteer-script.js';
import { locatorOf, secretEnvName } from './script-values.js';

export type TestScriptFormat = 'playwright' | 'puppeteer';
export const TEST_SCRIPT_FORMATS: readonly TestScriptFormat[] = ['playwright', 'puppeteer'];

export interface TestScriptOptions {
  format: TestScriptFormat;
  /** Opened first unless the recorded run opened a page itself; the base of relative URLs. */
  initialUrl: string;
  /** The test's name in the script (the job's query, first line). */
  title: string;
  /** A comment line on top, e.g. which job the script came from. */
  origin?: string;
}

/** Why a list of recorded actions cannot become a script, or undefined when it can. */
export function exportBlocker(actions: readonly RecordedAction[]): string | undefined {
  for (const [i, action] of actions.entries()) {
    const step = action.step;
    if ('target' in step && step.target && step.action !== 'assertCount' && !locatorOf(action))
      return `step ${i + 1} (${step.action}) has no recorded element`;
  }
  return undefined;
}

/** A passed run's recorded actions as a runnable Playwright test or Puppeteer script. */
export function exportTestScript(actions: readonly RecordedAction[], options: TestScriptOptions): string {
  const body: string[] = [];
  const first = actions[0]?.step;
  if (first?.action !== 'navigate') body.push(`await page.goto(${JSON.stringify(options.initialUrl)});`);
  const writer = options.format === 'playwright' ? playwrightLine : puppeteerLine;
  // Values read from the page ("remember the order number as ORDER") for the steps that type them.
  if (actions.some((a) => a.step.action === 'readValue')) body.push('const values = {};');
  for (const action of actions.flatMap(eachElement)) {
    const line = writer(action, options.initialUrl);
    const comment = describeAction(action);
    body.push(`// ${comment}`, ...line.split('\n'));
  }
  const secrets = [...new Set(JSON.stringify(actions).match(/\{\{secret\.[^}]+\}\}/g) ?? [])].map((p) =>
    secretEnvName(p.slice(9, -2)),
  );
  const header = [
    ...(options.origin ? [`// ${options.origin.replace(/[\r\n\u2028\u2029]+/g, ' ')}`] : []),
    ...(secrets.length
      ? [`// Set these environment variables before running: ${[...new Set(secrets)].join(', ')}`]
      : []),
  ];
  return options.format === 'playwright'
    ? playwrightFile(header, options.title, body)
    : puppeteerFile(header, options.title, body);
}

/** A step on every match ("check all the checkboxes") as one action per element it acted on. */
function eachElement(action: RecordedAction): RecordedAction[] {
  const each = action.element?.each;
  if (!each || !('target' in action.step) || !action.step.target) return [action];
  const { all: _all, ...target } = action.step.target;
  return each.map((css) => ({
    step: { ...action.step, target } as RecordedAction['step'],
    element: { css },
  }));
}

/** A comment line per step: what it does and to which element. */
function describeAction(action: RecordedAction): string {
  const element = locatorOf(action);
  const what =
    element?.role && element.name
      ? `${element.role} "${element.name}"`
      : element?.text
        ? `"${element.text}"`
        : '';
  // Every JavaScript line terminator ends a // comment: none may reach it from the page's text.
  return `${action.step.action}${what ? ` ${what}` : ''}`.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, 160);
}

export { jsString, secretEnvName } from './script-values.js';
