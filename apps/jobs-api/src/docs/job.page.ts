import { inlineScriptSource } from '@suite/nest-core';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Shows the exported test script once the job has finished (watching the status badge that
 * runner.js keeps up to date), with a Playwright/Puppeteer switch and a copy button.
 */
const SCRIPT_PANEL = `
const section = document.querySelector('#script-section');
const pre = document.querySelector('#job-script');
const note = document.querySelector('#script-note');
const jobId = document.querySelector('main').dataset.jobId;
const FINAL = ['succeeded', 'failed', 'cancelled'];
let shownFor = '';
async function load() {
  const status = document.querySelector('#job-status')?.textContent?.trim() ?? '';
  if (!FINAL.includes(status)) return;
  const format = document.querySelector('input[name="script-format"]:checked')?.value ?? 'playwright';
  if (shownFor === format + status) return;
  shownFor = format + status;
  const key = localStorage.getItem('runner:apiKey');
  if (!key) return;
  const res = await fetch('/v1/jobs/' + encodeURIComponent(jobId) + '/script?format=' + format, {
    headers: { authorization: 'Bearer ' + key },
  });
  section.hidden = false;
  if (res.ok) {
    pre.textContent = await res.text();
    note.textContent = format === 'playwright'
      ? 'Save it as a .spec.mjs file and run npx playwright test.'
      : 'Save it as a .mjs file and run node with puppeteer installed.';
    document.querySelector('#script-copy').disabled = false;
    return;
  }
  const body = await res.json().catch(() => ({}));
  pre.textContent = '';
  note.textContent = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join(' ') : String(body.detail ?? 'No script (' + res.status + ').');
  document.querySelector('#script-copy').disabled = true;
}
for (const radio of document.querySelectorAll('input[name="script-format"]')) radio.addEventListener('change', () => void load());
document.querySelector('#script-copy').addEventListener('click', async () => {
  const done = document.querySelector('#script-copied');
  try {
    await navigator.clipboard.writeText(pre.textContent);
    done.textContent = 'Copied.';
  } catch {
    getSelection().selectAllChildren(pre);
    done.textContent = 'Selected; press Ctrl+C to copy.';
  }
});
new MutationObserver(() => void load()).observe(document.querySelector('#job-status'), { childList: true, subtree: true, characterData: true });
void load();
`;

/** The CSP source that lets the job page's one inline script (and no other) run. */
export const JOB_PAGE_INLINE_SCRIPT = inlineScriptSource(SCRIPT_PANEL);

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
  <section aria-labelledby="video-heading">
    <h2 id="video-heading">Video</h2>
    <video id="job-video" controls preload="metadata" hidden aria-label="Recording of the test run"></video>
  </section>
  <section aria-labelledby="log-heading">
    <h2 id="log-heading">Agent log</h2>
    <pre id="job-log" class="log" tabindex="0" aria-label="Agent log"></pre>
  </section>
</main>
<script type="module">${SCRIPT_PANEL}</script>
</body>
</html>`;
}
