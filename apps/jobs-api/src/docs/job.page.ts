const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The job page's shell; /assets/runner.js fills it in live with the caller's API key. Every
 * section starts hidden and shows once it has something to show.
 */
export function renderJobPage(jobId: string): string {
  const id = esc(jobId);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Job ${id} · Browser Test Runner</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/base.css">
<link rel="stylesheet" href="/assets/runner.css">
<script type="module" src="/assets/runner.js"></script>
</head>
<body>
<header>
  <p><a href="/">← Browser Test Runner</a></p>
  <h1 id="job-title">Job</h1>
  <p>Job <code>${id}</code> <span id="job-status" role="status" aria-live="polite"></span></p>
  <div id="key-slot"></div>
</header>
<main data-job-id="${id}">
  <p id="job-error" class="error" role="alert" hidden></p>
  <section id="overview-section" aria-label="About this job" hidden>
    <dl class="facts">
      <dt>Created</dt><dd id="job-created"></dd>
      <dt>Started</dt><dd id="job-started"></dd>
      <dt>Finished</dt><dd id="job-finished"></dd>
      <dt>Duration</dt><dd id="job-duration"></dd>
      <dt>Model</dt><dd id="job-model"></dd>
      <dt>Browser</dt><dd id="job-env"></dd>
      <dt>Start page</dt><dd id="job-start-url"></dd>
    </dl>
    <div class="actions">
      <button id="job-cancel" type="button" hidden>Cancel job</button>
      <button id="job-rerun" type="button" hidden>Run again</button>
      <span id="job-action-note" role="status"></span>
    </div>
  </section>
  <section id="query-section" aria-labelledby="query-heading" hidden>
    <h2 id="query-heading">Test</h2>
    <pre id="job-query" class="log"></pre>
  </section>
  <section id="summary-section" aria-labelledby="summary-heading" hidden>
    <h2 id="summary-heading">Summary</h2>
    <div id="job-summary" class="summary" aria-live="polite"></div>
  </section>
  <section id="steps-section" aria-labelledby="steps-heading" hidden>
    <h2 id="steps-heading">Steps</h2>
    <table class="stack">
      <thead><tr><th scope="col">#</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Outcome</th><th scope="col">Time</th><th scope="col">Video</th><th scope="col">Error</th></tr></thead>
      <tbody id="job-steps"></tbody>
    </table>
  </section>
  <section id="screenshot-section" aria-labelledby="screenshot-heading" hidden>
    <h2 id="screenshot-heading">Failure screenshot</h2>
    <img id="job-screenshot" class="screenshot" alt="">
  </section>
  <section id="video-section" aria-labelledby="video-heading" hidden>
    <h2 id="video-heading">Video</h2>
    <video id="job-video" controls preload="metadata" aria-label="Recording of the test run"></video>
  </section>
  <section id="script-section" aria-labelledby="script-heading" hidden>
    <h2 id="script-heading">Test script</h2>
    <p>The run as a test you can keep: it repeats what the agent did, with the same checks.</p>
    <fieldset>
      <legend>Format</legend>
      <label><input type="radio" name="script-format" value="playwright" checked> Playwright</label>
      <label><input type="radio" name="script-format" value="puppeteer"> Puppeteer</label>
    </fieldset>
    <p><button id="script-copy" type="button">Copy script</button> <span id="script-copied" role="status" aria-live="polite"></span></p>
    <p id="script-note"></p>
    <pre id="job-script" class="log" tabindex="0" aria-label="Exported test script"></pre>
  </section>
  <section id="log-section" aria-labelledby="log-heading" hidden>
    <h2 id="log-heading">Agent log</h2>
    <pre id="job-log" class="log" tabindex="0" aria-label="Agent log"></pre>
  </section>
</main>
</body>
</html>`;
}
