import { readFile, realpath } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Route } from './local-site.js';

/**
 * Pages built from real data-grid libraries (the browser agent's devDependencies), written as each
 * library's docs show them: DataTables (with jQuery), ag-grid and Grid.js. `/pkg/<name>/<file>`
 * serves the package's own files.
 */
const MODULES = fileURLToPath(new URL('../node_modules/', import.meta.url));

async function packageDir(name: string): Promise<string> {
  // DataTables' core comes with its styling package.
  if (name === 'datatables.net') return join(await realpath(join(MODULES, 'datatables.net-dt')), '..', name);
  return realpath(join(MODULES, name));
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
};

export const servePackageFile: Route = (request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const match = /^\/pkg\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(path);
  const fail = () => {
    response.writeHead(404);
    response.end();
  };
  if (!match?.[1] || !match[2]) return fail();
  const [name, file] = [match[1], match[2]];
  packageDir(name)
    .then(async (dir) => {
      const full = normalize(join(dir, file));
      if (!full.startsWith(dir + sep)) throw new Error('outside the package');
      const body = await readFile(full);
      response.writeHead(200, { 'content-type': TYPES[extname(full)] ?? 'application/octet-stream' });
      response.end(body);
    })
    .catch(fail);
};

const PEOPLE = [
  ['Ada Lovelace', 'ada@x.io', '36'],
  ['Grace Hopper', 'grace@x.io', '85'],
  ['Linus Torvalds', 'linus@x.io', '54'],
  ['Alan Turing', 'alan@x.io', '41'],
  ['Adam Smith', 'adam@x.io', '67'],
];

const doc = (title: string, head: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body style="font:14px sans-serif">${body}</body></html>`;

/** DataTables 2 on a plain table: search box, sortable headers, 3 rows a page. */
export const DATATABLES_PAGE = doc(
  'DataTables',
  '<link rel="stylesheet" href="/pkg/datatables.net-dt/css/dataTables.dataTables.css">',
  `<table id="people" class="display"><thead><tr><th>Name</th><th>Email</th><th>Age</th></tr></thead><tbody>
  ${PEOPLE.map((p) => `<tr>${p.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>
  <script src="/pkg/jquery/dist/jquery.min.js"></script>
  <script src="/pkg/datatables.net/js/dataTables.min.js"></script>
  <script>new DataTable('#people', { pageLength: 3, order: [] });</script>`,
);

/** ag-grid (community, v34 themes in JS): the Name column pinned left, a quick filter typed into a box. */
export const AG_GRID_PAGE = doc(
  'ag-grid',
  '<script src="/pkg/ag-grid-community/dist/ag-grid-community.min.js"></script>',
  `<label>Quick filter <input id="quick"></label>
  <div id="grid" style="height:320px;width:600px"></div>
  <script>
    agGrid.ModuleRegistry.registerModules([agGrid.AllCommunityModule]);
    const api = agGrid.createGrid(document.getElementById('grid'), {
      columnDefs: [{ field: 'name', headerName: 'Name', pinned: 'left' }, { field: 'email', headerName: 'Email' }, { field: 'age', headerName: 'Age', sortable: true }],
      rowData: ${JSON.stringify(PEOPLE.map(([name, email, age]) => ({ name, email, age: Number(age) })))},
    });
    let pending;
    document.getElementById('quick').addEventListener('input', (e) => {
      clearTimeout(pending);
      pending = setTimeout(() => api.setGridOption('quickFilterText', e.target.value), 300);
    });
  </script>`,
);

/** Grid.js with its own search box (debounced) and sorting. */
export const GRIDJS_PAGE = doc(
  'Grid.js',
  '<link rel="stylesheet" href="/pkg/gridjs/dist/theme/mermaid.min.css"><script src="/pkg/gridjs/dist/gridjs.umd.js"></script>',
  `<div id="wrapper"></div>
  <script>
    new gridjs.Grid({
      columns: ['Name', 'Email', 'Age'],
      data: ${JSON.stringify(PEOPLE)},
      search: true,
      sort: true,
    }).render(document.getElementById('wrapper'));
  </script>`,
);

export const REAL_GRID_ROUTES: Record<string, Route> = {
  '/datatables': DATATABLES_PAGE,
  '/ag-grid': AG_GRID_PAGE,
  '/gridjs': GRIDJS_PAGE,
};

/** The routes plus every `/pkg/<name>/<file>` (the local site looks routes up by exact path). */
export function withPackageFiles(routes: Record<string, Route>): Record<string, Route> {
  return new Proxy(routes, {
    get: (target, path) =>
      typeof path === 'string' && path.startsWith('/pkg/') ? servePackageFile : target[path as string],
  });
}
