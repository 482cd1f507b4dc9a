import type { ElementLocator } from '../element-description-script.js';
import type { RecordedAction } from '../recorded-action.js';
import type { MatchMode, Target } from '../step-types.js';

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

/** `{{secret.NAME}}` as the environment variable the exported script reads instead. */
export function secretEnvName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return (/^[0-9]/.test(clean) ? `_${clean}` : clean || 'SECRET').toUpperCase();
}

/**
 * A JavaScript expression for a recorded string: a literal, or `process.env.X` where the run typed a
 * secret, so exported scripts never contain a secret's value.
 */
export function jsString(text: string): string {
  const parts = text.split(/(\{\{secret\.[^}]+\}\})/).filter((part) => part !== '');
  if (parts.length === 0) return '""';
  const exprs = parts.map((part) => {
    const secret = /^\{\{secret\.([^}]+)\}\}$/.exec(part);
    return secret ? `(process.env.${secretEnvName(secret[1] ?? '')} ?? '')` : JSON.stringify(part);
  });
  return exprs.join(' + ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A regular-expression literal for how the interpreter compares texts (case-insensitive but for equals). */
function textPattern(expected: string, mode: MatchMode): string {
  const e = escapeRegExp(expected.replace(/\s+/g, ' ').trim());
  switch (mode) {
    case 'equals':
      return `/^\\s*${e}\\s*$/`;
    case 'contains':
      return `/${e}/i`;
    case 'startsWith':
      return `/^\\s*${e}/i`;
    case 'endsWith':
      return `/${e}\\s*$/i`;
    case 'matches': {
      const literal = /^\/(.*)\/([a-z]*)$/s.exec(expected);
      return literal ? `/${literal[1]}/${literal[2]}` : `new RegExp(${JSON.stringify(expected)})`;
    }
  }
}

function urlPattern(expected: string, mode: MatchMode, initialUrl: string): string {
  if (mode === 'equals') {
    if (expected.startsWith('/')) {
      const path = escapeRegExp(expected.replace(/\/+$/, ''));
      return `/^[a-z]+:\\/\\/[^/]+${path}\\/?$/`;
    }
    try {
      const href = escapeRegExp(new URL(expected, initialUrl).href.replace(/\/+$/, ''));
      return `/^${href}\\/?$/`;
    } catch {
      return JSON.stringify(expected);
    }
  }
  return textPattern(expected, mode);
}

function absoluteUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** The element of a recorded action, or (for old records) the target as it was named. */
function locatorOf(action: RecordedAction): ElementLocator | undefined {
  if (action.element) return action.element;
  const target = (action.step as { target?: Target }).target;
  if (!target?.name || target.name.includes('data-agent-ref')) return undefined;
  return target.role ? { role: target.role, name: target.name, css: '' } : { text: target.name, css: '' };
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

function playwrightFile(header: string[], title: string, body: string[]): string {
  return [
    ...header,
    '// Run with: npx playwright test <this file>',
    "import { test, expect } from '@playwright/test';",
    '',
    '/** The element by role and accessible name (or its text), falling back to a CSS selector. */',
    'function find(page, { role, name, text, css }) {',
    '  let locator = role && name ? page.getByRole(role, { name, exact: true }) : text ? page.getByText(text, { exact: true }) : undefined;',
    '  if (css) locator = locator ? locator.or(page.locator(css)) : page.locator(css);',
    '  return locator.first();',
    '}',
    '',
    `test(${JSON.stringify(title)}, async ({ page }) => {`,
    ...body.map((line) => `  ${line}`),
    '});',
    '',
  ].join('\n');
}

/** The locator as a literal, keys in a fixed order (stored JSON may come back reordered). */
function loc(element: ElementLocator | undefined): string {
  if (!element) return JSON.stringify({ css: 'body' });
  const { role, name, text, css } = element;
  return JSON.stringify({ role, name, text, css });
}

function playwrightLine(action: RecordedAction, initialUrl: string): string {
  const step = action.step;
  const el = `find(page, ${loc(locatorOf(action))})`;
  const not = (negate: boolean) => (negate ? '.not' : '');
  switch (step.action) {
    case 'navigate':
      return `await page.goto(${JSON.stringify(absoluteUrl(step.url, initialUrl))});`;
    case 'goBack':
      return 'await page.goBack();';
    case 'goForward':
      return 'await page.goForward();';
    case 'reload':
      return 'await page.reload();';
    case 'click':
      if (step.button === 'right') return `await ${el}.click({ button: 'right' });`;
      return step.clickCount === 2 ? `await ${el}.dblclick();` : `await ${el}.click();`;
    case 'type':
      return action.element || step.target
        ? `await ${el}.fill(${jsString(step.value)});`
        : `await page.keyboard.type(${jsString(step.value)});`;
    case 'clear':
      return `await ${el}.clear();`;
    case 'press': {
      const keys = JSON.stringify(step.keys.join('+'));
      const press = step.target ? `await ${el}.press(${keys});` : `await page.keyboard.press(${keys});`;
      return step.repeat > 1 ? `for (let i = 0; i < ${step.repeat}; i++) ${press}` : press;
    }
    case 'select':
      return `await ${el}.selectOption({ label: ${jsString(step.option)} });`;
    case 'check':
    case 'uncheck':
      return `await ${el}.${step.action}();`;
    case 'hover':
      return `await ${el}.hover();`;
    case 'focus':
      return `await ${el}.focus();`;
    case 'scrollTo':
      return `await ${el}.scrollIntoViewIfNeeded();`;
    case 'scroll':
      return `await page.evaluate(${scrollExpression(step.direction, step.pixels)});`;
    case 'submit':
      return "await page.evaluate(() => document.querySelector('form')?.requestSubmit());";
    case 'wait':
      return `await page.waitForTimeout(${step.ms});`;
    case 'waitForText':
      return `await expect(page.getByText(${jsString(step.expected)}).first()).${step.state === 'visible' ? 'toBeVisible' : 'toBeHidden'}();`;
    case 'waitForElement':
      return `await expect(${el}).${step.state === 'visible' ? 'toBeVisible' : 'toBeHidden'}();`;
    case 'waitForLoad':
      return "await page.waitForLoadState('load');";
    case 'assertText':
      return `await expect(page.locator('body'))${not(step.negate)}.toContainText(${jsString(step.expected)}, { ignoreCase: true });`;
    case 'assertTitle':
      return `await expect(page)${not(step.negate)}.toHaveTitle(${textPattern(step.expected, step.mode)});`;
    case 'assertUrl':
      return `await expect(page)${not(step.negate)}.toHaveURL(${urlPattern(step.expected, step.mode, initialUrl)});`;
    case 'assertElementText':
      return `await expect(${el})${not(step.negate)}.toHaveText(${textPattern(step.expected, step.mode)});`;
    case 'assertValue':
      return `await expect(${el})${not(step.negate)}.toHaveValue(${textPattern(step.expected, step.mode)});`;
    case 'assertState': {
      const matcher: Record<string, string> = {
        visible: 'toBeVisible()',
        hidden: 'toBeHidden()',
        enabled: 'toBeEnabled()',
        disabled: 'toBeDisabled()',
        checked: 'toBeChecked()',
        unchecked: 'not.toBeChecked()',
        focused: 'toBeFocused()',
        empty: 'toBeEmpty()',
        editable: 'toBeEditable()',
        readonly: 'not.toBeEditable()',
      };
      return `await expect(${el}).${matcher[step.state] ?? 'toBeVisible()'};`;
    }
    case 'assertCount': {
      const all = step.target.role
        ? `page.getByRole(${JSON.stringify(step.target.role)}, { name: ${JSON.stringify(step.target.name)} })`
        : `page.getByText(${JSON.stringify(step.target.name)})`;
      const compare: Record<string, string> = {
        eq: 'toBe',
        gte: 'toBeGreaterThanOrEqual',
        lte: 'toBeLessThanOrEqual',
        gt: 'toBeGreaterThan',
        lt: 'toBeLessThan',
      };
      return step.comparison === 'eq'
        ? `await expect(${all}.filter({ visible: true })).toHaveCount(${step.count});`
        : `expect(await ${all}.filter({ visible: true }).count()).${compare[step.comparison]}(${step.count});`;
    }
  }
}

function scrollExpression(direction: 'up' | 'down' | 'top' | 'bottom', pixels: number | undefined): string {
  if (direction === 'top') return '() => window.scrollTo(0, 0)';
  if (direction === 'bottom') return '() => window.scrollTo(0, document.documentElement.scrollHeight)';
  const by = pixels ?? 'Math.round(window.innerHeight * 0.8)';
  return `() => window.scrollBy(0, ${direction === 'up' ? '-' : ''}${by})`;
}

const PUPPETEER_HELPERS = `const TIMEOUT = Number(process.env.STEP_TIMEOUT_MS ?? 10000);

/** The element by ARIA role and name (or its text), racing a CSS selector as the fallback. */
function find(page, { role, name, text, css }) {
  const tries = [];
  const q = (s) => JSON.stringify(s);
  if (role && name) tries.push(page.locator(\`::-p-aria([name=\${q(name)}][role=\${q(role === 'img' ? 'image' : role)}])\`));
  else if (text) tries.push(page.locator(\`::-p-text(\${q(text)})\`));
  if (css) tries.push(page.locator(css));
  return (tries.length > 1 ? Locator.race(tries) : tries[0]).setTimeout(TIMEOUT);
}

function matches(actual, mode, expected) {
  const a = String(actual ?? '').replace(/\\s+/g, ' ').trim();
  const e = String(expected).replace(/\\s+/g, ' ').trim();
  if (mode === 'equals') return a === e;
  if (mode === 'contains') return a.toLowerCase().includes(e.toLowerCase());
  if (mode === 'startsWith') return a.toLowerCase().startsWith(e.toLowerCase());
  if (mode === 'endsWith') return a.toLowerCase().endsWith(e.toLowerCase());
  return new RegExp(expected).test(String(actual));
}

/** Retries a check until it holds or TIMEOUT runs out, like an auto-waiting assertion. */
async function expectThat(check, message) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(\`assertion failed: \${message}\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function read(page, element, fn) {
  const handle = await find(page, element).setTimeout(1000).waitHandle();
  try {
    return await handle.evaluate(fn);
  } finally {
    await handle.dispose();
  }
}

const STATES = {
  visible: (el) => el.checkVisibility(),
  hidden: (el) => !el.checkVisibility(),
  enabled: (el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true',
  disabled: (el) => Boolean(el.disabled) || el.getAttribute('aria-disabled') === 'true',
  checked: (el) => Boolean(el.checked) || el.getAttribute('aria-checked') === 'true',
  unchecked: (el) => !el.checked && el.getAttribute('aria-checked') !== 'true',
  focused: (el) => el === document.activeElement,
  empty: (el) => ('value' in el ? el.value === '' : el.textContent.trim() === ''),
  editable: (el) => !el.disabled && !el.readOnly,
  readonly: (el) => Boolean(el.readOnly) || el.getAttribute('aria-readonly') === 'true',
};`;

function puppeteerFile(header: string[], title: string, body: string[]): string {
  return [
    ...header,
    '// Run with: node <this file>   (needs `npm install puppeteer`; PUPPETEER_EXECUTABLE_PATH picks a browser)',
    "import puppeteer, { Locator } from 'puppeteer';",
    '',
    PUPPETEER_HELPERS,
    '',
    `const TITLE = ${JSON.stringify(title)};`,
    'const browser = await puppeteer.launch({',
    '  headless: true,',
    '  ...(process.env.PUPPETEER_EXECUTABLE_PATH ? { executablePath: process.env.PUPPETEER_EXECUTABLE_PATH } : {}),',
    "  args: process.env.PUPPETEER_NO_SANDBOX ? ['--no-sandbox'] : [],",
    '});',
    'try {',
    '  const page = await browser.newPage();',
    '  page.setDefaultTimeout(TIMEOUT);',
    ...body.map((line) => `  ${line}`),
    '  console.log(`passed: ${TITLE}`);',
    '} catch (error) {',
    '  console.error(`failed: ${TITLE}\\n${error instanceof Error ? error.message : error}`);',
    '  process.exitCode = 1;',
    '} finally {',
    '  await browser.close();',
    '}',
    '',
  ].join('\n');
}

function puppeteerLine(action: RecordedAction, initialUrl: string): string {
  const step = action.step;
  const element = loc(locatorOf(action));
  const el = `find(page, ${element})`;
  const load = "{ waitUntil: 'load' }";
  const check = (expr: string, negate: boolean, message: string) =>
    `await expectThat(async () => ${negate ? `!(${expr})` : expr}, ${JSON.stringify(message)});`;
  switch (step.action) {
    case 'navigate':
      return `await page.goto(${JSON.stringify(absoluteUrl(step.url, initialUrl))}, ${load});`;
    case 'goBack':
      return `await page.goBack(${load});`;
    case 'goForward':
      return `await page.goForward(${load});`;
    case 'reload':
      return `await page.reload(${load});`;
    case 'click': {
      const options =
        step.button === 'right' ? "{ button: 'right' }" : step.clickCount === 2 ? '{ count: 2 }' : '';
      return `await Promise.all([page.waitForNavigation({ timeout: 1000 }).catch(() => undefined), ${el}.click(${options})]);`;
    }
    case 'type':
      return action.element || step.target
        ? `await ${el}.fill(${jsString(step.value)});`
        : `await page.keyboard.type(${jsString(step.value)});`;
    case 'clear':
      return `await ${el}.fill('');`;
    case 'press': {
      const keys = step.keys.map((k) => JSON.stringify(k));
      const focus = step.target ? `await (await ${el}.waitHandle()).focus();\n` : '';
      const down = keys.map((k) => `await page.keyboard.down(${k});`).join(' ');
      const up = [...keys]
        .reverse()
        .map((k) => `await page.keyboard.up(${k});`)
        .join(' ');
      const once =
        keys.length === 1
          ? `await Promise.all([page.waitForNavigation({ timeout: 1000 }).catch(() => undefined), page.keyboard.press(${keys[0]})]);`
          : `${down} ${up}`;
      return `${focus}${step.repeat > 1 ? `for (let i = 0; i < ${step.repeat}; i++) { ${once} }` : once}`;
    }
    case 'select':
      return [
        `{`,
        `  const select = await ${el}.waitHandle();`,
        `  const label = ${jsString(step.option)};`,
        `  const value = await select.evaluate((s, l) => [...s.options].find((o) => o.label.trim() === l || o.value === l)?.value, label);`,
        `  if (value === undefined) throw new Error(\`no option \${label}\`);`,
        `  await select.select(value);`,
        `}`,
      ].join('\n');
    case 'check':
    case 'uncheck':
      return `if ((await read(page, ${element}, STATES.checked)) !== ${step.action === 'check'}) await ${el}.click();`;
    case 'hover':
      return `await ${el}.hover();`;
    case 'focus':
      return `await (await ${el}.waitHandle()).focus();`;
    case 'scrollTo':
      return `await ${el}.scroll();`;
    case 'scroll':
      return `await page.evaluate(${scrollExpression(step.direction, step.pixels)});`;
    case 'submit':
      return "await Promise.all([page.waitForNavigation().catch(() => undefined), page.evaluate(() => document.querySelector('form')?.requestSubmit())]);";
    case 'wait':
      return `await new Promise((resolve) => setTimeout(resolve, ${step.ms}));`;
    case 'waitForText':
      return check(
        `matches(await page.evaluate(() => document.body.innerText), 'contains', ${jsString(step.expected)})`,
        step.state === 'hidden',
        `"${step.expected}" ${step.state === 'visible' ? 'appears' : 'disappears'}`,
      );
    case 'waitForElement':
      return check(`await read(page, ${element}, STATES.visible)`, step.state === 'hidden', step.action);
    case 'waitForLoad':
      return "await page.waitForFunction(() => document.readyState === 'complete');";
    case 'assertText':
      return check(
        `matches(await page.evaluate(() => document.body.innerText), 'contains', ${jsString(step.expected)})`,
        step.negate,
        `the page ${step.negate ? 'does not contain' : 'contains'} "${step.expected}"`,
      );
    case 'assertTitle':
      return check(
        `matches(await page.title(), ${JSON.stringify(step.mode)}, ${jsString(step.expected)})`,
        step.negate,
        `the title ${step.mode} "${step.expected}"`,
      );
    case 'assertUrl': {
      const pattern = urlPattern(step.expected, step.mode, initialUrl);
      const test = pattern.startsWith('"') ? `page.url() === ${pattern}` : `${pattern}.test(page.url())`;
      return check(test, step.negate, `the URL ${step.mode} "${step.expected}"`);
    }
    case 'assertElementText':
      return check(
        `matches(await read(page, ${element}, (e) => e.innerText ?? e.textContent), ${JSON.stringify(step.mode)}, ${jsString(step.expected)})`,
        step.negate,
        `the element's text ${step.mode} "${step.expected}"`,
      );
    case 'assertValue':
      return check(
        `matches(await read(page, ${element}, (e) => e.value), ${JSON.stringify(step.mode)}, ${jsString(step.expected)})`,
        step.negate,
        `the field's value ${step.mode} "${step.expected}"`,
      );
    case 'assertState':
      return check(
        step.state === 'hidden'
          ? `await read(page, ${element}, STATES.hidden).catch(() => true)`
          : `await read(page, ${element}, STATES[${JSON.stringify(step.state)}])`,
        false,
        `the element is ${step.state}`,
      );
    case 'assertCount': {
      const t = step.target;
      const selector = t.role
        ? `::-p-aria([name=${JSON.stringify(t.name)}][role=${JSON.stringify(t.role)}])`
        : `::-p-text(${JSON.stringify(t.name)})`;
      const op: Record<string, string> = { eq: '===', gte: '>=', lte: '<=', gt: '>', lt: '<' };
      return check(
        `(await page.$$(${JSON.stringify(selector)})).length ${op[step.comparison]} ${step.count}`,
        false,
        `${step.comparison} ${step.count} matches`,
      );
    }
  }
}
