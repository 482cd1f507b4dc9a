import type { DomDocument, DomElement } from './page-dom.js';

// Evaluated inside the page: the function must be self-contained.
declare const document: DomDocument;

export interface TableRead {
  /** The caption, aria-label, aria-labelledby text or the heading just before it. */
  name: string;
  headers: string[];
  /** Visible data rows in display order, each as its cells' text. */
  rows: string[][];
  /** How many data rows the table says it has (a virtualised grid's aria-rowcount), when more than shown. */
  total: number | null;
  /** Per column: the sort its header announces (aria-sort or a library's sort class), if any. */
  sort: Array<'ascending' | 'descending' | null>;
  /** What a placeholder row says ("No matching records found"), when one is shown. */
  placeholder: string | null;
}

/**
 * The data tables and grids on the page (native `<table>`s and ARIA grids/tables such as ag-grid's
 * div rows), each read as people see it: header rows, hidden rows, footer rows and "no results" or
 * group rows that span the whole table are not data rows; an ARIA grid's row split over pinned and
 * centre containers is one row (joined by aria-rowindex), ordered by aria-rowindex and aria-colindex.
 */
export function readTables(): TableRead[] {
  const squeeze = (text: string | null | undefined) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  const visible = (el: DomElement): boolean => {
    if (!el.isConnected || el.closest('[hidden], [aria-hidden=true], template')) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const TABLES = 'table, [role=grid], [role=treegrid], [role=table]';
  const ROWS = 'tr, [role=row]';
  const CELLS = 'td, th, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]';
  const layout = (el: DomElement) => /^(?:presentation|none)$/.test(el.getAttribute('role') ?? '');
  const tableOf = (el: DomElement): DomElement | null => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node.matches(TABLES) && !layout(node)) return node;
    }
    return null;
  };
  const cellText = (cell: DomElement): string => {
    const field = cell.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, textarea')[0];
    const shown = squeeze(cell.innerText ?? cell.textContent);
    return shown || (field ? squeeze(field.value) : '');
  };
  const asNumber = (value: string | null): number | null => {
    const n = value === null ? NaN : Number(value);
    return Number.isFinite(n) ? n : null;
  };
  const sortOf = (cell: DomElement): 'ascending' | 'descending' | null => {
    const aria = cell.getAttribute('aria-sort');
    if (aria === 'ascending' || aria === 'descending') return aria;
    const classes = `${cell.getAttribute('class') ?? ''} ${Array.from(cell.querySelectorAll('[class]'))
      .map((inner) => inner.getAttribute('class') ?? '')
      .join(' ')}`;
    if (/(?:sorting|ordering|sort|sorted)[-_]?(?:asc|ascending)\b/i.test(classes)) return 'ascending';
    if (/(?:sorting|ordering|sort|sorted)[-_]?(?:desc|descending)\b/i.test(classes)) return 'descending';
    return null;
  };
  const nameOf = (table: DomElement): string => {
    const caption = table.querySelectorAll('caption')[0];
    if (caption) return squeeze(caption.textContent);
    const label = table.getAttribute('aria-label');
    if (label) return squeeze(label);
    const by = table.getAttribute('aria-labelledby');
    if (by) {
      return squeeze(
        by
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    }
    // The nearest heading before the table, in document order.
    const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading]'));
    let name = '';
    for (const heading of headings) {
      const position = (
        heading as unknown as { compareDocumentPosition(o: unknown): number }
      ).compareDocumentPosition(table);
      if (position & 4) name = squeeze(heading.textContent);
    }
    return name;
  };

  const shown = Array.from(document.querySelectorAll(TABLES)).filter(
    (table) => !layout(table) && visible(table),
  );
  // A table that holds another is a layout wrapper: the inner one holds the data.
  const candidates = shown.filter(
    (table) => !shown.some((other) => other !== table && table.contains(other)),
  );
  const reads: Array<TableRead & { headerOnly: boolean; element: DomElement }> = [];
  for (const table of candidates) {
    interface Row {
      index: number | null;
      header: boolean;
      cells: Array<{
        text: string;
        col: number | null;
        span: number;
        header: boolean;
        sort: TableRead['sort'][number];
      }>;
      order: number;
      classes: string;
    }
    const rows: Row[] = [];
    let order = 0;
    for (const row of Array.from(table.querySelectorAll(ROWS))) {
      if (layout(row) || tableOf(row) !== table) continue;
      const section = row.closest('thead, tbody, tfoot');
      if (section?.tagName === 'TFOOT' && tableOf(section) === table) continue;
      if (!visible(row)) continue;
      const cells = Array.from(row.querySelectorAll(CELLS))
        .filter((cell) => cell.closest(ROWS) === row && visible(cell))
        .map((cell) => {
          const role = cell.getAttribute('role') ?? '';
          return {
            text: cellText(cell),
            col: asNumber(cell.getAttribute('aria-colindex')),
            span: asNumber(cell.getAttribute('colspan')) ?? 1,
            header:
              role === 'columnheader' || (cell.tagName === 'TH' && role !== 'cell' && role !== 'gridcell'),
            sort: sortOf(cell),
          };
        });
      const inHead = section?.tagName === 'THEAD' || Boolean(row.closest('[role=rowgroup][class*=header i]'));
      const header = inHead || (cells.length > 0 && cells.every((cell) => cell.header));
      rows.push({
        index: asNumber(row.getAttribute('aria-rowindex') ?? row.getAttribute('row-index')),
        header,
        cells,
        order: order++,
        classes: row.getAttribute('class') ?? '',
      });
    }
    // A grid that draws one row in several containers (pinned left, centre, pinned right) marks
    // each part with the same aria-rowindex: join them.
    const joined: Row[] = [];
    const byIndex = new Map<string, Row>();
    for (const row of rows) {
      const key = row.index === null ? null : `${row.header ? 'h' : 'd'}${row.index}`;
      const same = key === null ? undefined : byIndex.get(key);
      if (same) {
        same.cells.push(...row.cells);
        continue;
      }
      const copy = { ...row, cells: [...row.cells] };
      joined.push(copy);
      if (key !== null) byIndex.set(key, copy);
    }
    for (const row of joined) {
      if (row.cells.every((cell) => cell.col !== null)) {
        row.cells.sort((a, b) => (a.col ?? 0) - (b.col ?? 0));
      }
    }
    joined.sort((a, b) => (a.index !== null && b.index !== null ? a.index - b.index : a.order - b.order));
    const headerRows = joined.filter((row) => row.header);
    const headerRow = headerRows[headerRows.length - 1];
    const headers = headerRow ? headerRow.cells.map((cell) => cell.text) : [];
    const sort = headerRow ? headerRow.cells.map((cell) => cell.sort) : [];
    const width = Math.max(headers.length, ...joined.map((row) => row.cells.reduce((n, c) => n + c.span, 0)));
    let placeholder: string | null = null;
    const data: string[][] = [];
    for (const row of joined) {
      if (row.header) continue;
      const filled = row.cells.filter((cell) => cell.text !== '');
      // A row with one cell across the whole table is a message ("No matching records found",
      // "Loading…") or a group label, not a record.
      const spanning =
        row.cells.length === 1 && width > 1 && ((row.cells[0]?.span ?? 1) >= width || headers.length > 1);
      const emptyClass =
        /(?:^|[\s_-])(?:empty|no-?data|no-?results|no-?rows|notfound|message|placeholder|loading)(?:$|[\s_-])/i.test(
          row.classes,
        );
      if (spanning || emptyClass || row.cells.length === 0) {
        if (filled.length > 0 && placeholder === null) placeholder = filled[0]?.text ?? null;
        continue;
      }
      data.push(row.cells.map((cell) => cell.text));
    }
    // A virtualised grid renders only the rows in view; aria-rowcount counts them all, headers too.
    const declared = asNumber(table.getAttribute('aria-rowcount'));
    const headerCount = new Set(headerRows.map((row) => row.index ?? row.order)).size;
    const total =
      declared !== null && declared >= 0 && declared - headerCount > data.length
        ? declared - headerCount
        : null;
    reads.push({
      name: nameOf(table),
      headers,
      rows: data,
      total,
      sort,
      placeholder,
      headerOnly:
        data.length === 0 &&
        placeholder === null &&
        table.querySelectorAll('tbody, [role=rowgroup]:not([class*=header i])').length === 0 &&
        headers.length > 0,
      element: table,
    });
  }
  // Leave out a table nested in another's cell only when the outer one has no data of its own, and
  // a header-only table (a scrolling table's fixed header) when other tables are there: its
  // headers go to the next table that shows none.
  const out: TableRead[] = [];
  let carried: string[] | null = null;
  for (const read of reads) {
    if (read.headerOnly && reads.length > 1) {
      carried = read.headers;
      continue;
    }
    const { headerOnly: _headerOnly, element: _element, ...table } = read;
    if (carried && table.headers.every((header) => header === '')) table.headers = carried;
    carried = null;
    out.push(table);
  }
  return out;
}
