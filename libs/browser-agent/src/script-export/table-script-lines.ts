import type { AssertTableStep } from '../step-types.js';

const DATA_ROWS =
  'table tbody tr:visible:not(:has(td[colspan]:only-child)), [role=grid] [role=row]:has([role=gridcell]):visible';

/** A table assertion in a Playwright script: data rows as the interpreter counts them, where a selector can say it. */
export function playwrightTableLine(
  step: Omit<AssertTableStep, 'index' | 'text'> & { text?: string },
): string {
  const rows = `page.locator(${JSON.stringify(DATA_ROWS)})`;
  const check = step.check;
  const compare: Record<string, string> = {
    gte: 'toBeGreaterThanOrEqual',
    lte: 'toBeLessThanOrEqual',
    gt: 'toBeGreaterThan',
    lt: 'toBeLessThan',
  };
  switch (check.kind) {
    case 'rowCount':
      return check.comparison === 'eq'
        ? `await expect(${rows}).toHaveCount(${check.count});`
        : `expect(await ${rows}.count()).${compare[check.comparison]}(${check.count});`;
    case 'empty':
      return `await expect(${rows})${check.negate ? '.not' : ''}.toHaveCount(0);`;
    case 'shows':
      return check.values
        .map(
          (value) =>
            `await expect(${rows}.filter({ hasText: ${JSON.stringify(value)} }))${check.negate ? '' : '.not'}.toHaveCount(0);`,
        )
        .join('\n');
    case 'row':
      return `await expect(${rows}.${check.row === -1 ? 'last()' : `nth(${check.row - 1})`})${check.negate ? '.not' : ''}.toContainText(${JSON.stringify(check.expected)});`;
    default:
      return `// ${step.text ?? 'a table check'} (checked by the interpreter; no Playwright matcher says this)`;
  }
}

/** A table assertion in a Puppeteer script: the row count, where a selector can say it. */
export function puppeteerTableLine(
  step: Omit<AssertTableStep, 'index' | 'text'> & { text?: string },
): string {
  const check = step.check;
  if (check.kind !== 'rowCount') return `// ${step.text ?? 'a table check'} (checked by the interpreter)`;
  const op: Record<string, string> = { eq: '===', gte: '>=', lte: '<=', gt: '>', lt: '<' };
  const selector = 'table tbody tr, [role=grid] [role=row]:has([role=gridcell])';
  return `await expectThat(async () => (await page.$$eval(${JSON.stringify(selector)}, (rows) => rows.filter((row) => row.checkVisibility() && !row.querySelector('td[colspan]:only-child')).length)) ${op[check.comparison]} ${check.count}, ${JSON.stringify(`${check.comparison} ${check.count} rows`)});`;
}
