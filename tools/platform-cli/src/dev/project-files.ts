import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Folders whose code files are deployed (`jobs/` needs a host that knows jobs; older ones skip it). */
export const CODE_FOLDERS = ['api', 'hooks', 'jobs', 'mcp'] as const;

/** What a deploy carries: code files of CODE_FOLDERS and `.env`, as relative path → text. */
export type ProjectFiles = Record<string, string>;

const CODE_FILE = /\.(ts|mts|js|mjs|json)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Whether a changed path (relative to the project directory) is part of a deploy (editors' temp files are not). */
export function isDeployedPath(path: string): boolean {
  const normalised = path.split(sep).join('/');
  if (normalised === '.env') return true;
  if (!CODE_FOLDERS.some((folder) => normalised.startsWith(`${folder}/`)) || !CODE_FILE.test(normalised))
    return false;
  return !normalised.split('/').some((part) => SKIPPED_DIRS.has(part));
}

export function collectProjectFiles(dir: string): ProjectFiles {
  const files: ProjectFiles = {};
  const walk = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // folder absent
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && CODE_FILE.test(entry.name)) {
        files[relative(dir, path).split(sep).join('/')] = readFileSync(path, 'utf8');
      }
    }
  };
  for (const folder of CODE_FOLDERS) walk(join(dir, folder));
  const envFile = join(dir, '.env');
  try {
    if (statSync(envFile).isFile()) files['.env'] = readFileSync(envFile, 'utf8');
  } catch {
    // no .env
  }
  return files;
}
