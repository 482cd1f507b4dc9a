import { basename } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { parseDuration } from './duration.js';
import { TestFileError, type TestFile, type TestStep } from './test-file.js';

const KEYS = ['title', 'url', 'start_url', 'tags', 'timeout', 'model', 'secrets'] as const;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
const SECRET_USE = /\{\{\s*secret\.([A-Za-z0-9_]+)\s*\}\}/g;

interface FrontMatter {
  title?: string;
  url?: string;
  tags: string[];
  timeoutMs?: number;
  model?: string;
  secrets: Record<string, string>;
  lines: Record<string, number>;
}

/**
 * Reads one test file: optional YAML front matter between `---` lines, then one step per line (a
 * Markdown list, numbered or not, or plain lines; headings, comments and code fences are skipped).
 */
export function parseTestFile(file: string, source: string): TestFile {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  let bodyStart = 0;
  let front: FrontMatter = { tags: [], secrets: {}, lines: {} };
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
    if (end < 0) throw new TestFileError(file, 1, 'the front matter opened here is never closed with "---"');
    front = readFrontMatter(file, lines.slice(1, end).join('\n'), 2);
    bodyStart = end + 1;
  }
  const { steps, heading } = readSteps(lines, bodyStart);
  if (steps.length === 0)
    throw new TestFileError(
      file,
      lines.length,
      'no steps: write one instruction per line (or a Markdown list)',
    );
  for (const step of steps)
    for (const [, name] of step.text.matchAll(SECRET_USE))
      if (!(name! in front.secrets))
        throw new TestFileError(
          file,
          step.line,
          `{{secret.${name}}} is used but not declared: add "secrets: { ${name}: ENV_VAR_NAME }" to the front matter`,
        );
  return {
    file,
    title: front.title ?? heading ?? basename(file).replace(/\.test\.md$|\.md$|\.txt$/i, ''),
    ...(front.url !== undefined ? { url: front.url } : {}),
    tags: front.tags,
    ...(front.timeoutMs !== undefined ? { timeoutMs: front.timeoutMs } : {}),
    ...(front.model !== undefined ? { model: front.model } : {}),
    secrets: front.secrets,
    ...(Object.keys(front.lines).length > 0 ? { lines: front.lines } : {}),
    steps,
  };
}

function readSteps(lines: string[], from: number): { steps: TestStep[]; heading?: string } {
  const steps: TestStep[] = [];
  let heading: string | undefined;
  let inComment = false;
  let inFence = false;
  for (let i = from; i < lines.length; i++) {
    let line = lines[i]!.trim();
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    if (/^(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line === '') continue;
    if (line.startsWith('<!--')) {
      if (!line.includes('-->')) inComment = true;
      continue;
    }
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title) {
      if (steps.length === 0 && heading === undefined) heading = title[1]!.trim();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) line = item[1]!.trim();
    if (line !== '') steps.push({ text: line, line: i + 1 });
  }
  return { steps, ...(heading !== undefined ? { heading } : {}) };
}

function readFrontMatter(file: string, text: string, firstLine: number): FrontMatter {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined): number =>
    counter.linePos(node?.range?.[0] ?? 0).line + firstLine - 1;
  const error = doc.errors[0];
  if (error) {
    const line = counter.linePos(error.pos[0]).line + firstLine - 1;
    throw new TestFileError(file, line, `front matter is not valid YAML: ${error.message.split('\n')[0]}`);
  }
  const out: FrontMatter = { tags: [], secrets: {}, lines: {} };
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return out;
  if (!isMap(doc.contents))
    throw new TestFileError(file, lineOf(doc.contents), 'front matter must be "key: value" lines');
  for (const pair of doc.contents.items as Pair<Node, Node | null>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const line = lineOf(pair.key);
    const fail = (reason: string): never => {
      throw new TestFileError(file, line, reason);
    };
    const value: unknown = pair.value?.toJSON();
    out.lines[key === 'start_url' ? 'url' : key] = line;
    switch (key as (typeof KEYS)[number]) {
      case 'title':
      case 'model':
        if (typeof value !== 'string' || value.trim() === '') fail(`"${key}" must be a non-empty text`);
        out[key as 'title' | 'model'] = (value as string).trim();
        break;
      case 'url':
      case 'start_url':
        if (typeof value !== 'string' || value.trim() === '')
          fail(`"${key}" must be a URL, absolute or relative to --base-url (e.g. /login)`);
        out.url = (value as string).trim();
        break;
      case 'tags': {
        const tags = typeof value === 'string' ? value.split(/[\s,]+/) : value;
        if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string' || typeof tag === 'number'))
          fail('"tags" must be a list of words, e.g. [smoke, checkout]');
        out.tags = (tags as unknown[]).map(String).filter((tag) => tag !== '');
        break;
      }
      case 'timeout': {
        const ms = parseDuration(value);
        if (ms === undefined)
          fail('"timeout" must be a duration such as 90s, 2m or 1500ms (a number means seconds)');
        out.timeoutMs = ms;
        break;
      }
      case 'secrets':
        out.secrets = readSecrets(pair.value, (node, reason) => {
          throw new TestFileError(file, node ? lineOf(node) : line, reason);
        });
        break;
      default:
        fail(`unknown front matter key "${key}" (known: ${KEYS.join(', ')})`);
    }
  }
  return out;
}

/** `secrets: { PASSWORD: E2E_PASSWORD }` (name → env var) or `secrets: [E2E_PASSWORD]` (same name). */
function readSecrets(
  value: Node | null,
  fail: (node: Node | null | undefined, reason: string) => never,
): Record<string, string> {
  const entries: [Node | null | undefined, unknown, unknown][] = isSeq(value)
    ? value.items.map((item) => [item as Node, (item as Node).toJSON(), (item as Node).toJSON()])
    : isMap(value)
      ? (value.items as Pair<Node, Node | null>[]).map((pair) => [
          pair.key,
          pair.key?.toJSON(),
          pair.value?.toJSON(),
        ])
      : fail(
          value,
          '"secrets" must map a secret name to the environment variable holding it, e.g. { PASSWORD: E2E_PASSWORD }',
        );
  const secrets: Record<string, string> = {};
  for (const [node, name, env] of entries) {
    if (typeof name !== 'string' || !NAME.test(name) || typeof env !== 'string' || !NAME.test(env))
      fail(
        node,
        `"secrets" entries are NAME: ENV_VAR with letters, digits and _ (got ${JSON.stringify(name)}: ${JSON.stringify(env)}); values come from the environment, never from the file`,
      );
    secrets[name as string] = env as string;
  }
  return secrets;
}
