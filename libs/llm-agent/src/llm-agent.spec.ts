import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AgentLog, type AgentLogEntry } from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../../browser-agent/testing/browser-tab.js';
import {
  inOrder,
  type Script,
  type ScriptedLlmServer,
  serveScriptedLlm,
} from '../testing/scripted-llm-server.js';
import { serveTestSite, type TestSite } from '../testing/test-pages.js';
import { AnthropicProvider } from './anthropic-provider.js';
import type { LlmRunLimits } from './llm-limits.js';
import type { LlmProvider } from './llm-provider.js';
import { type LlmTestResult, runLlmTest } from './llm-test-runner.js';
import { replayLlmScript } from './script-replay.js';
import { KNOWN_PRICES } from './llm-model-registry.js';
import { OpenAiProvider } from './openai-provider.js';

const PASSWORD = 'hunter2-Sesame!';
const FAST: Partial<LlmRunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 2000,
  assertionTimeoutMs: 800,
  jobTimeoutMs: 30_000,
  retryBaseDelayMs: 20,
};

/** The login flow a good model would script: fill, sign in, assert, done. */
const signIn: Script = inOrder(
  (t) => ({
    toolCalls: [
      { name: 'type', args: { ref: t.ref('textbox', 'Email'), text: 'ada@example.com' } },
      { name: 'type', args: { ref: t.ref('textbox', 'Password'), text: '{{secret.password}}' } },
    ],
  }),
  (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign in') } }] }),
  { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
  { toolCalls: [{ name: 'done', args: { passed: true, summary: 'Signed in and saw the welcome page.' } }] },
);

describe('runLlmTest (scripted provider over HTTP, real Chromium)', () => {
  const tab = useBrowserTab();
  let site: TestSite;
  let page: Page;
  const servers: ScriptedLlmServer[] = [];

  beforeAll(async () => {
    site = await serveTestSite(PASSWORD);
  });
  afterAll(async () => {
    await site?.close();
  });
  beforeEach(() => {
    page = tab.page;
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function run(
    script: Script,
    options: {
      api?: 'openai' | 'anthropic';
      path?: string;
      limits?: Partial<LlmRunLimits>;
      secrets?: Record<string, string>;
      query?: string;
      model?: string;
      screenshot?: boolean;
      signal?: AbortSignal;
      onEntry?: (entry: AgentLogEntry) => void;
    } = {},
  ): Promise<{ result: LlmTestResult; log: AgentLog; lines: string[]; server: ScriptedLlmServer }> {
    const server = await serveScriptedLlm(script);
    servers.push(server);
    const provider: LlmProvider =
      options.api === 'anthropic'
        ? new AnthropicProvider({ apiKey: 'test-key', baseURL: server.anthropicBaseUrl })
        : new OpenAiProvider({ apiKey: 'test-key', baseURL: server.openaiBaseUrl });
    const lines: string[] = [];
    const log = new AgentLog({
      sink: (line, entry) => {
        lines.push(line);
        options.onEntry?.(entry);
      },
    });
    const model = options.model ?? (options.api === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4.1-mini');
    const pricing = KNOWN_PRICES[model];
    const result = await runLlmTest({
      page,
      query: options.query ?? 'Sign in as ada@example.com with the password and check the welcome message.',
      initialUrl: `${site.url}${options.path ?? '/login'}`,
      log,
      provider,
      model,
      ...(pricing ? { pricing } : {}),
      limits: { ...FAST, ...options.limits },
      secrets: options.secrets ?? { password: PASSWORD },
      ...(options.screenshot ? { screenshot: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { result, log, lines, server };
  }

  it('passes a sign-in test driven over the OpenAI chat-completions API', async () => {
    const { result, server } = await run(signIn);
    expect(result.summary).toBe('Signed in and saw the welcome page (1 assertion held).');
    expect(result.verdict).toBe('succeeded');
    expect(result.endedBy).toBe('done');
    expect(result.assertions).toEqual({ total: 1, passed: 1 });
    expect(result.steps.map((s) => [s.action, s.status])).toEqual([
      ['type', 'passed'],
      ['type', 'passed'],
      ['click', 'passed'],
      ['assertText', 'passed'],
    ]);
    expect(page.url()).toBe(`${site.url}/welcome`);
    const first = server.requests[0]?.body as {
      temperature?: number;
      tools?: unknown[];
      tool_choice?: unknown;
    };
    expect(first.temperature).toBe(0);
    expect(first.tools).toHaveLength(17);
    expect(server.requests[0]?.raw).toContain('[e');
  });

  it('passes the same test over the Anthropic messages API and reports tool results as tool_result blocks', async () => {
    const { result, server } = await run(signIn, { api: 'anthropic' });
    expect(result.verdict).toBe('succeeded');
    const second = server.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    const lastUser = second.messages[second.messages.length - 1];
    expect(JSON.stringify(lastUser?.content)).toContain('"type":"tool_result"');
    expect(JSON.stringify(lastUser?.content)).toContain(
      'ok: typed \\"ada@example.com\\" into the textbox \\"Email\\" [e',
    );
  });

  it('fails when an assertion fails, even though the model then says the test passed', async () => {
    const { result, lines } = await run(
      inOrder(
        { toolCalls: [{ name: 'assert_text', args: { text: 'Welcome back, Ada' } }] },
        { toolCalls: [{ name: 'done', args: { passed: true, summary: 'All good' } }] },
      ),
    );
    expect(result.verdict).toBe('failed');
    expect(result.summary).toMatch(
      /^The agent said the test passed, but 1 assertion failed: expected the page to contain "Welcome back, Ada" but it is not present.*Agent's summary: All good\.$/,
    );
    expect(result.assertions).toEqual({ total: 1, passed: 0 });
    expect(lines.join('')).toContain('"outcome":"failed"');
  });

  it('fails a model that says done(passed: true) without asserting anything', async () => {
    const { result } = await run(
      inOrder((t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign in') } }] }), {
        toolCalls: [{ name: 'done', args: { passed: true, summary: 'Looks fine to me.' } }],
      }),
    );
    expect(result.verdict).toBe('failed');
    expect(result.summary).toBe(
      "The agent said the test passed but made no assertion, so nothing was verified. Agent's summary: Looks fine to me.",
    );
  });

  it('stops a model that never finishes at the step limit and keeps old observations out of the prompt', async () => {
    const { result, server } = await run(
      (t) => ({ toolCalls: [{ name: 'scroll', args: { direction: t.index % 2 === 0 ? 'down' : 'up' } }] }),
      { limits: { maxSteps: 4, keepObservations: 2 } },
    );
    expect(result.verdict).toBe('failed');
    expect(result.endedBy).toBe('step limit');
    expect(result.summary).toBe('The agent did not finish within 4 steps (step limit of 4).');
    expect(server.requests).toHaveLength(4);
    const last = server.requests[3]?.raw ?? '';
    expect(last.split('Elements (use the [ref] in tool calls)').length - 1).toBe(2);
    expect(last).toContain('earlier observation omitted');
  });

  it('stops a model that repeats the same action on the same page', async () => {
    const { result } = await run((t) => ({
      toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign in') } }],
    }));
    expect(result.verdict).toBe('failed');
    expect(result.endedBy).toBe('repeated action');
    expect(result.summary).toMatch(
      /^The agent repeated the same action \(click \{"ref":"e\d+"\}\) 4 times in a row on an unchanged page \(limit 3\)\.$/,
    );
    // The first click changed the page (an error appeared); the next three did not.
    expect(result.steps).toHaveLength(4);
  });

  it('waits as Retry-After asks after a 429, then carries on', async () => {
    const started = Date.now();
    const { result, lines, server } = await run((t) =>
      t.index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : signIn({ ...t, index: t.index - 1 }),
    );
    expect(result.verdict).toBe('succeeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server.requests).toHaveLength(5);
    expect(lines.join('')).toContain(
      'agent step 1: openai rate-limited the request (HTTP 429); retrying in 1.0 s (as Retry-After asked) (retry 1 of 3)',
    );
  });

  it('gives up with a clear reason when the provider keeps failing with 5xx', async () => {
    const { result, server, log } = await run(() => ({ status: 503, message: 'upstream overloaded' }), {
      limits: { maxRetries: 2 },
    });
    expect(server.requests).toHaveLength(3);
    expect(result.verdict).toBe('failed');
    expect(result.endedBy).toBe('provider error');
    expect(result.summary).toMatch(
      /^The model provider failed after 3 attempts: openai failed with HTTP 503: .*upstream overloaded/,
    );
    expect(log.entries.filter((e) => e.level === 'warn' && /retrying in/.test(e.message))).toHaveLength(2);
  });

  it('ends the job when the model does not answer within the LLM call timeout', async () => {
    const { result, server } = await run(
      () => ({
        delayMs: 2000,
        reply: { toolCalls: [{ name: 'done', args: { passed: false, summary: 'x' } }] },
      }),
      { api: 'anthropic', limits: { llmCallTimeoutMs: 300, maxRetries: 1 } },
    );
    expect(server.requests).toHaveLength(2);
    expect(result.endedBy).toBe('llm call timeout');
    expect(result.summary).toBe(
      'The model provider failed after 2 attempts: anthropic did not answer within 300 ms (LLM call timeout).',
    );
  });

  it('answers malformed arguments and unknown tools with an error the model can recover from', async () => {
    const { result, server } = await run((t) => {
      if (t.index === 0) return { toolCalls: [{ name: 'click', rawArguments: '{"ref": "e1' }] };
      if (t.index === 1) return { toolCalls: [{ name: 'teleport', args: { to: 'welcome' } }] };
      return signIn({ ...t, index: t.index - 2 });
    });
    expect(result.verdict).toBe('succeeded');
    const turn1 = JSON.stringify(server.requests[1]?.body);
    expect(turn1).toContain('error: the arguments of click are not a JSON object: {\\"ref\\": \\"e1');
    const turn2 = JSON.stringify(server.requests[2]?.body);
    expect(turn2).toContain('error: there is no tool \\"teleport\\"; the tools are navigate, go_back, click');
  });

  it('stops after too many failed tool calls in a row (no tool call, unknown tools)', async () => {
    const { result } = await run(
      inOrder({ text: 'I think the page looks fine.' }, { toolCalls: [{ name: 'teleport' }] }),
      {
        limits: { maxConsecutiveErrors: 3 },
      },
    );
    expect(result.endedBy).toBe('consecutive errors');
    expect(result.summary).toMatch(
      /^The agent stopped after 3 failed tool calls in a row \(limit 3\); the last one: there is no tool "teleport"/,
    );
  });

  it('types secrets into the page but never sends them to the model or writes them to the log', async () => {
    const secret = 'tok-9f8e7d6c5b';
    const { result, server, lines } = await run(
      inOrder(
        (t) => ({
          toolCalls: [
            { name: 'type', args: { ref: t.ref('textbox', 'Access code'), text: '{{secret.code}}' } },
            { name: 'click', args: { ref: t.ref('button', 'Submit') } },
          ],
        }),
        (t) => {
          // The page now shows the code; the model must only ever see the placeholder.
          expect(t.observation).toContain('Code accepted: {{secret.code}}');
          expect(t.observation).toContain('value="{{secret.code}}"');
          return { toolCalls: [{ name: 'assert_text', args: { text: 'Code accepted: {{secret.code}}' } }] };
        },
        {
          toolCalls: [
            { name: 'done', args: { passed: true, summary: `Entered ${secret} and it was accepted` } },
          ],
        },
      ),
      {
        path: '/code',
        secrets: { code: secret },
        query: `Enter the access code ${secret} and check it is accepted.`,
      },
    );
    expect(await page.$eval('#code', (el) => (el as unknown as { value: string }).value)).toBe(secret);
    expect(result.verdict).toBe('succeeded');
    expect(result.summary).toBe('Entered {{secret.code}} and it was accepted (1 assertion held).');
    for (const request of server.requests) expect(request.raw).not.toContain(secret);
    expect(server.requests[0]?.raw).toContain('Enter the access code {{secret.code}}');
    expect(JSON.stringify(server.requests[1]?.body)).toContain(
      'ok: typed \\"{{secret.code}}\\" into the textbox \\"Access code\\" [e',
    );
    expect(lines.join('')).not.toContain(secret);
    expect(result.summary).not.toContain(secret);
    expect(JSON.stringify(result.steps)).not.toContain(secret);
  });

  it('logs tokens and the estimated cost of every call and of the whole job', async () => {
    const { result, log } = await run(signIn, { api: 'anthropic' });
    // claude-haiku-4-5 at $1 / $5 per million tokens; the scripted server reports 1000 in + 50 out per call.
    expect(result.usage).toEqual({ inputTokens: 4000, outputTokens: 200, llmCalls: 4, costUsd: 0.005 });
    const calls = log.entries.filter((e) => /^agent step \d+: anthropic/.test(e.message));
    expect(calls).toHaveLength(4);
    expect(calls[0]?.message).toContain(
      'tokens 1000 in + 50 out, $0.00125; job so far 1000 in + 50 out, $0.00125',
    );
    expect(calls[3]?.message).toContain('job so far 4000 in + 200 out, $0.00500');
    expect(
      log.entries.some(
        (e) => e.message === 'usage: 4 LLM calls, 4000 input + 200 output tokens, estimated $0.00500',
      ),
    ).toBe(true);
  });

  it('attaches a screenshot to the newest observation only, when asked', async () => {
    const { result, server } = await run(signIn, { screenshot: true, limits: { keepObservations: 1 } });
    expect(result.verdict).toBe('succeeded');
    const images = (raw: string) => raw.split('data:image/jpeg;base64,').length - 1;
    expect(images(server.requests[0]?.raw ?? '')).toBe(1);
    expect(images(server.requests[3]?.raw ?? '')).toBe(1);
  });

  it('stops at the wall-clock limit while waiting for the model', async () => {
    // The model answers only after 5 s: ending by the job time limit means the run did not wait for it.
    const { result } = await run(() => ({ delayMs: 5000, reply: { text: 'late' } }), {
      limits: { jobTimeoutMs: 1500 },
    });
    expect(result.endedBy).toBe('job time limit');
    expect(result.summary).toBe('The run was stopped because it took too long (job time limit of 1500 ms).');
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const { result } = await run(() => ({ delayMs: 5000, reply: { text: 'late' } }), {
      signal: controller.signal,
    });
    expect(result.endedBy).toBe('cancelled');
    expect(result.verdict).toBe('failed');
    const timedOut = await run(() => ({ delayMs: 5000, reply: { text: 'late' } }), {
      signal: AbortSignal.timeout(500),
    });
    expect(timedOut.result.endedBy).toBe('job time limit');
    expect(timedOut.result.summary).toBe("The run was stopped by the caller's time limit.");
  });

  it('fails the running step when the job is cancelled mid-step, and logs it as the interpreter does', async () => {
    const controller = new AbortController();
    const { result, log } = await run(
      inOrder({ toolCalls: [{ name: 'assert_text', args: { text: 'Never shown' } }] }),
      {
        // The assertion would keep checking for a minute: only the cancel ends it.
        limits: { assertionTimeoutMs: 60_000 },
        signal: controller.signal,
        onEntry: (entry) => {
          if (entry.outcome === 'started' && entry.step === 1) controller.abort();
        },
      },
    );
    expect(result.endedBy).toBe('cancelled');
    expect(result.summary).toBe('The run was cancelled.');
    expect(result.steps).toEqual([
      expect.objectContaining({
        index: 1,
        action: 'assertText',
        status: 'failed',
        error: 'the run was cancelled',
      }),
    ]);
    expect(log.entries.filter((e) => e.step === 1).map((e) => [e.outcome, e.error])).toEqual([
      ['started', undefined],
      ['failed', 'the run was cancelled'],
    ]);
  });

  it('learns that a newer OpenAI model refuses max_tokens and temperature, once per model', async () => {
    let accepted = 0;
    const { result, server } = await run((t) => {
      if (t.request.body.max_tokens !== undefined)
        return {
          status: 400,
          message:
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        };
      if (t.request.body.temperature !== undefined)
        return {
          status: 400,
          message:
            "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
        };
      return signIn({ ...t, index: accepted++ });
    });
    expect(result.verdict).toBe('succeeded');
    expect(server.requests).toHaveLength(6);
    expect(server.requests[5]?.body).toMatchObject({ max_completion_tokens: 1024 });
  });

  it('exports a passed run as interpreter instructions that replay it without a model', async () => {
    const { result } = await run(signIn);
    expect(result.script).toBe(
      [
        `open ${site.url}/login`,
        'type "ada@example.com" into the "Email" field',
        'type "{{secret.password}}" into the "Password" field',
        'click the "Sign in" button',
        'verify the page contains "Welcome back, Ada"',
      ].join('\n'),
    );
    const replayPage = await tab.context.newPage();
    const lines: string[] = [];
    const log = new AgentLog({ sink: (line) => void lines.push(line) });
    const replay = await replayLlmScript({
      page: replayPage,
      script: result.script ?? '',
      secrets: { password: PASSWORD },
      log,
      limits: FAST,
    });
    expect(replay.summary).toBe('All 5 steps passed; 1 assertion held.');
    expect(replay.verdict).toBe('succeeded');
    expect(replayPage.url()).toBe(`${site.url}/welcome`);
    expect(lines.join('')).not.toContain(PASSWORD);
  });

  it('does not run the rest of a turn after one of its calls failed', async () => {
    const { result, server } = await run(
      inOrder(
        (t) => ({
          toolCalls: [
            { name: 'click', args: { ref: 'e99' } },
            { name: 'click', args: { ref: t.ref('button', 'Sign in') } },
          ],
        }),
        { toolCalls: [{ name: 'done', args: { passed: false, summary: 'Could not click' } }] },
      ),
    );
    expect(result.steps).toHaveLength(0);
    expect(server.requests[1]?.raw).toContain('not run: an earlier call of this turn failed');
    expect(result.summary).toBe('The agent reported the test failed: Could not click.');
  });

  it('refuses a navigate tool call to file:, chrome: or view-source: before any request', async () => {
    const { result, server } = await run(
      inOrder(
        { toolCalls: [{ name: 'navigate', args: { url: 'file:///etc/passwd' } }] },
        { toolCalls: [{ name: 'navigate', args: { url: 'view-source:http://127.0.0.1/' } }] },
        { toolCalls: [{ name: 'done', args: { passed: false, summary: 'Blocked' } }] },
      ),
    );
    expect(page.url()).toBe(`${site.url}/login`);
    expect(server.requests[1]?.raw).toContain(
      'blocked by the browser network policy: file: addresses cannot be opened (only http:, https: and about:blank)',
    );
    expect(server.requests[2]?.raw).toContain('view-source: addresses cannot be opened');
    expect(result.verdict).toBe('failed');
  });
});
