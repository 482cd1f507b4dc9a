const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const head = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Browser Test Runner</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/base.css">
<link rel="stylesheet" href="/assets/runner.css">
<script type="module" src="/assets/runner.js"></script>
</head>`;

/**
 * The suites page's shell: /assets/runner.js fills it from `GET /v1/suites/overview` with the
 * caller's API key (so it shows only the key owner's suites).
 */
export function renderSuitesPage(): string {
  return `${head('Suites')}
<body>
<header>
  <p><a href="/">← Browser Test Runner</a></p>
  <h1>Suites</h1>
  <p class="intro">Suites kept by the runner (<code>browser-tests push</code>, <code>POST /v1/suites</code>): their last runs, the pass rate over them, and the tests that flip between passing and failing.</p>
  <div id="key-slot"></div>
</header>
<main id="suites-view" data-suites>
  <p data-needs-key class="muted">Save your API key above to see your suites.</p>
  <p id="suites-error" class="error" role="alert" hidden></p>
  <p id="suites-empty" hidden>No suites yet: push a folder of tests with <code>browser-tests push tests --suite NAME</code>.</p>
  <div id="suites-list"></div>
</main>
</body>
</html>`;
}

/** A suite run's page shell: filled from `GET /v1/suites/{id}/runs/{run_id}`, each test linking to its job page. */
export function renderSuiteRunPage(suiteId: string, runId: string): string {
  const suite = esc(suiteId);
  const run = esc(runId);
  return `${head(`Run ${run}`)}
<body>
<header>
  <p><a href="/suites">← Suites</a></p>
  <h1 id="run-title">Suite run</h1>
  <p>Run <code>${run}</code> <span id="run-status" role="status" aria-live="polite"></span></p>
  <div id="key-slot"></div>
</header>
<main data-suite-id="${suite}" data-run-id="${run}">
  <p data-needs-key class="muted">Save your API key above to see this run.</p>
  <p id="run-error" class="error" role="alert" hidden></p>
  <section id="run-section" aria-labelledby="run-tests-heading" hidden>
    <dl class="facts">
      <dt>Started</dt><dd id="run-created"></dd>
      <dt>Finished</dt><dd id="run-finished"></dd>
      <dt>Trigger</dt><dd id="run-trigger"></dd>
      <dt>Result</dt><dd id="run-counts"></dd>
    </dl>
    <h2 id="run-tests-heading">Tests</h2>
    <table id="run-tests" class="stack">
      <thead><tr><th scope="col">Test</th><th scope="col">Verdict</th><th scope="col">Failing step</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
</main>
</body>
</html>`;
}
