import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join, relative } from 'node:path';
import { CODE_FOLDERS, isDeployedPath } from './project-files.js';

export interface ProjectWatcher {
  close(): void;
}

const DEBOUNCE_MS = 200;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Calls `onChange` once per burst of changes to deployed files (api/**, hooks/**, jobs/**, .env), with the
 * paths that changed. Editors save in several steps (temp file, rename): the burst is one change.
 *
 * One watcher per directory rather than `recursive: true`: a directory watch keeps reporting a
 * file that an editor replaced (write to a temp file, rename over), a per-file watch does not.
 */
export function watchProject(
  dir: string,
  onChange: (paths: string[]) => void,
  onError: (error: Error) => void,
): ProjectWatcher {
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const directories = (): string[] => {
    const found = [dir];
    const walk = (folder: string): void => {
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        return;
      }
      found.push(folder);
      for (const entry of entries) {
        if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(join(folder, entry.name));
      }
    };
    for (const name of CODE_FOLDERS) walk(join(dir, name));
    return found;
  };

  // Folders come and go (a new api/admin/, a deleted hooks/): keep one watcher per live folder.
  const sync = (): void => {
    if (closed) return;
    const live = new Set(directories());
    for (const [folder, watcher] of watchers) {
      if (!live.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of live) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, (event, filename) => changed(folder, event, filename?.toString()));
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch (error) {
        if (folder === dir) throw error;
      }
    }
  };

  const changed = (folder: string, event: string, filename: string | undefined): void => {
    if (event === 'rename') sync();
    const path = filename ? relative(dir, join(folder, filename)) : relative(dir, folder);
    if (!isDeployedPath(path)) return;
    pending.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...pending];
      pending.clear();
      try {
        sync();
      } catch (error) {
        onError(error as Error);
      }
      onChange(paths);
    }, DEBOUNCE_MS);
  };

  sync();
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
