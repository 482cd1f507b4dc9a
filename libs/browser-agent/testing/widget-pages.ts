import { page } from './local-site.js';

/**
 * Controls people name by how they look or what they do, built the way apps build them: text with a
 * click handler, an icon-only close mark, a toolbar of icon buttons named by class or tooltip, a
 * contenteditable comment box, and native search, range and number inputs without labels.
 */
export const LOOKS_PAGE = page(
  'Looks',
  `<style>.link{color:#06c;cursor:pointer} .x{cursor:pointer;display:inline-block;width:20px;height:20px}
  [role=dialog]{border:1px solid #999;padding:12px;margin:8px 0} .comment-editor{border:1px solid #999;min-height:40px;padding:4px}</style>
  <p>Need a hand? <span class="link" id="help">Help</span></p>
  <div tabindex="0" id="more">Show more</div>
  <div role="dialog" aria-labelledby="dlg-title" id="dlg">
    <span class="x" title="Close" id="close"><svg viewBox="0 0 10 10" width="20" height="20"><path d="M1 1L9 9M9 1L1 9" stroke="#333"/></svg></span>
    <h2 id="dlg-title">Delete account?</h2><p>This cannot be undone.</p>
    <button>Cancel</button> <button>Delete</button>
  </div>
  <div role="toolbar" aria-label="Formatting">
    <button type="button" class="tb tb-bold"><svg width="16" height="16"><rect width="16" height="16"/></svg></button>
    <button type="button" data-tooltip="Bullet list"><svg width="16" height="16"><circle cx="8" cy="8" r="4"/></svg></button>
    <button type="button" class="ql-list" value="ordered"><svg width="16" height="16"><rect width="8" height="8"/></svg></button>
  </div>
  <div class="comment-box"><div class="comment-editor" contenteditable="true"></div></div>
  <input type="search" placeholder="Find products" id="q">
  <input type="range" min="0" max="100" value="50" id="vol">
  <input type="number" value="1" id="qty">
  <p id="out"></p>
  <script>
  const out = (text) => { document.getElementById('out').textContent = text; };
  document.getElementById('help').addEventListener('click', () => out('Help opened'));
  document.getElementById('more').addEventListener('click', () => out('More shown'));
  document.getElementById('close').addEventListener('click', () => { document.getElementById('dlg').hidden = true; out('Dialog closed'); });
  document.querySelector('.tb-bold').addEventListener('click', () => out('Bold pressed'));
  document.querySelector('[data-tooltip]').addEventListener('click', () => out('Bullet list pressed'));
  document.querySelector('.ql-list').addEventListener('click', () => out('Numbered list pressed'));
  document.querySelector('.comment-editor').addEventListener('input', (e) => out('Comment: ' + e.target.innerText.trim()));
  document.getElementById('q').addEventListener('input', (e) => out('Searching ' + e.target.value));
  document.getElementById('vol').addEventListener('input', (e) => out('Volume ' + e.target.value));
  document.getElementById('qty').addEventListener('input', (e) => out('Quantity ' + e.target.value));
  </script>`,
);

/** The same kinds of page without those controls: each step naming one must fail, never pass. */
export const PLAIN_PAGE = page(
  'Plain',
  `<p>Need a hand? <span>Help</span> <button>Get help</button></p>
  <div role="dialog" aria-labelledby="t2"><h2 id="t2">Delete account?</h2><button>Cancel</button> <button>Delete</button></div>
  <div role="toolbar"><button type="button" title="Italic">I</button></div>
  <textarea aria-label="Notes" hidden></textarea>
  <input aria-label="Name">
  <table><thead><tr><th>Name</th><th>Orders</th></tr></thead><tbody><tr><td>Ada</td><td>3</td></tr><tr><td>Bea</td><td>12</td></tr></tbody></table>
  <p id="out"></p>`,
);

const OUT_SCRIPT = `<p id="out"></p><script>const out = (text) => { document.getElementById('out').textContent = text; };</script>`;

/** Native controls: a select, date and time inputs, a range and a number input. */
export const NATIVE_PAGE = page(
  'Native widgets',
  `${OUT_SCRIPT}
  <label>Fabric <select id="fabric" onchange="out('Fabric: ' + this.value)"><option>Cotton</option><option>Bobine</option><option>Linen</option></select></label>
  <label>Date <input type="date" id="date" onchange="out('Date ' + this.value)"></label>
  <label>Time <input type="time" id="time" onchange="out('Time ' + this.value)"></label>
  <label>Volume <input type="range" min="0" max="100" step="10" value="50" oninput="out('Volume ' + this.value)"></label>`,
);

/**
 * Widgets drawn without native controls, the way small libraries draw them: a dropdown of plain
 * list items, an ARIA slider and spinner moved by arrow keys, a menu bar with a hover sub-menu, a
 * sortable table, a tree, a disclosure and a contenteditable editor with a search box.
 */
export const CUSTOM_PAGE = page(
  'Custom widgets',
  `<style>.select-trigger{cursor:pointer;border:1px solid #999;padding:4px;width:160px}
  .dd-menu{list-style:none;margin:0;padding:0;border:1px solid #999;width:160px} .dd-menu li{cursor:pointer;padding:2px 4px}
  [role=slider]{display:inline-block;width:200px;height:12px;background:#ddd} [role=spinbutton]{display:inline-block;border:1px solid #999;padding:2px 8px}
  .menubar{display:flex;gap:8px} .menubar ul{list-style:none;border:1px solid #999;padding:4px;margin:0;position:absolute;background:#fff}
  .sub{position:relative} .sub > ul{display:none;left:100%;top:0} .sub:hover > ul{display:block}
  [role=tree] [aria-expanded=false] > [role=group]{display:none} .editor{border:1px solid #999;min-height:30px}</style>
  ${OUT_SCRIPT}
  <div class="height-select"><div class="select-trigger" id="height">Choose a height ▾</div>
    <ul class="dd-menu" hidden>${['5ft 8in', '5ft 9in', '5ft 10in'].map((h) => `<li>${h}</li>`).join('')}</ul></div>
  <p><span id="vol-label">Brightness</span> <span role="slider" tabindex="0" aria-labelledby="vol-label" aria-valuemin="0" aria-valuemax="100" aria-valuenow="50" id="slider"></span></p>
  <p><span id="qty-label">Quantity</span> <span role="spinbutton" tabindex="0" aria-labelledby="qty-label" aria-valuemin="-5" aria-valuemax="5" aria-valuenow="0" id="spin">0</span></p>
  <nav class="menubar"><div style="position:relative"><button id="file" aria-haspopup="true">File</button>
    <ul role="menu" id="file-menu" hidden><li role="menuitem">New</li><li role="menuitem" class="sub">Export ▸
      <ul role="menu"><li role="menuitem" onclick="out('Exported as PDF'); closeMenu()">PDF</li><li role="menuitem" onclick="out('Exported as PNG'); closeMenu()">PNG</li></ul></li></ul></div></nav>
  <table id="people"><thead><tr><th>Name</th><th>Orders</th></tr></thead>
    <tbody><tr><td>Bea</td><td>12</td></tr><tr><td>Ada</td><td>3</td></tr><tr><td>Cy</td><td>7</td></tr></tbody></table>
  <ul role="tree"><li role="treeitem" aria-expanded="false" id="docs"><span>Documents</span>
    <ul role="group"><li role="treeitem">Report.pdf</li></ul></li></ul>
  <details><summary>Shipping</summary><p>Ships in 2 days</p></details>
  <input type="search" placeholder="Search notes" id="search">
  <div class="editor" contenteditable="true" id="editor">Hello World, hello all</div>
  <script>
  const trigger = document.getElementById('height');
  const menu = document.querySelector('.dd-menu');
  trigger.addEventListener('click', () => { menu.hidden = !menu.hidden; });
  for (const li of menu.children) li.addEventListener('click', () => { trigger.textContent = li.textContent; menu.hidden = true; out('Height ' + li.textContent); });
  const keyed = (el, label) => el.addEventListener('keydown', (e) => {
    const step = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const next = Math.max(+el.getAttribute('aria-valuemin'), Math.min(+el.getAttribute('aria-valuemax'), +el.getAttribute('aria-valuenow') + step * (el.id === 'slider' ? 5 : 1)));
    el.setAttribute('aria-valuenow', String(next));
    if (el.id === 'spin') el.textContent = String(next);
    out(label + ' ' + next);
  });
  keyed(document.getElementById('slider'), 'Brightness');
  keyed(document.getElementById('spin'), 'Quantity');
  const closeMenu = () => { document.getElementById('file-menu').hidden = true; };
  document.getElementById('file').addEventListener('click', () => { const m = document.getElementById('file-menu'); m.hidden = !m.hidden; });
  let sorted = { column: -1, dir: 1 };
  document.querySelectorAll('#people th').forEach((th, column) => th.addEventListener('click', () => {
    sorted = { column, dir: sorted.column === column ? -sorted.dir : 1 };
    const body = document.querySelector('#people tbody');
    const rows = [...body.rows].sort((a, b) => sorted.dir * a.cells[column].textContent.localeCompare(b.cells[column].textContent, undefined, { numeric: true }));
    body.append(...rows);
  }));
  document.getElementById('docs').addEventListener('click', (e) => {
    if (e.target.closest('[role=group]')) return;
    const docs = document.getElementById('docs');
    docs.setAttribute('aria-expanded', docs.getAttribute('aria-expanded') === 'true' ? 'false' : 'true');
  });
  document.getElementById('search').addEventListener('keydown', (e) => { if (e.key === 'Enter') out('Results for ' + e.target.value); });
  document.getElementById('editor').addEventListener('input', (e) => out('Editor: ' + e.target.innerText));
  </script>`,
);

/** Tom Select on a native select, as its docs set it up. */
export const TOM_SELECT_PAGE = page(
  'Tom Select',
  `<link rel="stylesheet" href="/pkg/tom-select/dist/css/tom-select.css">
  <script src="/pkg/tom-select/dist/js/tom-select.complete.min.js"></script>
  ${OUT_SCRIPT}
  <div style="width:300px"><label for="fabric">Fabric</label>
  <select id="fabric" placeholder="Pick a fabric…"><option value="">Pick a fabric…</option><option value="cotton">Cotton</option><option value="bobine">Bobine</option><option value="linen">Linen</option></select></div>
  <script>new TomSelect('#fabric', { create: false, onChange: (v) => out('Fabric: ' + v) });</script>`,
);

/** jQuery UI widgets as their demos build them: autocomplete, selectmenu, spinner, menu, tabs, accordion. */
export const JQUERY_UI_PAGE = page(
  'jQuery UI',
  `<link rel="stylesheet" href="/pkg/jquery-ui/dist/themes/base/jquery-ui.css">
  <script src="/pkg/jquery/dist/jquery.min.js"></script><script src="/pkg/jquery-ui/dist/jquery-ui.min.js"></script>
  ${OUT_SCRIPT}
  <p><label for="city">City</label> <input id="city"></p>
  <p><label for="speed">Speed</label> <select id="speed"><option>Slower</option><option>Slow</option><option selected>Medium</option><option>Fast</option><option>Faster</option></select></p>
  <p><label for="temp">Temperature</label> <input id="temp" value="0"></p>
  <div id="bright" aria-label="Brightness" style="width:200px;margin:12px"></div>
  <div id="faq"><h3>How do I pay?</h3><div>By card or bank transfer.</div><h3>Do you ship abroad?</h3><div>Only within the EU.</div></div>
  <div id="tabs"><ul><li><a href="#t-ship">Shipping</a></li><li><a href="#t-bill">Billing</a></li></ul>
    <div id="t-ship">Ship to your door</div><div id="t-bill">Pay by card</div></div>
  <script>
  $('#city').autocomplete({ source: ['Berlin', 'Bern', 'Bergen', 'Paris'], select: (e, ui) => out('City: ' + ui.item.value) });
  $('#speed').selectmenu({ change: (e, ui) => out('Speed: ' + ui.item.label) });
  $('#temp').spinner({ spin: (e, ui) => out('Temperature ' + ui.value), change: () => out('Temperature ' + $('#temp').val()) });
  $('#tabs').tabs();
  $('#faq').accordion({ heightStyle: 'content' });
  $('#bright').slider({ min: 0, max: 100, step: 10, value: 20, change: (e, ui) => out('Brightness ' + ui.value) });
  </script>`,
);

/** flatpickr as its docs set it up: one input that takes typed dates, one readonly (the default). */
export const FLATPICKR_PAGE = page(
  'flatpickr',
  `<link rel="stylesheet" href="/pkg/flatpickr/dist/flatpickr.min.css">
  <script src="/pkg/flatpickr/dist/flatpickr.min.js"></script>
  ${OUT_SCRIPT}
  <p><label for="start">Start date</label> <input id="start" placeholder="Start date"></p>
  <p><label for="end">End date</label> <input id="end" placeholder="End date"></p>
  <script>
  flatpickr('#start', { allowInput: true, dateFormat: 'Y-m-d', onChange: (d, text) => out('Start ' + text) });
  flatpickr('#end', { dateFormat: 'Y-m-d' });
  </script>`,
);
