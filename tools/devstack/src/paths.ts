import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this file that holds pnpm-workspace.yaml. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the repository root (pnpm-workspace.yaml)');
    dir = parent;
  }
  return dir;
}

export const dataDir = (): string => process.env.SUITE_DATA_DIR || join(repoRoot(), '.data');
