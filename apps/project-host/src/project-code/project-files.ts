import { AuthError, AuthErrorCode } from '@suite/errors';
import type { ProjectFiles } from '@suite/project-runtime';
import { Parser, type ReadEntry } from 'tar';
import { gunzipSync } from 'node:zlib';

/** Project code as deployed: relative path → text. Only `api/`, `hooks/`, `jobs/`, `mcp/` and `.env` are kept. */
export { parseEnv, type ProjectFiles } from '@suite/project-runtime';

export const MAX_FILES = 500;
export const MAX_TOTAL_BYTES = 5 * 1024 * 1024;
const CODE_FILE = /\.(ts|mts|js|mjs|json)$/;

const invalid = (message: string) => new AuthError(AuthErrorCode.InvalidRequest, message);

/** A safe relative path inside api/, hooks/, jobs/ or mcp/, or `.env`; anything else is refused or skipped. */
export function normalisePath(raw: string): string | undefined {
  const path = raw.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (path === '.env') return path;
  if (!/^(api|hooks|jobs|mcp)\//.test(path)) return undefined;
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw invalid(`The path ${raw} is not a plain relative path.`);
  }
  return CODE_FILE.test(path) ? path : undefined;
}

function collect(entries: Iterable<[string, string]>): ProjectFiles {
  const files: ProjectFiles = {};
  let total = 0;
  let count = 0;
  for (const [raw, text] of entries) {
    const path = normalisePath(raw);
    if (!path) continue;
    total += Buffer.byteLength(text);
    if (++count > MAX_FILES || total > MAX_TOTAL_BYTES) {
      throw invalid(`Project code is limited to ${MAX_FILES} files and ${MAX_TOTAL_BYTES} bytes.`);
    }
    files[path] = text;
  }
  return files;
}

/** `{ files: { "api/x.ts": "..." } }` or the map itself. */
export function filesFromJson(body: unknown): ProjectFiles {
  const map =
    typeof body === 'object' && body !== null && 'files' in body ? (body as { files: unknown }).files : body;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw invalid('The body must be a tar.gz archive or a JSON object {"files": {"api/x.ts": "..."}}.');
  }
  const entries = Object.entries(map as Record<string, unknown>).map(([path, text]): [string, string] => {
    if (typeof text !== 'string') throw invalid(`The content of ${path} must be a string.`);
    return [path, text];
  });
  return collect(entries);
}

/** A gzipped tar of the project (regular files only; links and the rest are skipped). */
export async function filesFromTarGz(archive: Buffer): Promise<ProjectFiles> {
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(archive, { maxOutputLength: MAX_TOTAL_BYTES * 4 });
  } catch {
    throw invalid('The body is not a gzip archive.');
  }
  const entries: [string, string][] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (entry.type !== 'File') return entry.resume();
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => entries.push([entry.path, Buffer.concat(chunks).toString('utf8')]));
      },
    });
    parser.on('error', reject);
    parser.on('end', resolve);
    parser.end(tarBytes);
  }).catch(() => {
    throw invalid('The body is not a valid tar.gz archive.');
  });
  return collect(entries);
}

/** `api/boards/list.ts` → `/api/boards/list`; `api/index.ts` → `/api`; undefined for reserved or non-entries. */
export function routeOf(path: string): string | undefined {
  const match = /^api\/(.+)\.(ts|mts|js|mjs)$/.exec(path);
  if (!match) return undefined;
  const segments = match[1]!.split('/');
  if (segments.some((s) => s.startsWith('_'))) return undefined;
  if (segments[segments.length - 1] === 'index') segments.pop();
  // api/user.ts and api/user/** are reserved for the platform's /api/user routes.
  if (segments[0] === 'user') return undefined;
  return ['/api', ...segments].join('/');
}

/** `jobs/welcome.ts` → `welcome`, `jobs/mail/digest.ts` → `mail/digest`; undefined for helpers (`_x`) and non-entries. */
export function jobOf(path: string): string | undefined {
  const match = /^jobs\/(.+)\.(ts|mts|js|mjs)$/.exec(path);
  if (!match) return undefined;
  const segments = match[1]!.split('/');
  if (segments.some((s) => s.startsWith('_') || !/^[A-Za-z0-9_-]+$/.test(s))) return undefined;
  return segments.join('/');
}

/** `mcp/notes/add.ts` is a tool entry; helpers (`_x`, `_lib/…`) and non-code files are not. */
export function isMcpToolEntry(path: string): boolean {
  const match = /^mcp\/(.+)\.(ts|mts|js|mjs)$/.exec(path);
  return !!match && !match[1]!.split('/').some((s) => s.startsWith('_'));
}
