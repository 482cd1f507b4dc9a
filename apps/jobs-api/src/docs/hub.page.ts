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
<style>
  :root { color-scheme: light dark; --accent: #2563eb; }
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
  header p { color: GrayText; margin-top: 0; }
  nav ul { display: flex; flex-wrap: wrap; gap: .75rem; list-style: none; padding: 0; }
  nav a { display: inline-block; padding: .4rem .8rem; border: 1px solid var(--accent); border-radius: .4rem; text-decoration: none; color: var(--accent); }
  nav a:focus-visible, nav a:hover { background: var(--accent); color: white; outline: none; }
  pre { background: rgba(127,127,127,.12); padding: .8rem; border-radius: .4rem; overflow-x: auto; }
  code { font: 14px/1.4 ui-monospace, monospace; }
</style>
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
