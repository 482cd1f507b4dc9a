// The hub: run a test from the page, and your jobs (filter, search, pages), kept up to date in
// place so keyboard focus and screen readers are not disturbed by the refresh.
import {
  $,
  api,
  el,
  jobDuration,
  jobTitle,
  keyPanel,
  KeyRefusedError,
  problemLines,
  statusBadge,
  timeEl,
} from './runner-core.js';

const PAGE_SIZE = 20;
const REFRESH_MS = 3000;

export function hubPage() {
  const tbody = $('#jobs-table tbody');
  const state = { status: '', q: '', cursors: [], before: '' };
  let timer;
  let seq = 0;
  let models = [];

  const setVisible = (on) => {
    $('#submit-form').hidden = !on;
    $('#recent-jobs').hidden = !on;
    $('[data-needs-key]').hidden = on;
  };

  // --- the job list --------------------------------------------------------------------------
  const listError = (message) => {
    $('#jobs-error').textContent = message;
    $('#jobs-error').hidden = !message;
  };

  const cell = (label, ...children) => el('td', { 'data-label': label }, ...children);

  const newRow = (job) =>
    el(
      'tr',
      { 'data-id': job.id },
      cell('Test', el('a', { href: `/jobs/${job.id}` })),
      cell('Status'),
      cell('Created'),
      cell('Duration'),
    );

  /** Updates a row's cells only where they changed; says whether the status did. */
  const fillRow = (row, job) => {
    const [test, status, created, took] = row.children;
    const link = test.firstElementChild;
    const title = jobTitle(job);
    if (link.textContent !== title) link.textContent = title;
    if (link.title !== job.query) link.title = job.query;
    const changed = status.textContent !== job.status;
    if (changed) status.replaceChildren(statusBadge(job.status));
    if (!created.firstElementChild) created.replaceChildren(timeEl(job.created_at));
    const d = jobDuration(job);
    if (took.textContent !== d) took.textContent = d;
    return changed;
  };

  const render = (jobs, { announce }) => {
    const keep = new Set(jobs.map((j) => j.id));
    for (const row of [...tbody.children]) if (!keep.has(row.dataset.id)) row.remove();
    const news = [];
    jobs.forEach((job, i) => {
      let row = tbody.querySelector(`tr[data-id="${CSS.escape(job.id)}"]`);
      const fresh = !row;
      if (fresh) row = newRow(job);
      const changed = fillRow(row, job);
      // Only new rows are inserted; rows already there are never moved (moving drops focus).
      if (tbody.children[i] !== row) tbody.insertBefore(row, tbody.children[i] ?? null);
      if (announce && fresh) news.push(`New job ${jobTitle(job)}: ${job.status}.`);
      else if (announce && changed) news.push(`${jobTitle(job)} is now ${job.status}.`);
    });
    // Announced only when something really changed, never for a refresh that changed nothing.
    if (news.length) $('#jobs-announce').textContent = news.join(' ');
    const filtered = state.status || state.q;
    $('[data-empty]').textContent = filtered
      ? 'No jobs match these filters.'
      : 'No jobs yet: run one with the form above.';
    $('[data-empty]').hidden = jobs.length > 0;
    $('#jobs-table').hidden = jobs.length === 0;
  };

  const refresh = async ({ announce = true } = {}) => {
    const mine = ++seq;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE + 1) });
    if (state.status) params.set('status', state.status);
    if (state.q) params.set('q', state.q);
    if (state.before) params.set('before', state.before);
    const res = await api(`/v1/jobs?${params}`);
    if (mine !== seq) return;
    if (!res.ok) return listError((await problemLines(res)).join(' '));
    listError('');
    const { jobs } = await res.json();
    if (mine !== seq) return;
    const page = jobs.slice(0, PAGE_SIZE);
    render(page, { announce });
    $('#page-older').disabled = jobs.length <= PAGE_SIZE;
    $('#page-older').dataset.next = page.at(-1)?.id ?? '';
    $('#page-newer').disabled = state.cursors.length === 0;
    $('#page-label').textContent = `Page ${state.cursors.length + 1}`;
  };

  const quiet = (e) => {
    if (!(e instanceof KeyRefusedError)) listError(e?.message ?? String(e));
  };

  /** A new view (filter, search, page): rebuilt at once, nothing announced but the result. */
  const reload = () => {
    tbody.replaceChildren();
    void refresh({ announce: false }).catch(quiet);
  };

  let searchTimer;
  $('#filter-status').addEventListener('change', (e) => {
    state.status = e.target.value;
    state.cursors = [];
    state.before = '';
    reload();
  });
  $('#filter-q').addEventListener('input', (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      state.q = e.target.value.trim();
      state.cursors = [];
      state.before = '';
      reload();
    }, 300);
  });
  $('#job-filters').addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(searchTimer);
    state.q = $('#filter-q').value.trim();
    state.cursors = [];
    state.before = '';
    reload();
  });
  $('#page-older').addEventListener('click', () => {
    state.cursors.push(state.before);
    state.before = $('#page-older').dataset.next;
    reload();
  });
  $('#page-newer').addEventListener('click', () => {
    state.before = state.cursors.pop() ?? '';
    reload();
  });

  // --- the submit form -----------------------------------------------------------------------
  const problem = (title, lists = []) => {
    const box = $('#submit-problem');
    box.replaceChildren(el('p', { class: 'error', text: title }));
    for (const { heading, items, scroll } of lists) {
      if (!items?.length) continue;
      if (heading) box.append(el('p', { text: heading }));
      // A long list scrolls in its own box (reachable by keyboard) instead of pushing the form away.
      const attrs = scroll ? { class: 'scroll', tabindex: '0', 'aria-label': heading } : {};
      box.append(el('ul', attrs, ...items.map((item) => el('li', { text: item }))));
    }
    box.hidden = false;
    box.focus();
  };

  const loadModels = async () => {
    const res = await api('/v1/models');
    if (!res.ok) return;
    models = (await res.json()).models ?? [];
    const select = $('#test-model');
    select.replaceChildren(
      ...models.map((m) =>
        el('option', { value: m.id, selected: m.default, text: m.default ? `${m.id} (default)` : m.id }),
      ),
    );
  };

  /** The interpreter reads the steps before anything is queued; an LLM model reads anything. */
  const check = async (query, model) => {
    if (models.find((m) => m.id === model)?.provider !== 'interpreter') return true;
    const res = await api('/v1/instructions/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, model }),
    });
    if (!res.ok) {
      problem('The test was not started:', [{ heading: '', items: await problemLines(res) }]);
      return false;
    }
    const verdict = await res.json();
    if (verdict.readable) return true;
    const unknown = verdict.unknown ?? [];
    problem(
      unknown.length
        ? `The test was not started: the interpreter cannot read ${unknown.length === 1 ? 'this step' : 'these steps'}.`
        : 'The test was not started: it has no steps to run.',
      [
        { heading: 'Not understood:', items: unknown.map((u) => `Step ${u.index}: “${u.text}”`) },
        { heading: 'Rephrase using one of these forms:', items: verdict.phrasings ?? [], scroll: true },
      ],
    );
    return false;
  };

  $('#submit-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = e.target;
    const button = $('#submit-test');
    const query = form.query.value.trim();
    $('#submit-problem').hidden = true;
    if (!query) {
      form.query.setAttribute('aria-invalid', 'true');
      problem('Write the test first: at least one step.');
      return form.query.focus();
    }
    form.query.removeAttribute('aria-invalid');
    if (form.initial_url.value && !form.initial_url.checkValidity()) {
      problem('The start URL is not a web address; it should look like https://example.com.');
      return form.initial_url.focus();
    }
    button.disabled = true;
    $('#submit-status').textContent = 'Checking…';
    try {
      const model = form.model.value || undefined;
      if (!(await check(query, model))) return;
      const title = form.title.value.trim();
      const body = {
        query,
        ...(form.initial_url.value ? { initial_url: form.initial_url.value } : {}),
        ...(model ? { model } : {}),
        env: form.env.value,
        highlight_mouse: form.highlight_mouse.checked,
        ...(title ? { metadata: { title } } : {}),
      };
      $('#submit-status').textContent = 'Starting…';
      const res = await api('/v1/jobs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok)
        return problem('The test was not started:', [{ heading: '', items: await problemLines(res) }]);
      location.href = `/jobs/${(await res.json()).id}`;
    } catch (err) {
      if (!(err instanceof KeyRefusedError)) problem(err?.message ?? String(err));
    } finally {
      button.disabled = false;
      $('#submit-status').textContent = '';
    }
  });

  // --- start, and stop when the key is refused -----------------------------------------------
  const stop = () => {
    clearInterval(timer);
    seq++;
    setVisible(false);
    tbody.replaceChildren();
  };
  const start = () => {
    clearInterval(timer);
    setVisible(true);
    void loadModels().catch(quiet);
    void refresh({ announce: false }).catch(quiet);
    timer = setInterval(() => void refresh().catch(quiet), REFRESH_MS);
  };
  keyPanel($('#key-slot'), { start, stop });
}
