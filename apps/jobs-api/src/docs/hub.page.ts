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
<script type="module" src="/assets/runner.js"></script>
</head>
<body>
<header>
  <h1>Browser Test Runner <small>v${SUITE_VERSION}</small></h1>
  <p>Describe a browser test in plain English; a worker runs it in Chromium, records a video and an agent log, and tells you whether it passed.</p>
</header>
<nav aria-label="Documentation">
  <ul>
    <li><a href="/docs">Interactive API docs</a></li>
    <li><a href="/openapi.json">OpenAPI document</a></li>
    <li><a href="/.well-known/agent-card.json">A2A agent card</a></li>
    <li><a href="/health">Health</a></li>
  </ul>
</nav>
<main>
  <section id="recent-jobs" aria-labelledby="recent-heading">
    <h2 id="recent-heading">Your recent jobs</h2>
    <div id="key-slot"></div>
    <table hidden>
      <caption class="visually-hidden">Recent jobs of this API key, newest first; refreshed every few seconds</caption>
      <thead><tr><th scope="col">Test</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
      <tbody aria-live="polite"></tbody>
    </table>
    <p data-empty hidden>No jobs yet: submit one with the example below.</p>
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
  <p>Steps can be a numbered or bulleted list, sentences, or a chain joined by “then”. The built-in interpreter understands: open/go to a URL, go back, reload, click/press/tap, type “text” into a field, fill a field with “text”, press Enter/Tab/Escape, select “option” from a dropdown, check/uncheck, hover, scroll, wait N seconds, wait for “text”, and assertions on page text, title, URL, visibility, state and values. A step it does not understand fails the job before the browser starts, with the list of phrasings it knows.</p>
</main>
<footer><p>Origin: <code>${o}</code></p></footer>
</body>
</html>`;
}
