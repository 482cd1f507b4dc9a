import type { RecordedAction } from '../recorded-action.js';
import type { MatchMode } from '../step-types.js';
import {
  absoluteUrl,
  jsString,
  keepValue,
  loc,
  locatorOf,
  resizeDelta,
  elementScrollExpression,
  scrollExpression,
  SHOWN_VALUE_SOURCE,
  TABLE_VALUE_SOURCE,
  textPattern,
  typedText,
  urlPattern,
} from './script-values.js';
import { puppeteerTableLine } from './table-script-lines.js';

/** The expected value of a comparison: a RegExp built from data for "matches", else a string. */
function expectedValue(expected: string, mode: MatchMode): string {
  return mode === 'matches' ? textPattern(expected, mode) : jsString(expected);
}

/** A standalone Puppeteer ESM script: `Locator.race` lookups and retrying checks; exits 1 on a failed step. */
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

/** \`expected\` is a RegExp for "matches", else text. */
function matches(actual, mode, expected) {
  if (expected instanceof RegExp) return expected.test(String(actual ?? ''));
  const a = String(actual ?? '').replace(/\\s+/g, ' ').trim();
  const e = String(expected).replace(/\\s+/g, ' ').trim();
  if (mode === 'equals') return a === e;
  if (mode === 'contains') return a.toLowerCase().includes(e.toLowerCase());
  if (mode === 'startsWith') return a.toLowerCase().startsWith(e.toLowerCase());
  if (mode === 'endsWith') return a.toLowerCase().endsWith(e.toLowerCase());
  return false;
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
  expanded: (el) => el.closest('[aria-expanded]')?.getAttribute('aria-expanded') === 'true' || Boolean(el.closest('details')?.open),
  collapsed: (el) => el.closest('[aria-expanded]')?.getAttribute('aria-expanded') === 'false' || el.closest('details')?.open === false,
  bold: (el) => Number(getComputedStyle(el).fontWeight) >= 600 || Boolean(el.closest('b, strong')),
  italic: (el) => getComputedStyle(el).fontStyle === 'italic' || Boolean(el.closest('i, em')),
};`;

export function puppeteerFile(header: string[], title: string, body: string[]): string {
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

export function puppeteerLine(action: RecordedAction, initialUrl: string): string {
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
      // "Open File > Export > PDF": each menu level first.
      const path = (step.menuPath ?? []).map(
        (name) => `await page.locator(${jsString(`::-p-text(${JSON.stringify(name)})`)}).click(); `,
      );
      if (step.sort)
        return `for (let i = 0; i < 3 && (await read(page, ${element}, (e) => e.getAttribute('aria-sort'))) !== ${jsString(step.sort)}; i++) await ${el}.click();`;
      return `${path.join('')}await Promise.all([page.waitForNavigation({ timeout: 1000 }).catch(() => undefined), ${el}.click(${options})]);`;
    }
    case 'type': {
      if (step.find !== undefined)
        return `await ${el}.fill((await read(page, ${element}, (e) => ('value' in e ? e.value : e.innerText))).replace(${jsString(step.find)}, ${jsString(step.value)}));`;
      const typed =
        action.element || step.target
          ? `await ${el}.fill(${typedText(step)});`
          : `await page.keyboard.type(${typedText(step)});`;
      return step.submit ? `${typed} await page.keyboard.press('Enter');` : typed;
    }
    case 'readValue':
      return step.label !== undefined
        ? keepValue(step, `await page.evaluate(${TABLE_VALUE_SOURCE}, ${jsString(step.label)})`)
        : [
            '{',
            `  const handle = await ${el}.waitHandle();`,
            `  ${keepValue(step, `await handle.evaluate(${SHOWN_VALUE_SOURCE}, ${jsString(step.target?.name ?? '')})`)}`,
            '  await handle.dispose();',
            '}',
          ].join('\n');
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
    case 'drag': {
      const place = step.to
        ? `await page.locator(${jsString(`::-p-text(${JSON.stringify(step.to.name)})`)}).waitHandle()`
        : `await (await ${el}.waitHandle()).evaluateHandle((e) => [...e.parentElement.children].at(${(step.toPosition ?? 1) > 0 ? (step.toPosition ?? 1) - 1 : step.toPosition}))`;
      return [
        `{`,
        `  const from = await (await ${el}.waitHandle()).boundingBox();`,
        `  const to = await (${place}).boundingBox();`,
        `  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);`,
        `  await page.mouse.down();`,
        `  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });`,
        `  await page.mouse.up();`,
        `}`,
      ].join('\n');
    }
    case 'upload':
      return `await (${step.target ? `await ${el}.waitHandle()` : `await page.waitForSelector('input[type=file]')`}).uploadFile(${jsString(step.fileName)}); // a file of that name next to the script`;
    case 'resize':
      return [
        `{`,
        `  const box = await (await ${el}.waitHandle()).boundingBox();`,
        `  await page.mouse.move(box.x + box.width - 3, box.y + box.height - 3);`,
        `  await page.mouse.down();`,
        `  await page.mouse.move(box.x + box.width - 3 + ${resizeDelta(step).dx}, box.y + box.height - 3 + ${resizeDelta(step).dy}, { steps: 10 });`,
        `  await page.mouse.up();`,
        `}`,
      ].join('\n');
    case 'hover':
      return `await ${el}.hover();`;
    case 'focus':
      return `await (await ${el}.waitHandle()).focus();`;
    case 'scrollTo':
      return `await ${el}.scroll();`;
    case 'scroll':
      return step.target
        ? `await (await ${el}.waitHandle()).evaluate(${elementScrollExpression(step.direction, step.pixels)});`
        : `await page.evaluate(${scrollExpression(step.direction, step.pixels)});`;
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
        `matches(await page.title(), ${JSON.stringify(step.mode)}, ${expectedValue(step.expected, step.mode)})`,
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
        `matches(await read(page, ${element}, (e) => e.innerText ?? e.textContent), ${JSON.stringify(step.mode)}, ${expectedValue(step.expected, step.mode)})`,
        step.negate,
        `the element's text ${step.mode} "${step.expected}"`,
      );
    case 'assertValue':
      return check(
        `matches(await read(page, ${element}, (e) => e.value), ${JSON.stringify(step.mode)}, ${expectedValue(step.expected, step.mode)})`,
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
    case 'assertTable':
      return puppeteerTableLine(step);
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
