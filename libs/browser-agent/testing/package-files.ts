import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { Route } from './local-site.js';

const require = createRequire(import.meta.url);
const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Routes serving files of installed npm packages (this library's devDependencies) under
 * /pkg/<package>/<file>, so test pages load the real component libraries, offline.
 */
export function packageRoutes(files: readonly string[]): Record<string, Route> {
  const routes: Record<string, Route> = {};
  for (const file of files) {
    const [scopeOrName = '', maybeName = '', ...rest] = file.split('/');
    const scoped = scopeOrName.startsWith('@');
    const name = scoped ? `${scopeOrName}/${maybeName}` : scopeOrName;
    const inside = scoped ? rest.join('/') : [maybeName, ...rest].join('/');
    const path = join(dirname(require.resolve(`${name}/package.json`)), inside);
    routes[`/pkg/${file}`] = (_request, response) => {
      readFile(path).then(
        (body) => {
          response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
          response.end(body);
        },
        () => {
          response.writeHead(404);
          response.end();
        },
      );
    };
  }
  return routes;
}
