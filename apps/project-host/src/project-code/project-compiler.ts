import { Injectable } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProjectFiles } from './project-files.js';

/** Where `@suite/platform-sdk` lives: it is bundled into every entry, so project code needs no install. */
const SDK_ENTRY = fileURLToPath(import.meta.resolve('@suite/platform-sdk'));

/**
 * Bundles each entry (one file per API route and per job, and hooks/auth.ts) with esbuild: platform node,
 * format esm, everything it imports inlined. Files outside the deployment cannot be imported.
 */
@Injectable()
export class ProjectCompiler {
  async compile(files: ProjectFiles, entries: string[]): Promise<Record<string, string>> {
    const dir = await mkdtemp(join(tmpdir(), 'project-code-'));
    try {
      for (const [path, text] of Object.entries(files)) {
        if (path === '.env') continue;
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      const bundles: Record<string, string> = {};
      for (const entry of entries) {
        // api/ files import within api/, hooks/auth.ts within hooks/, jobs within jobs/.
        const root = join(dir, entry.split('/')[0]!);
        try {
          const result = await build({
            absWorkingDir: dir,
            entryPoints: [join(dir, entry)],
            bundle: true,
            platform: 'node',
            format: 'esm',
            target: 'node22',
            write: false,
            logLevel: 'silent',
            alias: { '@suite/platform-sdk': SDK_ENTRY },
            plugins: [
              {
                name: 'stay-inside-the-project',
                setup(b) {
                  b.onResolve({ filter: /.*/ }, (args) => {
                    if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
                    if (args.path === SDK_ENTRY || args.importer.startsWith(dirname(SDK_ENTRY)))
                      return undefined;
                    if (args.path.startsWith('.') || args.path.startsWith('/')) {
                      const target = args.path.startsWith('/') ? args.path : join(args.resolveDir, args.path);
                      if (!target.startsWith(root + '/')) {
                        return { errors: [{ text: `${args.path} is outside ${entry.split('/')[0]}/` }] };
                      }
                      return undefined;
                    }
                    return undefined;
                  });
                },
              },
            ],
          });
          bundles[entry] = result.outputFiles[0]!.text;
        } catch (error) {
          const messages = (
            error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }
          ).errors;
          const detail = messages?.length
            ? messages
                .slice(0, 5)
                .map(
                  (m) =>
                    `${m.location ? `${m.location.file.replace(dir + '/', '')}:${m.location.line}: ` : ''}${m.text}`,
                )
                .join('; ')
            : (error as Error).message;
          throw new AuthError(AuthErrorCode.InvalidRequest, `${entry} does not compile: ${detail}`);
        }
      }
      return bundles;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
