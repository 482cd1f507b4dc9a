// The runner's pages: a live job page and the hub's recent jobs. No framework, no CDN.
// The API key is entered once and kept in this browser (localStorage); it is sent as a header,
// never in a URL.
const KEY = 'runner:apiKey';
const FINAL = ['succeeded', 'failed', 'cancelled'];

const $ = (selector) => document.querySelector(selector);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
};

const apiKey = () => localStorage.getItem(KEY);

async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { authorization: `Bearer ${apiKey()}`, ...(options.headers ?? {}) },
  });
  if (res.status === 401) {
    localStorage.removeItem(KEY);
    throw new Error('The API key was refused; enter a valid one.');
  }
  return res;
}

/** Reads a Server-Sent Events stream with fetch (EventSource cannot send the key header). */
async function streamEvents(path, onEvent, signal) {
  const res = await api(path, { signal, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) throw new Error(`live updates unavailable (${res.status})`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) onEvent(event, JSON.parse(data));
    }
  }
}

/** Shows the key form in `slot` until a key is saved, then calls `start`. */
function withKey(slot, start) {
  if (apiKey()) return start();
  const input = el('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    required: '',
  });
  const form = el(
    'form',
    {
      class: 'key',
      onsubmit: (e) => {
        e.preventDefault();
        localStorage.setItem(KEY, input.value.trim());
        form.remove();
        start();
      },
    },
    el('label', { for: 'api-key' }, 'API key (kept in this browser)', input),
    el('button', { type: 'submit', text: 'Save key' }),
  );
  slot.replaceChildren(form);
  input.focus();
}

const statusBadge = (status) => el('span', { class: `status status-${status}`, text: status });
const ms = (value) => (value == null ? '' : value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`);

// --- job page -------------------------------------------------------------------------------
async function jobPage(root) {
  const id = root.dataset.jobId;
  const error = (message) => $('#job-error').replaceChildren(message);
  let job;
  let videoShown = false;

  const render = () => {
    $('#job-status').replaceChildren(statusBadge(job.status));
    $('#job-query').textContent = job.query;
    $('#job-summary').textContent = job.summary ?? (FINAL.includes(job.status) ? '' : 'Running…');
    $('#job-meta').textContent =
      `model ${job.model} · ${job.env} · started ${job.started_at ?? '—'} · finished ${job.finished_at ?? '—'}`;
    $('#job-steps').replaceChildren(
      ...job.steps.map((s) =>
        el(
          'tr',
          {},
          el('td', { text: String(s.index) }),
          el('td', { text: s.text }),
          el('td', { text: s.action }),
          el('td', {}, statusBadge(s.status)),
          el('td', { text: ms(s.duration_ms) }),
          el('td', { text: s.error ?? '' }),
        ),
      ),
    );
    $('#job-rerun').hidden = !FINAL.includes(job.status);
    if (job.links.video && !videoShown) {
      videoShown = true;
      void showVideo();
    }
  };

  const showVideo = async () => {
    const res = await api(`/v1/jobs/${id}/video`);
    if (!res.ok) return;
    const video = $('#job-video');
    video.src = URL.createObjectURL(await res.blob());
    video.hidden = false;
  };

  const loadLog = async () => {
    const res = await api(`/v1/jobs/${id}/log`);
    if (res.ok) $('#job-log').textContent = await res.text();
  };

  $('#job-rerun').addEventListener('click', async () => {
    const body = {
      query: job.query,
      initial_url: job.initial_url,
      model: job.model,
      env: job.env,
      highlight_mouse: job.highlight_mouse,
      ...(job.metadata ? { metadata: job.metadata } : {}),
    };
    const res = await api('/v1/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) return error(`Re-run refused: ${(await res.json()).detail}`);
    location.href = `/jobs/${(await res.json()).id}`;
  });

  withKey($('#key-slot'), async () => {
    try {
      const res = await api(`/v1/jobs/${id}`);
      if (!res.ok) return error(res.status === 404 ? 'No such job for this API key.' : `Error ${res.status}`);
      job = await res.json();
      render();
      await loadLog();
      if (FINAL.includes(job.status)) return;
      await streamEvents(`/v1/jobs/${id}/events`, (event, data) => {
        if (event === 'job') {
          job = data;
          render();
          if (FINAL.includes(job.status)) void loadLog();
        } else if (event === 'log') {
          $('#job-log').textContent += `${data.line}\n`;
        }
      });
    } catch (e) {
      error(e.message);
    }
  });
}

// --- hub: recent jobs -----------------------------------------------------------------------
async function recentJobs(root) {
  const refresh = async () => {
    const res = await api('/v1/jobs?limit=20');
    if (!res.ok) return;
    const { jobs } = await res.json();
    root
      .querySelector('tbody')
      .replaceChildren(
        ...jobs.map((j) =>
          el(
            'tr',
            {},
            el('td', {}, el('a', { href: `/jobs/${j.id}`, text: j.query.slice(0, 80) })),
            el('td', {}, statusBadge(j.status)),
            el('td', { text: new Date(j.created_at).toLocaleString() }),
          ),
        ),
      );
    root.querySelector('[data-empty]').hidden = jobs.length > 0;
  };
  withKey(root.querySelector('#key-slot'), async () => {
    root.querySelector('table').hidden = false;
    await refresh();
    setInterval(() => void refresh().catch(() => undefined), 3000);
  });
}

const jobRoot = $('[data-job-id]');
if (jobRoot) void jobPage(jobRoot);
const recent = $('#recent-jobs');
if (recent) void recentJobs(recent);
