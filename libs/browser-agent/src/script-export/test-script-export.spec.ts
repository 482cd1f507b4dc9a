import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
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
    expect(script).toContain(
      'await expect(page).toHaveTitle(new RegExp("^\\\\s*Done \\\\(1\\\\/2\\\\)", "i"));',
    );
  });

  it('repeats a step on every match once per element it acted on', () => {
    const every: RecordedAction = {
      step: { action: 'check', target: { name: '', role: 'checkbox', all: true } },
      element: {
        css: 'li:nth-of-type(1) > input',
        each: ['li:nth-of-type(1) > input', 'li:nth-of-type(2) > input'],
      },
    };
    const playwright = exportTestScript([every], {
      format: 'playwright',
      initialUrl: 'http://x/',
      title: 't',
    });
    expect(playwright).toContain('find(page, {"css":"li:nth-of-type(1) > input"}).check()');
    expect(playwright).toContain('find(page, {"css":"li:nth-of-type(2) > input"}).check()');
    const puppeteer = exportTestScript([every], { format: 'puppeteer', initialUrl: 'http://x/', title: 't' });
    expect(puppeteer.match(/STATES\.checked/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps a value read from the page and types it, transformed', () => {
    const actions: RecordedAction[] = [
      { step: { action: 'readValue', label: 'Color', name: 'Color' } },
      {
        step: {
          action: 'type',
          value: '',
          valueFrom: 'Color',
          transforms: ['uppercase'],
          target: { name: 'Code' },
        },
        element: { role: 'textbox', name: 'Code', css: '#code' },
      },
    ];
    for (const format of ['playwright', 'puppeteer'] as const) {
      const script = exportTestScript(actions, { format, initialUrl: 'http://x/', title: 't' });
      expect(script).toContain('const values = {};');
      expect(script).toMatch(/values\["Color"\] = \(await page\.evaluate\(/);
      expect(script).toContain('.fill(values["Color"].toUpperCase())');
    }
  });

  it('refuses actions whose element was not recorded', () => {
    expect(exportBlocker(ACTIONS)).toBeUndefined();
    expect(exportBlocker([{ step: { action: 'hover', target: { name: '[data-agent-ref="e9"]' } } }])).toMatch(
      /step 1 \(hover\) has no recorded element/,
    );
  });

  // Expected values and element names come from a test's text and from the page under test.
  const HOSTILE = [
    "/a/;globalThis.pwned=require('child_process');//",
    '"+globalThis.pwned+"',
    '`${globalThis.pwned}`',
    '\u2028globalThis.pwned=1;//',
  ];

  /** Every identifier in the script, as a JavaScript parser reads it (and its syntax errors). */
  function parse(script: string): { identifiers: Set<string>; strings: string[]; errors: number } {
    const file = ts.createSourceFile('x.mjs', script, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const identifiers = new Set<string>();
    const strings: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) identifiers.add(node.text);
      if (ts.isStringLiteral(node)) strings.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(file);
    const errors = (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
    return { identifiers, strings, errors };
  }

  it.each(['playwright', 'puppeteer'] as const)(
    'keeps hostile expected values and element names inert in a %s script',
    (format) => {
      const actions: RecordedAction[] = HOSTILE.flatMap((value): RecordedAction[] => [
        { step: { action: 'assertTitle', mode: 'matches', expected: value, negate: false } },
        { step: { action: 'assertUrl', mode: 'matches', expected: value, negate: true } },
        { step: { action: 'assertUrl', mode: 'equals', expected: `/${value}`, negate: false } },
        {
          step: {
            action: 'assertElementText',
            target: { name: 'x' },
            mode: 'matches',
            expected: value,
            negate: false,
          },
          element: { role: 'heading', name: value, css: 'h1' },
        },
        {
          step: {
            action: 'assertValue',
            target: { name: 'x' },
            mode: 'contains',
            expected: value,
            negate: false,
          },
          element: { text: value, css: 'input' },
        },
      ]);
      const script = exportTestScript(actions, { format, initialUrl: 'http://x/', title: HOSTILE[0]! });
      const { identifiers, strings, errors } = parse(script);
      expect(errors).toBe(0);
      expect(identifiers.has('pwned')).toBe(false);
      expect(identifiers.has('require')).toBe(false);
      // The values are still there, as data: a pattern is a new RegExp of two strings.
      expect(strings).toContain("a/;globalThis.pwned=require('child_process');/");
      expect(script).toContain(`new RegExp("a/;globalThis.pwned=require('child_process');/", "")`);
    },
  );

  it('exports a pattern as the interpreter reads it: /source/flags, or other text ignoring case', () => {
    const script = exportTestScript(
      [
        { step: { action: 'assertTitle', mode: 'matches', expected: '/^Dash/m', negate: false } },
        { step: { action: 'assertTitle', mode: 'matches', expected: 'order #\\d+', negate: false } },
        { step: { action: 'assertTitle', mode: 'matches', expected: 'Price (USD', negate: false } },
      ],
      { format: 'puppeteer', initialUrl: 'http://x/', title: 't' },
    );
    expect(script).toContain('new RegExp("^Dash", "m")');
    expect(script).toContain('new RegExp("order #\\\\d+", "i")');
    expect(script).toContain('new RegExp("Price \\\\(USD", "i")');
  });
});
