import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentLog, runInstructionTest } from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../../browser-agent/testing/browser-tab.js';
import {
  inOrder,
  type ScriptedLlmServer,
  type ScriptedReply,
  serveScriptedLlm,
} from '../testing/scripted-llm-server.js';
import { serveTestSite, type TestSite } from '../testing/test-pages.js';
import { runHybridTest } from './hybrid-test-runner.js';
import type { LlmRunLimits } from './llm-limits.js';
import { runLlmTest } from './llm-test-runner.js';
import { OpenAiProvider } from './openai-provider.js';

const PASSWORD = 'hunter2-Sesame!';
const FAST: Partial<LlmRunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 1500,
  assertionTimeoutMs: 800,
  jobTimeoutMs: 30_000,
  retryBaseDelayMs: 20,
};

const isPng = (image: Buffer | undefined) =>
  image !== undefined && image.subarray(1, 4).toString('latin1') === 'PNG';

/** Counts the pictures taken of `page` from now on (the failure screenshot is one `page.screenshot`). */
function countScreenshots(page: Page): { count: () => number; restore: () => void } {
  const original = page.screenshot.bind(page);
  let taken = 0;
  const counting = ((...args: Parameters<Page['screenshot']>) => {
    taken++;
    return original(...args);
  }) as Page['screenshot'];
  page.screenshot = counting;
  return { count: () => taken, restore: () => void (page.screenshot = original) };
}

describe('the failure screenshot is taken in one place for both engines (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: TestSite;
  let server: ScriptedLlmServer | undefined;
  let counter: ReturnType<typeof countScreenshots> | undefined;

  beforeAll(async () => {
    site = await serveTestSite(PASSWORD);
  });
  afterAll(async () => {
    await site?.close();
  });
  afterEach(async () => {
    counter?.restore();
    await server?.close();
    server = undefined;
  });

  /** What every run here shares: the page (its pictures counted from now on), fast limits, a picture on failure. */
  const common = () => {
    counter = countScreenshots(tab.page);
    return { page: tab.page, log: new AgentLog(), limits: FAST, failureScreenshot: true };
  };
  /** A scripted model that answers with `replies` in turn. */
  const scriptedModel = async (...replies: ScriptedReply[]) => {
    server = await serveScriptedLlm(inOrder(...replies));
    const provider = new OpenAiProvider({ apiKey: 'test-key', baseURL: server.openaiBaseUrl });
    return { provider, model: 'gpt-4.1-mini' };
  };
  const expectOneScreenshot = (result: { screenshot?: Buffer }) => {
    expect(isPng(result.screenshot)).toBe(true);
    expect(counter?.count()).toBe(1);
  };
  const done = (summary: string) => ({ toolCalls: [{ name: 'done', args: { passed: false, summary } }] });

  it('the interpreter: a failing step yields exactly one screenshot, and the outcome names the step', async () => {
    const result = await runInstructionTest({
      ...common(),
      query: `Open ${site.url}/login\nClick the Launch button\nThe page shows "Welcome"`,
    });
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      summary: result.summary,
      failingStep: { index: 2, text: 'Click the Launch button', status: 'failed' },
    });
    expectOneScreenshot(result);
  });

  it('the LLM agent: a run that fails yields exactly one screenshot', async () => {
    const model = await scriptedModel(
      { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
      done('The welcome page never showed.'),
    );
    const result = await runLlmTest({
      ...common(),
      ...model,
      query: 'Check the welcome message.',
      initialUrl: `${site.url}/login`,
    });
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      summary: result.summary,
      failingStep: { action: 'assertText', status: 'failed' },
    });
    expectOneScreenshot(result);
  });

  it('the hybrid engine: a step the model could not do yields exactly one screenshot', async () => {
    const model = await scriptedModel(done('There is no cat here.'));
    const result = await runHybridTest({
      ...common(),
      ...model,
      query: `Open ${site.url}/login\nGive the cat a treat`,
    });
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      failingStep: { index: 2, text: 'Give the cat a treat', status: 'failed', resolvedBy: 'model' },
    });
    expectOneScreenshot(result);
  });

  it('takes none when the run passes or the instructions were not understood', async () => {
    const shared = common();
    const passed = await runInstructionTest({
      ...shared,
      query: `Open ${site.url}/login\nThe page shows "Password"`,
    });
    expect(passed.outcome.kind).toBe('passed');
    const rejected = await runInstructionTest({
      ...shared,
      log: new AgentLog(),
      query: `Open ${site.url}/login\nfly to the moon`,
    });
    expect(rejected.outcome.kind).toBe('needs_input');
    expect([passed.screenshot, rejected.screenshot, counter?.count()]).toEqual([undefined, undefined, 0]);
  });
});
