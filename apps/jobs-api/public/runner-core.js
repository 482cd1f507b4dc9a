// Shared by the runner's pages: the API key, calls to /v1, the live event stream, formatting.
// The key is entered once and kept in this browser (localStorage); it is sent as a header, never
// in a URL.
const KEY = 'runner:apiKey';
export const FINAL = ['succeeded', 'failed', 'cancelled'];

export const $ = (selector, root = document) => root.querySelector(selector);
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
};

export const apiKey = () => localStorage.getItem(KEY);

/** The key was refused (401): the page shows the key form again and stops what it was doing. */
export class KeyRefusedError extends Error {}

let onRefused = () => undefined;

export async function api(path, options = {}) {
  const key = apiKey();
  const res = await fetch(path, {
    ...options,
    headers: { authorization: `Bearer ${key}`, ...(options.headers ?? {}) },
  });
  if (res.status === 401) {
    // Only a refusal of the key still in use counts: a page sends several requests at once, and a
    // late 401 for a key already refused (or since replaced) must not re-render the key form under
    // the user's typing, nor drop the new key and hide the page again.
    if (apiKey() === key) {
      localStorage.removeItem(KEY);
      onRefused();
    }
    throw new KeyRefusedError('The API key was refused.');
  }
  return res;
}

/** `detail` of a 422 (or any error body) as readable lines. */
export async function problemLines(res) {
  const body = await res.json().catch(() => ({}));
  if (Array.isArray(body.detail)) {
    return body.detail.map((d) => {
      const where = Array.isArray(d.loc)
        ? d.loc.filter((part) => part !== 'body' && part !== 'query').join('.')
        : '';
      return where ? `${where}: ${d.msg}` : String(d.msg);
    });
  }
  return [String(body.detail ?? body.message ?? `The server answered ${res.status}.`)];
}

/**
 * The key form in `slot` until a key is saved, then a line saying a key is saved with a way to
 * change it. `start` runs once a key is there; `stop` when the key is refused.
 */
export function keyPanel(slot, { start, stop }) {
  const showSaved = () => {
    slot.replaceChildren(
      el(
        'div',
        { class: 'key-bar' },
        el('p', { class: 'muted', text: 'Using the API key saved in this browser.' }),
        el('button', {
          type: 'button',
          id: 'change-key',
          text: 'Change key',
          onclick: () => showForm('', true),
        }),
      ),
    );
  };
  const showForm = (message, changing = false) => {
    const input = el('input', {
      id: 'api-key',
      name: 'api-key',
      type: 'password',
      autocomplete: 'off',
      required: true,
      'aria-describedby': message ? 'api-key-error' : 'api-key-hint',
      'aria-invalid': message ? 'true' : undefined,
    });
    const form = el(
      'form',
      {
        class: 'key',
        onsubmit: (e) => {
          e.preventDefault();
          const value = input.value.trim();
          if (!value) return input.focus();
          localStorage.setItem(KEY, value);
          showSaved();
          start();
        },
      },
      el('label', { for: 'api-key' }, 'API key (kept in this browser)', input),
      el('button', { type: 'submit', text: 'Save key' }),
      changing && apiKey()
        ? el('button', { type: 'button', text: 'Keep the current key', onclick: () => showSaved() })
        : '',
    );
    slot.replaceChildren(
      form,
      message
        ? el('p', { id: 'api-key-error', class: 'error', role: 'alert', text: message })
        : el('p', {
            id: 'api-key-hint',
            class: 'hint',
            text: 'make start prints one; send it as Authorization: Bearer KEY.',
          }),
    );
    input.focus();
  };
  onRefused = () => {
    stop();
    showForm('That API key was refused (401). Enter a valid key; nothing else was changed.');
  };
  if (apiKey()) {
    showSaved();
    start();
  } else showForm();
}

/** Reads a Server-Sent Events stream with fetch (EventSource cannot send the key header). */
export async function streamEvents(path, onEvent, signal) {
  const res = await api(path, { signal, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) throw new Error(`Live updates are unavailable (${res.status}).`);
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

export const statusBadge = (status) => el('span', { class: `status status-${status}`, text: status });

/** A date-time in the viewer's locale and time zone, machine-readable in `datetime`. */
export const timeEl = (iso) =>
  iso
    ? el('time', {
        datetime: iso,
        title: iso,
        text: new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
      })
    : el('span', { class: 'muted', text: '—' });

export function duration(ms) {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

/** How long the job ran (so far, while it runs); empty before it started. */
export function jobDuration(job, now = Date.now()) {
  if (!job.started_at) return '';
  const end = job.finished_at ? Date.parse(job.finished_at) : job.status === 'running' ? now : null;
  return end === null ? '' : duration(end - Date.parse(job.started_at));
}

/** `m:ss.s` for a position in a (short) video. */
export const clock = (seconds) =>
  `${Math.floor(seconds / 60)}:${(Math.floor((seconds % 60) * 10) / 10).toFixed(1).padStart(4, '0')}`;

/** The instructions split into steps roughly as the interpreter does (lines, sentences, "then"). */
export function splitSteps(query) {
  return query
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9"“'])|\s*;\s*|,?\s+then\s+/i)
    .map((s) => s.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim())
    .filter(Boolean);
}

const clip = (text, max = 72) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
};

const hostOf = (url) => {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return '';
  }
};

/**
 * A readable title: `metadata.title` when the job has one, else the site and the first step that
 * is not just opening a page ("example.com · Check the title contains …").
 */
export function jobTitle(job) {
  const given = job.metadata?.title;
  if (typeof given === 'string' && given.trim()) return clip(given, 90);
  const steps = job.steps?.length ? job.steps.map((s) => s.text) : splitSteps(job.query);
  const url = /https?:\/\/[^\s"'<>]+/i.exec(job.query)?.[0]?.replace(/[.,;]+$/, '') ?? job.initial_url;
  const intent =
    steps.find((s) => !/^(open|go to|navigate to|visit|load|browse to)\b/i.test(s)) ?? steps[0] ?? job.query;
  const host = hostOf(url);
  const text = intent.charAt(0).toUpperCase() + intent.slice(1);
  return clip(host ? `${host} · ${text}` : text);
}
