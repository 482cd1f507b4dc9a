import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import type { RecordedAction } from '../recorded-action.js';
import { exportTestScript } from './test-script-export.js';

// Steps the widget rules make: a menu path, a sort order, a search that submits, a replacement.
const ACTIONS: RecordedAction[] = [
  {
    step: {
      action: 'click',
      target: { name: 'PDF' },
      clickCount: 1,
      button: 'left',
      menuPath: ['File', 'Export'],
    },
    element: { text: 'PDF', css: 'li.pdf' },
  },
  {
    step: {
      action: 'click',
      target: { name: 'Orders', role: 'columnheader' },
      clickCount: 1,
      button: 'left',
      sort: 'descending',
    },
    element: { role: 'columnheader', name: 'Orders', css: 'th:nth-child(2)' },
  },
  {
    step: { action: 'type', value: 'mug', target: { name: 'search', role: 'searchbox' }, submit: true },
    element: { role: 'searchbox', name: 'Search', css: '#q' },
  },
  { step: { action: 'type', value: 'Hi', find: 'Hello World' }, element: { css: '#editor' } },
];

const syntaxErrors = (script: string): number => {
  const file = ts.createSourceFile('x.mjs', script, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  return (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
};

describe('exporting widget steps', () => {
  for (const format of ['playwright', 'puppeteer'] as const) {
    it(`writes menu levels, the sort order, the Enter of a search and the replacement (${format})`, () => {
      const script = exportTestScript(ACTIONS, { format, initialUrl: 'http://x/', title: 't' });
      expect(syntaxErrors(script)).toBe(0);
      expect(script).toMatch(/(?:getByText|p-text)\(\\?"File/);
      expect(script.indexOf('Export')).toBeGreaterThan(script.indexOf('File'));
      expect(script).toContain("'aria-sort'");
      expect(script).toContain('"descending"');
      expect(script).toContain("page.keyboard.press('Enter')");
      expect(script).toContain('.replace("Hello World", "Hi")');
    });
  }
});
