import { describe, expect, it } from '@jest/globals';
import type { RecordedAction } from '../recorded-action.js';
import { exportBlocker, exportTestScript, jsString, secretEnvName } from './test-script-export.js';

const ACTIONS: RecordedAction[] = [
  {
    step: { action: 'type', value: 'ada@example.com', target: { name: 'Email', role: 'textbox' } },
    element: { role: 'textbox', name: 'Email', css: '#email' },
  },
  {
    step: { action: 'type', value: '{{secret.api-key}}', target: { name: '[data-agent-ref="e3"]' } },
    element: { css: 'form > input:nth-of-type(2)' },
  },
  {
    step: { action: 'click', target: { name: 'Go' }, clickCount: 1, button: 'left' },
    element: { text: 'Go', css: 'span.go' },
  },
  { step: { action: 'assertTitle', mode: 'startsWith', expected: 'Done (1/2)', negate: false } },
];

describe('exportTestScript', () => {
  it('writes secrets as environment variables, never as values', () => {
    expect(secretEnvName('api-key')).toBe('API_KEY');
    expect(jsString('Bearer {{secret.token}}!')).toBe(`"Bearer " + (process.env.TOKEN ?? '') + "!"`);
    const script = exportTestScript(ACTIONS, { format: 'puppeteer', initialUrl: 'http://x/', title: 't' });
    expect(script).toContain("(process.env.API_KEY ?? '')");
    expect(script).toContain('// Set these environment variables before running: API_KEY');
    expect(script).not.toContain('{{secret.');
  });

  it('opens the start page first and finds elements by role and name, by text, then by CSS', () => {
    const script = exportTestScript(ACTIONS, { format: 'playwright', initialUrl: 'http://x/', title: 't' });
    expect(script).toContain('await page.goto("http://x/");');
    expect(script).toContain(
      'find(page, {"role":"textbox","name":"Email","css":"#email"}).fill("ada@example.com")',
    );
    expect(script).toContain('find(page, {"text":"Go","css":"span.go"}).click()');
    expect(script).toContain('await expect(page).toHaveTitle(/^\\s*Done \\(1\\/2\\)/i);');
  });

  it('refuses actions whose element was not recorded', () => {
    expect(exportBlocker(ACTIONS)).toBeUndefined();
    expect(exportBlocker([{ step: { action: 'hover', target: { name: '[data-agent-ref="e9"]' } } }])).toMatch(
      /step 1 \(hover\) has no recorded element/,
    );
  });
});
