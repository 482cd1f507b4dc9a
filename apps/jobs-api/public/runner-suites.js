// The suites page (your suites, their last runs, pass rate and flipping tests) and a suite run's
// page (each test linking to its job page). Data comes from /v1/suites with the saved API key,
// so only the key owner's suites are shown.
import { $, api, el, keyPanel, KeyRefusedError, problemLines, statusBadge, timeEl } from './runner-core.js';

const REFRESH_MS = 5000;

const percent = (rate) => (rate === null ? '—' : `${Math.round(rate * 100)} %`);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Keeps `load` running every few seconds while a key is saved; shows errors in `errorBox`. */
function keepLoading(errorBox, load, { visible }) {
  let timer;
  const problem = (message) => {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  };
  const run = () =>
    load(problem).catch((e) => {
      if (!(e instanceof KeyRefusedError)) problem(e?.message ?? String(e));
    });
  const stop = () => {
    clearInterval(timer);
    visible(false);
  };
  const start = () => {
    clearInterval(timer);
    visible(true);
    void run();
    timer = setInterval(() => void run(), REFRESH_MS);
  };
  keyPanel($('#key-slot'), { start, stop });
}

function suiteCard(suite) {
  const runs = suite.last_runs;
  const finished = runs.filter((r) => r.status !== 'running');
  const passed = finished.filter((r) => r.status === 'passed').length;
  const runList = runs.length
    ? el(
        'ol',
        { class: 'runs', 'aria-label': `Last runs of ${suite.name}, newest first` },
        ...runs.map((run) =>
          el(
            'li',
            {},
            el(
              'a',
              { href: `/suites/${suite.id}/runs/${run.id}` },
              statusBadge(run.status),
              ` ${run.passed}/${run.total} passed · `,
              timeEl(run.created_at),
              run.trigger === 'schedule' ? ' · scheduled' : '',
            ),
          ),
        ),
      )
    : el('p', {
        class: 'muted',
        text: 'No runs yet: browser-tests run --suite NAME, or wait for its schedule.',
      });
  const flipping = suite.flipping_tests.length
    ? el(
        'section',
        { 'aria-label': `Tests of ${suite.name} that flip` },
        el('h3', { text: 'Tests that flip between passing and failing' }),
        el(
          'ul',
          { class: 'flipping' },
          ...suite.flipping_tests.map((t) =>
            el(
              'li',
              { 'data-flips': String(t.flips) },
              el('strong', { text: t.title }),
              ` — ${plural(t.flips, 'flip')} (newest first: ${t.history.join(', ')})`,
            ),
          ),
        ),
      )
    : el('p', { class: 'muted', text: 'No test flips between passing and failing in these runs.' });
  return el(
    'section',
    { class: 'suite', 'data-suite-id': suite.id, 'aria-labelledby': `suite-${suite.id}` },
    el('h2', { id: `suite-${suite.id}`, text: suite.name }),
    el(
      'dl',
      { class: 'facts' },
      el('dt', { text: 'Tests' }),
      el('dd', { text: String(suite.tests) }),
      el('dt', { text: 'Schedule' }),
      el('dd', { text: suite.schedule ? `${suite.schedule} (UTC)` : 'on demand' }),
      el('dt', { text: 'Pass rate' }),
      el('dd', {
        class: 'pass-rate',
        text: finished.length
          ? `${percent(suite.pass_rate)} (${passed} of ${plural(finished.length, 'finished run')})`
          : '— (no finished run yet)',
      }),
    ),
    el('h3', { text: 'Last runs' }),
    runList,
    flipping,
  );
}

export function suitesPage() {
  const list = $('#suites-list');
  let seq = 0;
  keepLoading(
    $('#suites-error'),
    async (problem) => {
      const mine = ++seq;
      const res = await api('/v1/suites/overview');
      if (mine !== seq) return;
      if (!res.ok) return problem((await problemLines(res)).join(' '));
      problem('');
      const { suites } = await res.json();
      if (mine !== seq) return;
      $('#suites-empty').hidden = suites.length > 0;
      // Rebuilt only when something changed, so a refresh does not disturb reading or focus.
      const text = JSON.stringify(suites);
      if (list.dataset.shown === text) return;
      list.dataset.shown = text;
      list.replaceChildren(...suites.map(suiteCard));
    },
    {
      visible: (on) => {
        $('[data-needs-key]').hidden = on;
        list.hidden = !on;
        if (!on) {
          seq++;
          list.replaceChildren();
          delete list.dataset.shown;
          $('#suites-empty').hidden = true;
        }
      },
    },
  );
}

export function suiteRunPage(root) {
  const { suiteId, runId } = root.dataset;
  const tbody = $('#run-tests tbody');
  let last = '';
  keepLoading(
    $('#run-error'),
    async (problem) => {
      const res = await api(`/v1/suites/${encodeURIComponent(suiteId)}/runs/${encodeURIComponent(runId)}`);
      if (!res.ok) return problem((await problemLines(res)).join(' '));
      problem('');
      const run = await res.json();
      const text = JSON.stringify(run);
      if (text === last) return;
      last = text;
      $('#run-status').replaceChildren(statusBadge(run.status));
      $('#run-created').replaceChildren(timeEl(run.created_at));
      $('#run-finished').replaceChildren(timeEl(run.finished_at));
      $('#run-trigger').textContent = run.trigger === 'schedule' ? 'its schedule' : 'on demand';
      $('#run-counts').textContent = `${run.passed} passed, ${run.failed} failed of ${run.total}`;
      tbody.replaceChildren(
        ...run.tests.map((t) =>
          el(
            'tr',
            { 'data-job-id': t.job_id },
            el('td', { 'data-label': 'Test' }, el('a', { href: `/jobs/${t.job_id}`, text: t.title })),
            el('td', { 'data-label': 'Verdict' }, statusBadge(t.verdict)),
            el('td', {
              'data-label': 'Failing step',
              text: t.failing_step
                ? `${t.failing_step.index}. ${t.failing_step.text}${t.failing_step.error ? ` — ${t.failing_step.error}` : ''}`
                : (t.error ?? ''),
            }),
          ),
        ),
      );
      $('#run-section').hidden = false;
    },
    {
      visible: (on) => {
        $('[data-needs-key]').hidden = on;
        if (!on) $('#run-section').hidden = true;
      },
    },
  );
}
