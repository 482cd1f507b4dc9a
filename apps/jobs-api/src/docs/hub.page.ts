import { SUITE_VERSION } from '@suite/config';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The documentation hub at `/`: what the service is, where everything is, copy-paste examples. */
export function renderHubPage(origin: string): string {
  const o = esc(origin);
  const example = (title: string, code: string) =>
    `<section><h3>${title}</h3><pre><code>${esc(code)}</code></pre></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Browser Test Runner</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/base.css">
<link rel="stylesheet" href="/assets/runner.css">
<script type="module" src="/assets/runner.js"></script>
</head>
<body>
<header>
  <h1>Browser Test Runner <small>v${SUITE_VERSION}</small></h1>
  <p class="intro">Describe a browser test in plain English; a worker runs it in Chromium, records a video and an agent log, and tells you whether it passed.</p>
  <div id="key-slot"></div>
</header>
<nav aria-label="Documentation">
  <ul>
    <li><a href="/suites">Your suites</a></li>
    <li><a href="/docs">Interactive API docs</a></li>
    <li><a href="/openapi.json">OpenAPI document</a></li>
    <li><a href="/.well-known/agent-card.json">A2A agent card</a></li>
    <li><a href="/health">Health</a></li>
  </ul>
</nav>
<main>
  <section id="new-test" aria-labelledby="new-heading">
    <h2 id="new-heading">Run a test</h2>
    <form id="submit-form" novalidate hidden>
      <div class="field">
        <label for="test-query">Test instructions</label>
        <textarea id="test-query" name="query" rows="5" required aria-describedby="test-query-hint"
          placeholder="Open https://example.com&#10;Check that the title contains &quot;Example Domain&quot;&#10;Click &quot;Learn more&quot;"></textarea>
        <p id="test-query-hint" class="hint">One step per line or sentence. The built-in interpreter checks the steps before the test is queued.</p>
      </div>
      <div class="field">
        <label for="test-url">Start URL (optional)</label>
        <input id="test-url" name="initial_url" type="url" inputmode="url" placeholder="https://example.com" aria-describedby="test-url-hint">
        <p id="test-url-hint" class="hint">Opened first, unless the first step opens a page itself.</p>
      </div>
      <details>
        <summary>Options</summary>
        <div class="field-row">
          <div class="field">
            <label for="test-title">Title (optional)</label>
            <input id="test-title" name="title" maxlength="120" aria-describedby="test-title-hint">
            <p id="test-title-hint" class="hint">Shown in your job list; kept as <code>metadata.title</code>.</p>
          </div>
          <div class="field">
            <label for="test-model">Model</label>
            <select id="test-model" name="model"></select>
          </div>
          <div class="field">
            <label for="test-env">Browser</label>
            <select id="test-env" name="env">
              <option value="local_browser">Local Chromium</option>
              <option value="hosted_browser">Hosted browser</option>
            </select>
          </div>
        </div>
        <label class="check"><input type="checkbox" id="test-highlight" name="highlight_mouse" checked> Highlight the mouse in the video</label>
      </details>
      <div id="submit-problem" class="problem" tabindex="-1" hidden></div>
      <div class="actions">
        <button type="submit" id="submit-test">Run test</button>
        <span id="submit-status" role="status"></span>
      </div>
    </form>
    <p data-needs-key class="muted">Save your API key above to run tests and see your jobs.</p>
  </section>
  <section id="recent-jobs" aria-labelledby="recent-heading" hidden>
    <h2 id="recent-heading">Your jobs</h2>
    <div id="jobs-view">
      <form id="job-filters" class="filters" role="search" aria-label="Filter your jobs">
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">All</option>
            <option value="queued">Queued</option>
            <option value="running">Running</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="cancelled">Cancelled</option>
          </select>
        </div>
        <div class="field">
          <label for="filter-q">Search</label>
          <input id="filter-q" name="q" type="search" maxlength="200" placeholder="Words from the test or its title">
        </div>
      </form>
      <p id="jobs-error" class="error" role="alert" hidden></p>
      <table id="jobs-table" class="stack">
        <caption class="visually-hidden">Your jobs, newest first; kept up to date every few seconds</caption>
        <thead><tr><th scope="col">Test</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Duration</th></tr></thead>
        <tbody></tbody>
      </table>
      <p data-empty hidden>No jobs yet: run one with the form above.</p>
      <nav class="pager" aria-label="Job list pages">
        <button type="button" id="page-newer" disabled>← Newer</button>
        <span id="page-label"></span>
        <button type="button" id="page-older" disabled>Older →</button>
      </nav>
      <p id="jobs-announce" class="visually-hidden" aria-live="polite"></p>
    </div>
  </section>
  <h2>Examples</h2>
  <p>Every call needs an API key: <code>Authorization: Bearer $KEY</code> or <code>X-API-Key: $KEY</code>. <code>make start</code> prints one.</p>
  ${example(
    'Submit a test',
    `curl -s ${origin}/v1/jobs -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{
  "query": "Open https://example.com. Check that the title contains \\"Example Domain\\". Click \\"Learn more\\".",
  "initial_url": "https://example.com"
}'`,
  )}
  ${example('Follow it', `curl -s ${origin}/v1/jobs/$JOB_ID -H "Authorization: Bearer $KEY"`)}
  ${example('Read the agent log (text, or NDJSON)', `curl -s ${origin}/v1/jobs/$JOB_ID/log -H "Authorization: Bearer $KEY"\ncurl -s ${origin}/v1/jobs/$JOB_ID/log -H "Authorization: Bearer $KEY" -H 'Accept: application/x-ndjson'`)}
  ${example('Download the video', `curl -s ${origin}/v1/jobs/$JOB_ID/video -H "Authorization: Bearer $KEY" -o test.mp4`)}
  ${example(
    'A2A (JSON-RPC 2.0)',
    `curl -s ${origin}/a2a -H "Authorization: Bearer $KEY" -H 'A2A-Version: 1.0' -H 'Content-Type: application/json' -d '{
  "jsonrpc": "2.0", "id": 1, "method": "SendMessage",
  "params": {"message": {"role": "ROLE_USER", "messageId": "m1", "parts": [{"text": "Open https://example.com and check the page contains \\"Example\\""}]}}
}'`,
  )}
  ${example('MCP (streamable HTTP)', `npx @modelcontextprotocol/inspector --transport http --server-url ${origin}/mcp`)}
  <h2>Writing tests</h2>
  <p>Steps can be a numbered or bulleted list, sentences, or a chain joined by “then”. The built-in interpreter understands: open/go to a URL, go back, reload, click/press/tap, type “text” into a field, fill a field with “text”, press Enter/Tab/Escape, select “option” from a dropdown, check/uncheck, hover, scroll, wait N seconds, wait for “text”, and assertions on page text, title, URL, visibility, state and values. Without an LLM provider, a step it does not understand fails the job before the browser starts, with the list of phrasings it knows; the form above checks first and refuses such a test, as <code>POST /v1/instructions/check</code> does without queueing anything. With a provider configured, the model resolves such a step once and the actions it took are replayed offline on later runs.</p>
</main>
<footer><p>Origin: <code>${o}</code></p></footer>
</body>
</html>`;
}
