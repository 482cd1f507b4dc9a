import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AgentLog, formatLogLine } from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../../browser-agent/testing/browser-tab.js';
import { type PetsSite, servePetsSite } from '../testing/pets-site.js';
import {
  inOrder,
  type Script,
  type ScriptedLlmServer,
  serveScriptedLlm,
} from '../testing/scripted-llm-server.js';
import { type HybridTestResult, runHybridTest } from './hybrid-test-runner.js';
import type { LlmRunLimits } from './llm-limits.js';
import { OpenAiProvider } from './openai-provider.js';
import type { StoredStepResolution } from './step-resolver.js';

const FAST: Partial<LlmRunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 2000,
  assertionTimeoutMs: 800,
  jobTimeoutMs: 60_000,
  retryBaseDelayMs: 20,
};

// Step 2 is not a phrasing the interpreter reads; step 4 names a button the page calls "Stroke the dog".
const QUERY = `1. Open $SITE/pets
2. Give the cat a treat
3. The page shows "The cat purrs"
4. Click the "Pet the dog" button
5. The page shows "The dog wags"`;

/** What a good model does for the cat step: click the cat's button (by its label of the moment). */
const feedCat =
  (label: string): Script =>
  (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', label) } }] });
const done = (summary: string, passed = true) => ({
  toolCalls: [{ name: 'done', args: { passed, summary } }],
});
const firstRun: Script = inOrder(
  feedCat('Feed the cat'),
  done('Fed the cat.'),
  (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Stroke the dog') } }] }),
  done('Stroked the dog.'),
);

describe('runHybridTest: the interpreter runs the test, the model fills only its gaps, once', () => {
  const tab = useBrowserTab();
  let site: PetsSite;
  let page: Page;
  const servers: ScriptedLlmServer[] = [];

  beforeAll(async () => {
    site = await servePetsSite();
  });
  afterAll(async () => {
    await site?.close();
  });
  beforeEach(() => {
    page = tab.page;
    site.look.cat = 'Feed the cat';
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function run(
    script: Script,
    options: { query?: string; stored?: StoredStepResolution[] } = {},
  ): Promise<{ result: HybridTestResult; server: ScriptedLlmServer; lines: string[] }> {
    const server = await serveScriptedLlm(script);
    servers.push(server);
    const lines: string[] = [];
    const log = new AgentLog({ sink: (_line, entry) => void lines.push(formatLogLine(entry)) });
    const result = await runHybridTest({
      page,
      query: (options.query ?? QUERY).replaceAll('$SITE', site.url),
      log,
      provider: new OpenAiProvider({ apiKey: 'test-key', baseURL: server.openaiBaseUrl }),
      model: 'gpt-4.1-mini',
      limits: FAST,
      ...(options.stored ? { stored: options.stored } : {}),
    });
    return { result, server, lines };
  }

  it('asks the model for exactly the unreadable and unresolvable steps, then replays them with zero model calls', async () => {
    const first = await run(firstRun);
    expect(first.result.verdict).toBe('succeeded');
    expect(first.server.requests).toHaveLength(4);
    // Each model conversation is about one step only.
    expect(first.server.requests[0]?.raw).toContain('Carry out step 2 only: \\"Give the cat a treat\\"');
    expect(first.server.requests[2]?.raw).toContain('Carry out step 4 only');
    expect(first.result.steps.map((s) => [s.index, s.action, s.status, s.resolvedBy])).toEqual([
      [1, 'navigate', 'passed', 'interpreted'],
      [2, 'click', 'passed', 'model'],
      [3, 'assertText', 'passed', 'interpreted'],
      [4, 'click', 'passed', 'model'],
      [5, 'assertText', 'passed', 'interpreted'],
    ]);
    expect(first.result.summary).toMatch(/Steps: 3 interpreted, 2 resolved by the model\.$/);
    expect(first.result.resolved.map((r) => [r.index, r.actions.map((a) => a.element?.name)])).toEqual([
      [2, ['Feed the cat']],
      [4, ['Stroke the dog']],
    ]);
    expect(first.lines.join('\n')).toMatch(/step 2 click passed \d+ ms \(resolved by the model\)/);

    const second = await run(() => ({ text: 'the second run must not ask the model' }), {
      stored: first.result.resolved,
    });
    expect(second.result.verdict).toBe('succeeded');
    expect(second.server.requests).toHaveLength(0);
    expect(second.result.usage.llmCalls).toBe(0);
    expect(second.result.steps.map((s) => s.resolvedBy)).toEqual([
      'interpreted',
      'replayed',
      'interpreted',
      'replayed',
      'interpreted',
    ]);
    expect(second.result.summary).toMatch(/Steps: 3 interpreted, 2 replayed without the model\.$/);
    expect(second.result.resolved).toEqual([]);
  }, 90_000);

  it('re-resolves a stored action once when the page changed, and logs it as healed', async () => {
    const first = await run(firstRun);
    expect(first.result.verdict).toBe('succeeded');

    site.look.cat = 'Treat the cat';
    const healed = await run(inOrder(feedCat('Treat the cat'), done('Treated the cat.')), {
      stored: first.result.resolved,
    });
    expect(healed.result.verdict).toBe('succeeded');
    expect(healed.server.requests).toHaveLength(2);
    expect(healed.server.requests[0]?.raw).toContain('a stored action no longer works');
    expect(healed.result.steps.map((s) => s.resolvedBy)).toEqual([
      'interpreted',
      'healed',
      'interpreted',
      'replayed',
      'interpreted',
    ]);
    expect(healed.lines.join('\n')).toMatch(
      /self-healing: stored action 1 of 1 of step 2 \(click the "Feed the cat" button\) no longer finds its target/,
    );
    expect(healed.result.resolved.map((r) => [r.index, r.actions[0]?.element?.name])).toEqual([
      [2, 'Treat the cat'],
    ]);

    // The healed resolution replaces the stored one: the next run needs no model again.
    const stored = [...first.result.resolved.filter((r) => r.index !== 2), ...healed.result.resolved];
    const again = await run(() => ({ text: 'no model call expected' }), { stored });
    expect(again.result.verdict).toBe('succeeded');
    expect(again.server.requests).toHaveLength(0);
  }, 120_000);

  it('does not pass a step the model claims it did without acting', async () => {
    const { result, server } = await run(inOrder(done('The cat has had its treat.')));
    expect(server.requests).toHaveLength(1);
    expect(result.verdict).toBe('failed');
    expect(result.steps[1]).toMatchObject({ index: 2, status: 'failed', resolvedBy: 'model' });
    expect(result.steps[1]?.error).toMatch(/took no action/);
    expect(result.steps.slice(2).map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(result.resolved).toEqual([]);
  }, 60_000);

  it('keeps an assertion that reads false a failure, without asking the model', async () => {
    const { result, server } = await run(() => ({ text: 'the model must not be asked' }), {
      query: `Open $SITE/pets\nClick "Stroke the dog"\nThe page shows "The cat hisses"`,
    });
    expect(server.requests).toHaveLength(0);
    expect(result.verdict).toBe('failed');
    expect(result.steps[2]).toMatchObject({ status: 'failed', resolvedBy: 'interpreted' });
  }, 60_000);

  it('lets the model only read the page for a check it cannot parse: acting is refused, an assertion must hold', async () => {
    const query = 'Open $SITE/pets\nMake sure that the kitty is purring';
    const acting = await run(
      inOrder(
        (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Feed the cat') } }] }),
        done('The cat purrs now.'),
      ),
      { query },
    );
    expect(acting.result.verdict).toBe('failed');
    expect(acting.server.requests[1]?.raw).toContain('is a check: verify it with assert_* tools');
    expect(await page.$eval('#status', (el) => el.textContent)).toBe('');

    const reading = await run(
      inOrder({ toolCalls: [{ name: 'assert_text', args: { text: 'The cat purrs' } }] }, done('It purrs.')),
      { query },
    );
    expect(reading.result.verdict).toBe('failed');
    expect(reading.result.steps[1]?.error).toMatch(/assertion failed/);
  }, 60_000);
});
