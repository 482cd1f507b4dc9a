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
  for (const action of actions) {
    const line = writer(action, options.initialUrl);
    const comment = describeAction(action);
    body.push(`// ${comment}`, ...line.split('\n'));
  }
  const secrets = [...new Set(JSON.stringify(actions).match(/\{\{secret\.[^}]+\}\}/g) ?? [])].map((p) =>
    secretEnvName(p.slice(9, -2)),
  );
  const header = [
    ...(options.origin ? [`// ${options.origin}`] : []),
    ...(secrets.length
      ? [`// Set these environment variables before running: ${[...new Set(secrets)].join(', ')}`]
      : []),
  ];
  return options.format === 'playwright'
    ? playwrightFile(header, options.title, body)
    : puppeteerFile(header, options.title, body);
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
  return `${action.step.action}${what ? ` ${what}` : ''}`.replace(/[\r\n]+/g, ' ').slice(0, 160);
}

export { jsString, secretEnvName } from './script-values.js';
