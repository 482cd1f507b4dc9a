import { execFileSync } from 'node:child_process';
import { constants, copyFileSync, existsSync, mkdirSync, realpathSync, renameSync, statSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';

/** What a sandbox needs of the host to run Node: the executable and the shared libraries it loads. */
export interface NodeRuntime {
  /** The Node executable, at a path every user may read and execute. */
  executable: string;
  /** Shared libraries: [path on the host (resolved), path inside the sandbox (as the loader names it)]. */
  libraries: [string, string][];
}

/** Whether a user who is neither owner nor group can reach (search) the folder `dir`. */
export function reachableByOthers(dir: string): boolean {
  try {
    for (let current = realpathSync(dir); ; current = dirname(current)) {
      if (!(statSync(current).mode & constants.S_IXOTH)) return false;
      if (current === parse(current).root) return true;
    }
  } catch {
    return false;
  }
}

/** Whether a user who is neither owner nor group can reach and read (and, for `execute`, run) `path`. */
export function readableByOthers(path: string, execute = false): boolean {
  try {
    const real = realpathSync(path);
    const mode = statSync(real).mode;
    if (!(mode & constants.S_IROTH) || (execute && !(mode & constants.S_IXOTH))) return false;
    return reachableByOthers(dirname(real));
  } catch {
    return false;
  }
}

/**
 * The Node executable as a sandbox user can reach it: this one where every user may run it, else a
 * copy in `cacheDir` (kept across starts, one per executable version and size).
 */
function reachableExecutable(execPath: string, cacheDir: string): string {
  if (readableByOthers(execPath, true)) return realpathSync(execPath);
  const stat = statSync(execPath);
  const copy = join(cacheDir, `node-${process.version}-${stat.size}-${Math.trunc(stat.mtimeMs)}`);
  if (!existsSync(copy)) {
    mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
    const partial = `${copy}.${process.pid}.partial`;
    copyFileSync(execPath, partial);
    renameSync(partial, copy);
  }
  return copy;
}

/** The shared libraries `executable` loads, from ldd (glibc's loader lists them without running it). */
export function sharedLibraries(executable: string): [string, string][] {
  const output = execFileSync('ldd', [executable], { encoding: 'utf8', timeout: 10_000 });
  const libraries = new Map<string, string>();
  for (const line of output.split('\n')) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
    const path = /=>\s*(\/\S+)/.exec(line)?.[1] ?? /^\s*(\/\S+)\s+\(/.exec(line)?.[1];
    if (path && !libraries.has(path)) libraries.set(path, realpathSync(path));
  }
  if (libraries.size === 0) throw new Error(`ldd found no shared libraries of ${executable}`);
  return [...libraries].map(([inside, host]) => [host, inside]);
}

/** Node as the sandboxes see it; `cacheDir` receives a copy of the executable when it is not reachable. */
export function nodeRuntime(cacheDir: string, execPath: string = process.execPath): NodeRuntime {
  const executable = reachableExecutable(execPath, cacheDir);
  return { executable, libraries: sharedLibraries(executable) };
}
