import type { RecordedAction } from '../recorded-action.js';
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
import { playwrightTableLine } from './table-script-lines.js';

/** A `@playwright/test` spec: auto-waiting locators and `expect` matchers. */
export function playwrightFile(header: string[], title: string, body: string[]): string {
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

export function playwrightLine(action: RecordedAction, initialUrl: string): string {
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
    case 'click': {
      // "Open File > Export > PDF": each menu level first.
      const path = (step.menuPath ?? []).map(
        (name) => `await page.getByText(${jsString(name)}, { exact: true }).first().click(); `,
      );
      if (step.sort)
        return `for (let i = 0; i < 3 && (await ${el}.getAttribute('aria-sort')) !== ${jsString(step.sort)}; i++) await ${el}.click();`;
      if (step.button === 'right') return `${path.join('')}await ${el}.click({ button: 'right' });`;
      return `${path.join('')}${step.clickCount === 2 ? `await ${el}.dblclick();` : `await ${el}.click();`}`;
    }
    case 'type': {
      if (step.find !== undefined)
        return `await ${el}.fill((await ${el}.evaluate((e) => ('value' in e ? e.value : e.innerText))).replace(${jsString(step.find)}, ${jsString(step.value)}));`;
      const typed =
        action.element || step.target
          ? `await ${el}.fill(${typedText(step)});`
          : `await page.keyboard.type(${typedText(step)});`;
      return step.submit ? `${typed} await page.keyboard.press('Enter');` : typed;
    }
    case 'readValue':
      return step.label !== undefined
        ? keepValue(step, `await page.evaluate(${TABLE_VALUE_SOURCE}, ${jsString(step.label)})`)
        : keepValue(
            step,
            `await ${el}.evaluate(${SHOWN_VALUE_SOURCE}, ${jsString(step.target?.name ?? '')})`,
          );
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
    case 'drag':
      return step.to
        ? `await ${el}.dragTo(page.getByText(${jsString(step.to.name)}, { exact: true }).first());`
        : `await ${el}.dragTo(${el}.locator('xpath=..').locator(':scope > *').nth(${(step.toPosition ?? 1) > 0 ? (step.toPosition ?? 1) - 1 : step.toPosition}));`;
    case 'upload':
      return `await ${step.target ? el : "page.locator('input[type=file]')"}.setInputFiles(${jsString(step.fileName)}); // a file of that name next to the script`;
    case 'resize':
      return [
        `{`,
        `  const box = await ${el}.boundingBox();`,
        `  await page.mouse.move(box.x + box.width - 3, box.y + box.height - 3);`,
        `  await page.mouse.down();`,
        `  await page.mouse.move(box.x + box.width - 3 + ${resizeDelta(step).dx}, box.y + box.height - 3 + ${resizeDelta(step).dy}, { steps: 10 });`,
        `  await page.mouse.up();`,
        `}`,
      ].join('\n');
    case 'hover':
      return `await ${el}.hover();`;
    case 'focus':
      return `await ${el}.focus();`;
    case 'scrollTo':
      return `await ${el}.scrollIntoViewIfNeeded();`;
    case 'scroll':
      return step.target
        ? `await ${el}.evaluate(${elementScrollExpression(step.direction, step.pixels)});`
        : `await page.evaluate(${scrollExpression(step.direction, step.pixels)});`;
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
        expanded: "toHaveAttribute('aria-expanded', 'true')",
        collapsed: "toHaveAttribute('aria-expanded', 'false')",
        bold: "toHaveCSS('font-weight', /^(?:[6-9]00|bold)$/)",
        italic: "toHaveCSS('font-style', 'italic')",
      };
      return `await expect(${el}).${matcher[step.state] ?? 'toBeVisible()'};`;
    }
    case 'assertTable':
      return playwrightTableLine(step);
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
