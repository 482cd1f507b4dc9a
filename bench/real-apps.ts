import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { AgentLog, launchLocalBrowser, runInstructionTest } from '../libs/browser-agent/dist/index.js';
import { FLUENT_APPS } from './fixtures/real-apps-fluent.ts';
import { MATERIAL_APPS } from './fixtures/real-apps-material.ts';
import { TODO_APPS } from './fixtures/real-apps-todo.ts';
import { type Family, type NpmPackage, PACKAGES, REAL_APPS as BASE_APPS } from './fixtures/real-apps.ts';
import { percentile, round } from './support/stats.ts';

const ALL_APPS = [...BASE_APPS, ...MATERIAL_APPS, ...FLUENT_APPS, ...TODO_APPS];

/**
 * The real-app benchmark: apps built from third-party component libraries (served from their npm
 * packages on 127.0.0.1), each with plain-English tests that must pass and tests that must fail,
 * run by the instruction interpreter as the worker runs it. Reports the share of correct verdicts
 * per app and per phrasing family, the median time per step, and every wrong verdict.
 *
 *   node bench/real-apps.ts            # needs the built libs/browser-agent (pnpm run build)
 *   node bench/real-apps.ts --only material   # the apps whose name contains it; results files untouched
 *   node bench/run.ts --only real-apps # as one of the suite's benchmarks (latest.md, summary.json)
 *
 * The packages are fetched once with `npm pack` into node_modules/.cache/suite-real-apps.
 * Exits 1 when a test that must fail succeeded.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'suite-real-apps');
const LIMITS = { navigationTimeoutMs: 15_000, actionTimeoutMs: 5_000, assertionTimeoutMs: 2_000 };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** The package's files, fetched with the npm client the first time. */
function packageDir({ name, version, alias, install }: NpmPackage): string {
  const dir = join(CACHE, `${alias}-${version}`);
  if (install) {
    const modules = join(dir, 'node_modules');
    if (existsSync(join(modules, ...name.split('/')))) return modules;
    mkdirSync(dir, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--silent',
        `${name}@${version}`,
      ],
      { stdio: 'inherit' },
    );
    return modules;
  }
  const files = join(dir, 'package');
  if (existsSync(files)) return files;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', dir], {
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', join(dir, tarball.split('\n').pop() ?? tarball), '-C', dir]);
  return files;
}

async function serve(roots: Record<string, string>): Promise<{ url: string; server: Server }> {
  const apps = new Map(ALL_APPS.map((app) => [`/apps/${app.name}`, app.html]));
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const html = apps.get(path);
    if (html) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const match = /^\/pkg\/([^/]+)\/(.+)$/.exec(path);
    const root = match?.[1] ? roots[match[1]] : undefined;
    const file = root && match?.[2] ? normalize(join(root, match[2])) : undefined;
    if (!root || !file || !file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

export interface Outcome {
  app: string;
  family: Family;
  expect: 'succeeded' | 'failed';
  verdict: 'succeeded' | 'failed';
  correct: boolean;
  query: string;
  summary: string;
  stepMs: number[];
}

function share(list: readonly Outcome[]): string {
  const right = list.filter((o) => o.correct).length;
  return `${right}/${list.length} (${round((100 * right) / Math.max(1, list.length), 0)}%)`;
}

function report(outcomes: readonly Outcome[], title: string): string {
  const steps = outcomes.flatMap((o) => o.stepMs);
  const falseSuccess = outcomes.filter((o) => o.expect === 'failed' && o.verdict === 'succeeded');
  const lines = [
    title,
    '',
    `Correct verdicts: ${share(outcomes)}; tests that must fail but succeeded: ${falseSuccess.length}; median time per step: ${round(percentile(steps, 50), 0)} ms (p90 ${round(percentile(steps, 90), 0)} ms, ${steps.length} steps).`,
    '',
    '| app | library | correct |',
    '| --- | --- | --- |',
    ...ALL_APPS.filter((app) => outcomes.some((o) => o.app === app.name)).map(
      (app) => `| ${app.name} | ${app.library} | ${share(outcomes.filter((o) => o.app === app.name))} |`,
    ),
    '',
    '| phrasing family | correct |',
    '| --- | --- |',
    ...[...new Set(outcomes.map((o) => o.family))].map(
      (family) => `| ${family} | ${share(outcomes.filter((o) => o.family === family))} |`,
    ),
    '',
  ];
  const wrong = outcomes.filter((o) => !o.correct);
  if (wrong.length > 0) {
    lines.push('## Wrong verdicts', '');
    for (const o of wrong) {
      lines.push(
        `- ${o.app} (${o.family}), expected ${o.expect}, got ${o.verdict}: ${o.summary.replace(/\s+/g, ' ')}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

export interface RealAppsResult {
  aims: { correctPercent: number; falseSuccesses: number };
  correct: number;
  total: number;
  correctPercent: number;
  /** Tests that must fail but succeeded. */
  falseSuccesses: number;
  stepMs: { p50: number; p90: number; steps: number };
  meetsAims: boolean;
  outcomes: Outcome[];
}

/** Runs every app's tests (or those of apps whose name contains `only`) in one local Chromium. */
export async function runRealApps(
  options: { only?: string; log?: (line: string) => void } = {},
): Promise<RealAppsResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const apps = ALL_APPS.filter((app) => !options.only || app.name.includes(options.only));
  const roots: Record<string, string> = {};
  for (const pkg of PACKAGES) roots[pkg.alias] = packageDir(pkg);
  const { url, server } = await serve(roots);
  const browser = await launchLocalBrowser();
  const outcomes: Outcome[] = [];
  try {
    for (const app of apps) {
      for (const test of app.tests) {
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          const query = test.query.replaceAll('$APP', `${url}/apps/${app.name}`);
          const result = await runInstructionTest({ page, query, log: new AgentLog(), limits: LIMITS });
          const outcome: Outcome = {
            app: app.name,
            family: test.family,
            expect: test.expect,
            verdict: result.verdict,
            correct: result.verdict === test.expect,
            query: test.query.replace(/\s*\n\s*/g, ' / '),
            summary: result.summary,
            stepMs: result.steps.filter((s) => s.status !== 'skipped').map((s) => s.durationMs),
          };
          outcomes.push(outcome);
          log(`${outcome.correct ? 'ok  ' : 'WRONG'} ${app.name} [${test.family}] ${outcome.query}`);
          if (!outcome.correct) log(`      ${result.summary}`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const steps = outcomes.flatMap((o) => o.stepMs);
  const correct = outcomes.filter((o) => o.correct).length;
  const correctPercent = round((100 * correct) / Math.max(1, outcomes.length), 1);
  const falseSuccesses = outcomes.filter((o) => o.expect === 'failed' && o.verdict === 'succeeded').length;
  const aims = { correctPercent: 95, falseSuccesses: 0 };
  return {
    aims,
    correct,
    total: outcomes.length,
    correctPercent,
    falseSuccesses,
    stepMs: {
      p50: round(percentile(steps, 50), 0),
      p90: round(percentile(steps, 90), 0),
      steps: steps.length,
    },
    meetsAims: correctPercent >= aims.correctPercent && falseSuccesses === aims.falseSuccesses,
    outcomes,
  };
}

/** The report (bench/results/real-apps.md), formatted as the repository formats Markdown. */
export async function realAppsMarkdown(
  result: RealAppsResult,
  title = '# Real-app benchmark',
): Promise<string> {
  const file = join(ROOT, 'bench', 'results', 'real-apps.md');
  return prettier.format(report(result.outcomes, title), {
    ...((await prettier.resolveConfig(file)) ?? {}),
    filepath: file,
  });
}

/** Writes bench/results/real-apps.md and real-apps.json. */
export async function writeRealAppsReport(result: RealAppsResult): Promise<string> {
  const results = join(ROOT, 'bench', 'results');
  const markdown = await realAppsMarkdown(result);
  writeFileSync(join(results, 'real-apps.md'), markdown);
  writeFileSync(join(results, 'real-apps.json'), `${JSON.stringify(result.outcomes, null, 2)}\n`);
  return markdown;
}

async function main(): Promise<void> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const result = await runRealApps({ only });
  if (!only) console.log(`\n${await writeRealAppsReport(result)}`);
  if (result.falseSuccesses > 0) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
