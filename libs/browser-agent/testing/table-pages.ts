import { page } from './local-site.js';

const PEOPLE = [
  ['Ada Lovelace', 'ada@x.io', 'Mathematics', '36'],
  ['Grace Hopper', 'grace@x.io', 'Navy', '85'],
  ['Linus Torvalds', 'linus@x.io', 'Kernel', '54'],
  ['Alan Turing', 'alan@x.io', 'Computing', '41'],
  ['Adam Smith', 'adam@x.io', 'Economics', '67'],
];

const rowsHtml = (people: string[][]) =>
  people.map((p) => `<tr>${p.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('');

/**
 * A users table filtered 300 ms after typing stops (a debounced search, as grids do), with a
 * header row, a footer of totals and a "No matching records found" row when nothing matches; a
 * second, named table of teams beside it.
 */
export const DEBOUNCED_TABLE = page(
  'Users',
  `<h2>Users</h2>
  <label>Search <input id="q" type="search"></label>
  <table id="users"><caption>Users</caption>
    <thead><tr><th>Name</th><th>Email</th><th>Team</th><th>Age</th></tr></thead>
    <tbody>${rowsHtml(PEOPLE)}<tr class="none" hidden><td colspan="4">No matching records found</td></tr></tbody>
    <tfoot><tr><td>Total</td><td></td><td></td><td>5 people</td></tr></tfoot>
  </table>
  <h2>Teams</h2>
  <table aria-label="Teams"><tr><th>Team</th><th>Lead</th></tr><tr><td>Navy</td><td>Grace</td></tr></table>
  <script>
    let timer;
    q.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const want = q.value.toLowerCase();
        let shown = 0;
        for (const row of document.querySelectorAll('#users tbody tr:not(.none)')) {
          const hit = row.textContent.toLowerCase().includes(want);
          row.style.display = hit ? '' : 'none';
          if (hit) shown += 1;
        }
        document.querySelector('#users .none').hidden = shown > 0;
      }, 300);
    });
  </script>`,
);

/** One table only, its rows sorted by a click on a header; data arrives 400 ms after load. */
export const LOADING_TABLE = page(
  'Orders',
  `<table><thead><tr><th aria-sort="none" id="by-name">Name</th><th>Price</th></tr></thead><tbody id="body">
  <tr><td colspan="2" class="loading">Loading…</td></tr></tbody></table>
  <script>
    const orders = [['Blue mug', '€12'], ['Anvil', '€120'], ['Cup', '€2']];
    let drawn = false;
    const draw = (list) => { drawn = true; body.innerHTML = list.map(([n, p]) => '<tr><td>' + n + '</td><td>' + p + '</td></tr>').join(''); };
    setTimeout(() => drawn || draw(orders), 400);
    document.getElementById('by-name').addEventListener('click', (e) => {
      const down = e.target.getAttribute('aria-sort') === 'ascending';
      e.target.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      draw([...orders].sort((a, b) => (down ? -1 : 1) * a[0].localeCompare(b[0])));
    });
  </script>`,
);

/**
 * An ARIA grid drawn with divs as ag-grid draws it: header and body in separate containers, each
 * body row split over a pinned-left and a centre container joined by aria-rowindex, rows placed
 * out of DOM order, and 1,000 rows of which only 3 are rendered (aria-rowcount says so).
 */
export const DIV_GRID = page(
  'Grid',
  `<div role="grid" aria-label="Cars" aria-rowcount="1001" aria-colcount="3" style="width:500px">
    <div role="rowgroup" class="grid-header">
      <div role="row" aria-rowindex="1"><span role="columnheader" aria-colindex="1">Make</span><span role="columnheader" aria-colindex="2" aria-sort="ascending">Model</span><span role="columnheader" aria-colindex="3">Price</span></div>
    </div>
    <div role="rowgroup" class="pinned-left">
      <div role="row" aria-rowindex="3"><span role="gridcell" aria-colindex="1">Ford</span></div>
      <div role="row" aria-rowindex="2"><span role="gridcell" aria-colindex="1">Toyota</span></div>
      <div role="row" aria-rowindex="4"><span role="gridcell" aria-colindex="1">Porsche</span></div>
    </div>
    <div role="rowgroup" class="center">
      <div role="row" aria-rowindex="3"><span role="gridcell" aria-colindex="2">Mondeo</span><span role="gridcell" aria-colindex="3">32000</span></div>
      <div role="row" aria-rowindex="2"><span role="gridcell" aria-colindex="2">Celica</span><span role="gridcell" aria-colindex="3">35000</span></div>
      <div role="row" aria-rowindex="4"><span role="gridcell" aria-colindex="2">Boxster</span><span role="gridcell" aria-colindex="3">72000</span></div>
    </div>
  </div>`,
);

/** A short grid with a quick filter that applies 300 ms after typing, no virtualisation. */
export const SMALL_GRID = page(
  'Small grid',
  `<input aria-label="Filter" id="f">
  <div role="grid" id="g">
    <div role="row"><span role="columnheader">Name</span><span role="columnheader">City</span></div>
    <div role="row" data-name="ada"><span role="gridcell">Ada</span><span role="gridcell">London</span></div>
    <div role="row" data-name="grace"><span role="gridcell">Grace</span><span role="gridcell">New York</span></div>
    <div role="row" data-name="linus"><span role="gridcell">Linus</span><span role="gridcell">Helsinki</span></div>
  </div>
  <div id="none" hidden>No rows to show</div>
  <script>
    let t;
    f.addEventListener('input', () => { clearTimeout(t); t = setTimeout(() => {
      let n = 0;
      for (const row of document.querySelectorAll('#g [data-name]')) {
        const keep = row.textContent.toLowerCase().includes(f.value.toLowerCase());
        if (keep) n++;
        row.style.display = keep ? '' : 'none';
      }
      none.hidden = n > 0;
    }, 300); });
  </script>`,
);

/** Pagination drawn as DataTables does: numbered buttons, the current one marked. */
export const PAGED_LIST = page(
  'Paged',
  `<table><thead><tr><th>N</th></tr></thead><tbody><tr><td>11</td></tr></tbody></table>
  <nav class="pagination" aria-label="pagination"><button>1</button><button class="current" aria-current="page">2</button><button>3</button><button>4</button><button>5</button></nav>`,
);
