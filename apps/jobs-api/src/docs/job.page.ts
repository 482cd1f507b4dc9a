const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The job page's shell; /assets/runner.js fills it in live with the caller's API key. */
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
<script type="module" src="/assets/runner.js"></script>
</head>
<body>
<header>
  <p><a href="/">← Browser Test Runner</a></p>
  <h1>Job <code>${id}</code> <span id="job-status" role="status" aria-live="polite"></span></h1>
</header>
<main data-job-id="${id}">
  <div id="key-slot"></div>
  <p id="job-error" class="error" role="alert"></p>
  <section aria-labelledby="query-heading">
    <h2 id="query-heading">Test</h2>
    <pre id="job-query"></pre>
    <p id="job-meta"></p>
    <button id="job-rerun" type="button" hidden>Run again</button>
  </section>
  <section aria-labelledby="summary-heading">
    <h2 id="summary-heading">Summary</h2>
    <p id="job-summary" aria-live="polite"></p>
  </section>
  <section aria-labelledby="steps-heading">
    <h2 id="steps-heading">Steps</h2>
    <table>
      <thead><tr><th scope="col">#</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Outcome</th><th scope="col">Time</th><th scope="col">Error</th></tr></thead>
      <tbody id="job-steps"></tbody>
    </table>
  </section>
  <section aria-labelledby="video-heading">
    <h2 id="video-heading">Video</h2>
    <video id="job-video" controls preload="metadata" hidden aria-label="Recording of the test run"></video>
  </section>
  <section aria-labelledby="log-heading">
    <h2 id="log-heading">Agent log</h2>
    <pre id="job-log" class="log" tabindex="0" aria-label="Agent log"></pre>
  </section>
</main>
</body>
</html>`;
}
