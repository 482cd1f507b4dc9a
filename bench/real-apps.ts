import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { AgentLog, launchLocalBrowser, runInstructionTest } from '../libs/browser-agent/dist/index.js';
import { type Family, PACKAGES, REAL_APPS } from './fixtures/real-apps.ts';
import { percentile, round } from './support/stats.ts';

/**
 * The real-app benchmark: apps built from third-party component libraries (served from their npm
 * packages on 127.0.0.1), each with plain-English tests that must pass and tests that must fail,
 * run by the instruction interpreter as the worker runs it. Reports the share of correct verdicts
 * per app and per phrasing family, the median time per step, and every wrong verdict.
 *
 *   node bench/real-apps.ts            # needs the built libs/browser-agent (pnpm run build)
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
function packageDir(name: string, version: string, alias: string): string {
  const dir = join(CACHE, `${alias}-${version}`);
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
  const apps = new Map(REAL_APPS.map((app) => [`/apps/${app.name}`, app.html]));
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

interface Outcome {
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

function report(outcomes: readonly Outcome[]): string {
  const steps = outcomes.flatMap((o) => o.stepMs);
  const falseSuccess = outcomes.filter((o) => o.expect === 'failed' && o.verdict === 'succeeded');
  const lines = [
    '# Real-app benchmark',
    '',
    `Correct verdicts: ${share(outcomes)}; tests that must fail but succeeded: ${falseSuccess.length}; median time per step: ${round(percentile(steps, 50), 0)} ms (p90 ${round(percentile(steps, 90), 0)} ms, ${steps.length} steps).`,
    '',
    '| app | library | correct |',
    '| --- | --- | --- |',
    ...REAL_APPS.map(
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

async function main(): Promise<void> {
  const roots: Record<string, string> = {};
  for (const pkg of PACKAGES) roots[pkg.alias] = packageDir(pkg.name, pkg.version, pkg.alias);
  const { url, server } = await serve(roots);
  const browser = await launchLocalBrowser();
  const outcomes: Outcome[] = [];
  try {
    for (const app of REAL_APPS) {
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
          console.log(`${outcome.correct ? 'ok  ' : 'WRONG'} ${app.name} [${test.family}] ${outcome.query}`);
          if (!outcome.correct) console.log(`      ${result.summary}`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const results = join(ROOT, 'bench', 'results');
  const file = join(results, 'real-apps.md');
  // Formatted as the repository formats Markdown, so a run leaves the file as `prettier --check` wants it.
  const markdown = await prettier.format(report(outcomes), {
    ...((await prettier.resolveConfig(file)) ?? {}),
    filepath: file,
  });
  writeFileSync(file, markdown);
  writeFileSync(join(results, 'real-apps.json'), `${JSON.stringify(outcomes, null, 2)}\n`);
  console.log(`\n${markdown}`);
  if (outcomes.some((o) => o.expect === 'failed' && o.verdict === 'succeeded')) process.exitCode = 1;
}

await main();
