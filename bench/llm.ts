import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'puppeteer-core';
import { AgentLog, launchLocalBrowser } from '../libs/browser-agent/dist/index.js';
import {
  AGENT_TOOLS,
  formatSnapshot,
  OpenAiProvider,
  resolveLlmLimits,
  runHealingReplay,
  runLlmTest,
  takeSnapshot,
} from '../libs/llm-agent/dist/index.js';
import { type Script, serveScriptedLlm } from '../libs/llm-agent/testing/scripted-llm-server.ts';
import { LLM_FIXTURES } from './fixtures/llm-pages.ts';
import { startSite } from './support/site.ts';
import { round, summarize, type Summary } from './support/stats.ts';

/**
 * LLM agent benchmark (issue #8), standalone: `node bench/llm.ts` after `pnpm run build`.
 *
 * (a) Prompt size per step on three generated pages (bench/fixtures/llm-pages.ts): the agent's
 *     observation (element outline with refs + trimmed page text) against the page's raw HTML and
 *     its innerText, and whether every visible interactive element got a ref.
 * (b) Replaying a passed run without the model against the model run itself, with a scripted
 *     OpenAI-compatible server that answers each call after a fixed latency.
 *
 * Tokens are estimated as characters / 4 (no tokenizer is installed; for English text and HTML
 * that is within about 20% of OpenAI's and Anthropic's tokenizers, and the ratios are what matter).
 */

const AIMS = { observationToHtml: 0.2 };
/** Per model call: a fast-tier model answering a short tool call over the internet. */
const MODEL_LATENCY_MS = Number(process.env.BENCH_LLM_LATENCY_MS ?? 1500);
const ITERATIONS = Number(process.env.BENCH_LLM_ITERATIONS ?? 3);

const tokens = (text: string): number => Math.ceil(text.length / 4);

interface PromptRow {
  page: string;
  htmlTokens: number;
  innerTextTokens: number;
  observationTokens: number;
  ratioToHtml: number;
  interactive: number;
  withRef: number;
  missing: string[];
  elementsListed: number;
  textCut: boolean;
}

/** Visible interactive elements and which of them carry the snapshot's ref attribute. */
const COVERAGE = `(() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [contenteditable=""], [contenteditable=true]';
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    return (r.width > 0 || r.height > 0) && st.visibility !== 'hidden' && st.display !== 'none';
  };
  const all = [...document.querySelectorAll(sel)].filter(visible);
  const missing = all.filter((el) => !el.hasAttribute('data-agent-ref')).map((el) => el.outerHTML.slice(0, 100));
  return { interactive: all.length, missing };
})()`;

async function servePages(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    const page = LLM_FIXTURES[name];
    res
      .writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
      .end(page ? page() : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function promptSizes(browser: Browser): Promise<PromptRow[]> {
  const { url, server } = await servePages();
  const limits = resolveLlmLimits({});
  const rows: PromptRow[] = [];
  try {
    for (const name of Object.keys(LLM_FIXTURES)) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.goto(`${url}/${encodeURIComponent(name)}`, { waitUntil: 'load' });
      const html = await page.content();
      const innerText = (await page.evaluate('document.body.innerText')) as string;
      const snapshot = await takeSnapshot(page, {
        maxElements: limits.maxElements,
        maxTextChars: limits.maxTextChars,
      });
      const observation = formatSnapshot(snapshot);
      const coverage = (await page.evaluate(COVERAGE)) as { interactive: number; missing: string[] };
      rows.push({
        page: name,
        htmlTokens: tokens(html),
        innerTextTokens: tokens(innerText),
        observationTokens: tokens(observation),
        ratioToHtml: round(tokens(observation) / tokens(html), 3),
        interactive: coverage.interactive,
        withRef: coverage.interactive - coverage.missing.length,
        missing: coverage.missing.slice(0, 5),
        elementsListed: snapshot.outline.length,
        textCut: snapshot.truncated.text,
      });
      await context.close();
    }
  } finally {
    server.close();
  }
  return rows;
}

/** The sign-up flow of the bench site as a model would script it: five calls. */
function signUpScript(latencyMs: number): Script {
  const replies: Script[] = [
    (t) => ({
      toolCalls: [
        { name: 'type', args: { ref: t.ref('textbox', 'Name'), text: 'Jane Doe' } },
        { name: 'type', args: { ref: t.ref('textbox', 'Email'), text: 'jane@example.com' } },
      ],
    }),
    (t) => ({
      toolCalls: [
        { name: 'select_option', args: { ref: t.ref('combobox', 'Plan'), option: 'Pro' } },
        { name: 'set_checked', args: { ref: t.ref('checkbox', 'I accept the terms'), checked: true } },
      ],
    }),
    (t) => ({ toolCalls: [{ name: 'click', args: { ref: t.ref('button', 'Sign up') } }] }),
    () => ({ toolCalls: [{ name: 'assert_text', args: { text: 'Thanks for signing up!' } }] }),
    () => ({ toolCalls: [{ name: 'done', args: { passed: true, summary: 'Signed up.' } }] }),
  ];
  let first = -1;
  return (turn) => {
    // Each run starts its own conversation: a request with a single message is turn 0 of a run.
    const messages = (turn.request.body.messages as unknown[] | undefined) ?? [];
    if (messages.length <= 2) first = turn.index;
    const reply = replies[Math.min(turn.index - first, replies.length - 1)]!(turn);
    return latencyMs > 0 ? { delayMs: latencyMs, reply } : reply;
  };
}

interface ReplayResult {
  latencyMs: number;
  modelCallsPerRun: number;
  llm: Summary;
  llmNoLatency: Summary;
  replay: Summary;
  speedup: number;
  failures: number;
}

async function replayTimes(browser: Browser): Promise<ReplayResult> {
  const site = await startSite();
  const slow = await serveScriptedLlm(signUpScript(MODEL_LATENCY_MS));
  const fast = await serveScriptedLlm(signUpScript(0));
  const silent = () => new AgentLog({ sink: () => undefined });
  const samples = { llm: [] as number[], llmNoLatency: [] as number[], replay: [] as number[] };
  let failures = 0;
  let script: string | undefined;
  let modelCalls = 0;
  const once = async (work: (page: Page) => Promise<{ verdict: string }>): Promise<number> => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const started = performance.now();
    const result = await work(page);
    const ms = performance.now() - started;
    await context.close();
    if (result.verdict !== 'succeeded') failures++;
    return ms;
  };
  const common = (page: Page, baseURL: string) => ({
    page,
    query: 'Sign up as Jane Doe (jane@example.com) on the Pro plan and check the thank-you page.',
    log: silent(),
    initialUrl: `${site.url}/form`,
    highlightMouse: false,
    provider: new OpenAiProvider({ apiKey: 'sk-bench', baseURL }),
    model: 'gpt-4.1-mini',
  });
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      samples.llm.push(
        await once(async (page) => {
          const result = await runLlmTest(common(page, slow.openaiBaseUrl));
          script ??= result.script;
          modelCalls = result.usage.llmCalls;
          return result;
        }),
      );
      samples.llmNoLatency.push(await once((page) => runLlmTest(common(page, fast.openaiBaseUrl))));
      if (!script) throw new Error('the model run produced no script to replay');
      const stored = script;
      const before = slow.requests.length;
      samples.replay.push(
        await once(async (page) => {
          const result = await runHealingReplay({ ...common(page, slow.openaiBaseUrl), script: stored });
          if (!result) throw new Error('the stored script could not be read');
          return result;
        }),
      );
      if (slow.requests.length !== before) throw new Error('the replay called the model');
    }
  } finally {
    await slow.close();
    await fast.close();
    await site.close();
  }
  const llm = summarize(samples.llm, 0);
  const replay = summarize(samples.replay, 0);
  return {
    latencyMs: MODEL_LATENCY_MS,
    modelCallsPerRun: modelCalls,
    llm,
    llmNoLatency: summarize(samples.llmNoLatency, 0),
    replay,
    speedup: round(llm.p50 / replay.p50, 1),
    failures,
  };
}

function report(rows: PromptRow[], replay: ReplayResult, toolsTokens: number): string {
  const ok = (b: boolean) => (b ? 'yes' : '**no**');
  const lines = [
    '# LLM agent benchmark',
    '',
    `Run: ${new Date().toISOString()} · \`node bench/llm.ts\` · 1-minute load average at the end ${round(loadavg()[0] ?? 0, 1)} · tokens ≈ characters / 4 (no tokenizer installed).`,
    '',
    '## (a) Prompt size per step',
    '',
    `Aim: the observation is at most ${AIMS.observationToHtml * 100}% of the raw HTML, with every visible interactive element addressable by a ref.`,
    '',
    '| Page | Raw HTML | innerText | Observation | Obs / HTML | Interactive elements with a ref | Listed | Text cut | Meets aim |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.htmlTokens} | ${r.innerTextTokens} | ${r.observationTokens} | ${(r.ratioToHtml * 100).toFixed(1)}% | ${r.withRef} / ${r.interactive} | ${r.elementsListed} | ${r.textCut ? 'yes' : 'no'} | ${ok(r.ratioToHtml <= AIMS.observationToHtml && r.withRef === r.interactive)} |`,
    ),
    '',
    `Every request also carries the system prompt and the tool definitions (≈ ${toolsTokens} tokens, the same each step, cacheable by the provider) and the last two observations in full; older ones shrink to a one-line note.`,
    ...rows
      .filter((r) => r.missing.length > 0)
      .map(
        (r) => `\nElements without a ref on the ${r.page}: ${r.missing.map((m) => `\`${m}\``).join(', ')}`,
      ),
    '',
    '## (b) Replay vs the model run',
    '',
    `The bench site's sign-up flow (type name and email, choose a plan, accept the terms, submit, assert the thank-you page): ${replay.modelCallsPerRun} model calls per run, each answered by a scripted OpenAI-compatible server after **${replay.latencyMs} ms** (a fast-tier model answering a short tool call). ${ITERATIONS} runs of each, interleaved, fresh browser context per run, no video.`,
    '',
    '| Run | p50 ms | min | max | model calls |',
    '|---|---:|---:|---:|---:|',
    `| LLM agent, ${replay.latencyMs} ms per call | ${replay.llm.p50} | ${replay.llm.min} | ${replay.llm.max} | ${replay.modelCallsPerRun} |`,
    `| LLM agent, 0 ms per call (agent overhead only) | ${replay.llmNoLatency.p50} | ${replay.llmNoLatency.min} | ${replay.llmNoLatency.max} | ${replay.modelCallsPerRun} |`,
    `| Replay of the stored script | ${replay.replay.p50} | ${replay.replay.min} | ${replay.replay.max} | 0 |`,
    '',
    `Replay is **${replay.speedup}×** faster than the model run at the median${replay.failures ? `; ${replay.failures} runs did not pass` : ', and every run passed'}.`,
    '',
  ];
  return lines.join('\n');
}

const browser = await launchLocalBrowser();
try {
  const rows = await promptSizes(browser);
  const replay = await replayTimes(browser);
  const text = report(rows, replay, tokens(JSON.stringify(AGENT_TOOLS)));
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'llm.md'), text);
  console.log(text);
} finally {
  await browser.close();
}
