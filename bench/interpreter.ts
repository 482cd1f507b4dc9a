import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'puppeteer-core';
import { AgentLog, launchLocalBrowser, runInstructionTest } from '../libs/browser-agent/dist/index.js';
import type { BenchContext } from './support/context.ts';
import { CpuMeter, processTree } from './support/proc.ts';
import { startSite, tenStepQuery } from './support/site.ts';
import { round, summarize, type Summary } from './support/stats.ts';

/**
 * 3. Interpreter overhead: the same ten actions on a local page, run by the interpreter
 * (runInstructionTest, as the worker runs it) and hand-written in Puppeteer, in one browser,
 * interleaved; plus the cost of recording the video.
 */

export const INTERPRETER_AIMS = { ratio: 1.3, recordingOverheadPercent: 20 };

type Variant = 'puppeteer' | 'interpreter' | 'interpreter+video' | 'interpreter+video+cursor';
const VARIANTS: readonly Variant[] = [
  'puppeteer',
  'interpreter',
  'interpreter+video',
  'interpreter+video+cursor',
];

interface Sample {
  variant: Variant;
  iteration: number;
  /** The whole call (for video variants: until the mp4 is finalised). */
  totalMs: number;
  /** Until the verdict was logged (for video variants: before the recorder's tail and ffmpeg finish). */
  toVerdictMs: number;
  stepMs: number[];
  ok: boolean;
  error?: string;
  videoBytes?: number;
}

export interface InterpreterResult {
  aims: typeof INTERPRETER_AIMS;
  iterations: number;
  steps: string[];
  variants: Record<Variant, { totalMs: Summary; toVerdictMs: Summary; failures: number; videoKb?: number }>;
  /** interpreter / puppeteer, medians of the total. */
  ratio: number;
  ratioOfMeans: number;
  /** (interpreter+video / interpreter − 1), medians of the total, percent. */
  recordingOverheadPercent: number;
  /** The same up to the verdict (the steps with the recorder running, without the final tail and encode). */
  recordingOverheadToVerdictPercent: number;
  /** Median milliseconds per step: puppeteer vs interpreter. */
  perStepP50Ms: { step: string; puppeteer: number; interpreter: number }[];
  /** Over the measured rounds: percent of one core per group; `machine`: percent of all cores. */
  cpuPercent: Record<string, number>;
  meetsAims: { ratio: boolean; recording: boolean };
  samples: Sample[];
}

/** The ten actions written by hand, the way a Puppeteer user would (same page, same order). */
async function handWritten(page: Page, site: string): Promise<number[]> {
  const times: number[] = [];
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    times.push(now - t);
    t = now;
  };
  await page.goto(`${site}/form`, { waitUntil: 'load' });
  lap();
  await page.type('#name', 'Jane Doe');
  lap();
  await page.type('#email', 'jane@example.com');
  lap();
  await page.select('#plan', 'pro');
  lap();
  await page.click('#tos');
  lap();
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#submit')]);
  lap();
  await page.waitForFunction('document.body.innerText.includes("Thanks for signing up")', { timeout: 5_000 });
  lap();
  if ((await page.title()) !== 'Thanks') throw new Error(`title is "${await page.title()}"`);
  lap();
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#back')]);
  lap();
  if (!page.url().endsWith('/form')) throw new Error(`URL is ${page.url()}`);
  lap();
  return times;
}

async function runOnce(
  browser: Browser,
  variant: Variant,
  iteration: number,
  site: string,
  videoDir: string,
): Promise<Sample> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const started = performance.now();
    if (variant === 'puppeteer') {
      try {
        const stepMs = await handWritten(page, site);
        const totalMs = performance.now() - started;
        return { variant, iteration, totalMs, toVerdictMs: totalMs, stepMs, ok: true };
      } catch (error) {
        const totalMs = performance.now() - started;
        return {
          variant,
          iteration,
          totalMs,
          toVerdictMs: totalMs,
          stepMs: [],
          ok: false,
          error: String(error),
        };
      }
    }
    let verdictAt = 0;
    const log = new AgentLog({
      sink: (_line, entry) => {
        if (entry.message.startsWith('verdict:')) verdictAt = performance.now();
      },
    });
    const outputPath = join(videoDir, `interpreter-${iteration}-${variant.replaceAll('+', '-')}.mp4`);
    const video = variant === 'interpreter' ? undefined : { outputPath };
    // highlightMouse false: typingDelayMs resolves to 0 (no per-character delay). The "+cursor"
    // variant is what a job gets with the API's default highlight_mouse: true (25 ms per character).
    const result = await runInstructionTest({
      page,
      query: tenStepQuery(site),
      log,
      highlightMouse: variant === 'interpreter+video+cursor',
      ...(video ? { video } : {}),
    });
    const totalMs = performance.now() - started;
    return {
      variant,
      iteration,
      totalMs,
      toVerdictMs: (verdictAt || performance.now()) - started,
      stepMs: result.steps.map((s) => s.durationMs),
      ok: result.verdict === 'succeeded' && (!video || Boolean(result.video?.ok)),
      ...(result.verdict === 'succeeded' ? {} : { error: result.summary }),
      ...(result.video?.ok ? { videoBytes: statSync(outputPath).size } : {}),
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

export async function runInterpreterBench(ctx: BenchContext): Promise<InterpreterResult> {
  const iterations = ctx.quick ? 3 : 10;
  const site = await startSite();
  const browser = await launchLocalBrowser();
  try {
    ctx.log(
      `interpreter: one warm-up round, then ${iterations} interleaved rounds of ${VARIANTS.length} variants`,
    );
    for (const variant of VARIANTS) {
      const warm = await runOnce(browser, variant, -1, site.url, ctx.artifactsDir);
      if (!warm.ok) throw new Error(`${variant} failed during the warm-up: ${warm.error}`);
    }
    const samples: Sample[] = [];
    const meter = new CpuMeter({
      'bench, its Chromium and ffmpeg': () => processTree(process.pid).map((p) => p.pid),
    });
    meter.start();
    for (let i = 0; i < iterations; i++) {
      // Rotate the order so no variant always runs first (or right after the recorder's ffmpeg).
      const order = VARIANTS.map((_, k) => VARIANTS[(k + i) % VARIANTS.length]!);
      for (const variant of order)
        samples.push(await runOnce(browser, variant, i, site.url, ctx.artifactsDir));
    }
    const cpuPercent = meter.stop();
    const of = (variant: Variant) => samples.filter((s) => s.variant === variant && s.ok);
    const variants = Object.fromEntries(
      VARIANTS.map((v) => {
        const ok = of(v);
        if (ok.length === 0)
          throw new Error(`every ${v} run failed: ${samples.find((s) => s.variant === v)?.error}`);
        const sizes = ok.map((s) => s.videoBytes).filter((b): b is number => b !== undefined);
        return [
          v,
          {
            totalMs: summarize(ok.map((s) => s.totalMs)),
            toVerdictMs: summarize(ok.map((s) => s.toVerdictMs)),
            failures: samples.filter((s) => s.variant === v && !s.ok).length,
            ...(sizes.length
              ? { videoKb: round(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024, 0) }
              : {}),
          },
        ];
      }),
    ) as InterpreterResult['variants'];
    const median = (v: Variant, key: 'totalMs' | 'toVerdictMs' = 'totalMs') => variants[v][key].p50;
    const ratio = round(median('interpreter') / median('puppeteer'), 2);
    const recording = round((median('interpreter+video') / median('interpreter') - 1) * 100, 1);
    const recordingToVerdict = round(
      (median('interpreter+video', 'toVerdictMs') / median('interpreter', 'toVerdictMs') - 1) * 100,
      1,
    );
    const stepNames = tenStepQuery(site.url)
      .split('\n')
      .map((s) => s.replace(site.url, ''));
    const perStep = stepNames.map((step, k) => ({
      step,
      puppeteer: summarize(of('puppeteer').map((s) => s.stepMs[k] ?? 0)).p50,
      interpreter: summarize(of('interpreter').map((s) => s.stepMs[k] ?? 0)).p50,
    }));
    const result: InterpreterResult = {
      aims: INTERPRETER_AIMS,
      iterations,
      steps: stepNames,
      variants,
      ratio,
      ratioOfMeans: round(variants.interpreter.totalMs.mean / variants.puppeteer.totalMs.mean, 2),
      recordingOverheadPercent: recording,
      recordingOverheadToVerdictPercent: recordingToVerdict,
      perStepP50Ms: perStep,
      cpuPercent,
      meetsAims: {
        ratio: ratio <= INTERPRETER_AIMS.ratio,
        recording: recording <= INTERPRETER_AIMS.recordingOverheadPercent,
      },
      samples: samples.map((s) => ({
        ...s,
        totalMs: round(s.totalMs),
        toVerdictMs: round(s.toVerdictMs),
        stepMs: s.stepMs.map((x) => round(x)),
      })),
    };
    ctx.log(
      `interpreter: puppeteer p50 ${median('puppeteer')} ms, interpreter ${median('interpreter')} ms (×${ratio}), with video ${median('interpreter+video')} ms (+${recording}%)`,
    );
    return result;
  } finally {
    await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
    await site.close();
  }
}

export function interpreterMarkdown(r: InterpreterResult): string {
  const v = r.variants;
  const row = (name: string, key: Variant, note: string) =>
    `| ${name} | ${v[key].totalMs.p50} | ${v[key].totalMs.p95} | ${v[key].totalMs.mean} | ${v[key].toVerdictMs.p50} | ${v[key].failures} | ${note} |`;
  return [
    '## 3. Interpreter overhead',
    '',
    `A 10-step test on a local page (open, type ×2, select, check, click → new page, two assertions, click back, URL) run ${r.iterations} times per variant, interleaved with rotating order, in one Chromium, each run in a fresh browser context (as the worker does), after one warm-up round. The interpreter runs through \`runInstructionTest\` with \`highlightMouse: false\`, so \`typingDelayMs\` is 0 (no per-character delay) in the comparison. Aims: interpreter ≤ ${r.aims.ratio}× hand-written Puppeteer; recording ≤ +${r.aims.recordingOverheadPercent}%.`,
    '',
    '| variant | p50 ms | p95 ms | mean ms | p50 ms to the verdict | failures | notes |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    row('hand-written Puppeteer', 'puppeteer', 'CSS selectors, `page.type` without delay'),
    row('interpreter, no video', 'interpreter', 'typing delay 0'),
    row(
      'interpreter + video',
      'interpreter+video',
      `typing delay 0; ~${v['interpreter+video'].videoKb ?? '?'} KB mp4`,
    ),
    row(
      'interpreter + video + cursor',
      'interpreter+video+cursor',
      "the API's default `highlight_mouse: true`: drawn cursor, 25 ms per typed character",
    ),
    '',
    `**Interpreter / Puppeteer: ${r.ratio}×** (medians; ${r.ratioOfMeans}× on means) — aim ${r.meetsAims.ratio ? 'met' : '**not met**'}. **Recording overhead: +${r.recordingOverheadPercent}%** (medians of the whole call, which includes the recorder's fixed 600 ms tail and the ffmpeg finish; +${r.recordingOverheadToVerdictPercent}% up to the verdict) — aim ${r.meetsAims.recording ? 'met' : '**not met**'}.`,
    '',
    `Other work on the machine meanwhile: ${r.cpuPercent['everything else']}% of a core.`,
    '',
    '| step | Puppeteer p50 ms | interpreter p50 ms |',
    '| --- | --- | --- |',
    ...r.perStepP50Ms.map((s) => `| ${s.step.replace(/\|/g, '\\|')} | ${s.puppeteer} | ${s.interpreter} |`),
  ].join('\n');
}
