// What every dashboard page shares: the admin token (kept in this browser), calls to the
// control-plane API, the sign-in form, messages, and field errors next to the field.
// Organization members sign in with the platform admin token; project-host users never can, and
// the admin token is never accepted by project hosts.
const TOKEN = 'dashboard:adminToken';

export const $ = (selector, root = document) => root.querySelector(selector);

export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else if (value !== false && value != null) node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child != null && child !== false));
  return node;
};

/** A table row whose cells carry their column's name (phones show it before each value). */
export const row = (cells, attrs = {}) =>
  el(
    'tr',
    attrs,
    ...cells.map(([label, content]) =>
      el('td', label ? { 'data-label': label } : {}, ...(Array.isArray(content) ? content : [content ?? ''])),
    ),
  );

export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

export const say = (message, kind = 'notice') => {
  const out = $('#message');
  out.className = kind;
  out.textContent = message;
};

/** The admin token was refused: the page asks for it again. */
export class TokenRefused extends Error {}

/** A control-plane error: its status, code and the message that names the field. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `The control plane answered ${status}.`);
    this.status = status;
    this.code = body?.code;
  }
}

export async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: {
      authorization: `Bearer ${localStorage.getItem(TOKEN)}`,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.headers ?? {}),
    },
  });
  // The whole response is read, even an empty one: a page that moves on right after a call (a
  // delete, then the list) must not cut a request short.
  const raw = await res.text();
  if (res.status === 401) throw new TokenRefused('The admin token was refused.');
  const type = res.headers.get('content-type') ?? '';
  const body = raw && type.includes('json') ? JSON.parse(raw) : null;
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

const sentence = (text) => {
  const trimmed = text.trim();
  const upper = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(upper) ? upper : `${upper}.`;
};

/** Clears the field errors a form shows. */
export function clearFieldErrors(form) {
  for (const note of form.querySelectorAll('.field-error')) note.remove();
  for (const input of form.querySelectorAll('[aria-invalid]')) {
    input.removeAttribute('aria-invalid');
    const describedBy = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => id && !id.endsWith('-error'))
      .join(' ');
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    else input.removeAttribute('aria-describedby');
  }
}

/** Shows `problem` under the field, tells assistive technology, and moves focus there. */
export function showFieldError(form, name, problem) {
  const input = form.elements.namedItem(name);
  if (!(input instanceof HTMLElement) || !input.id) return false;
  const id = `${input.id}-error`;
  const note = el('p', { id, class: 'field-error', text: problem });
  const field = input.closest('.field');
  if (field) field.append(note);
  else (input.closest('label') ?? input).after(note);
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute(
    'aria-describedby',
    [input.getAttribute('aria-describedby'), id].filter(Boolean).join(' '),
  );
  input.focus();
  return true;
}

/**
 * A failed submit: a control-plane 400 names its field first (`slug must be 3 to 63 characters`,
 * or `password: is required`); that problem is shown in plain words next to the field. Anything
 * else goes to the page's message line.
 */
export function reportFormError(form, error) {
  if (error instanceof TokenRefused) return askForToken(error.message);
  const match = /^([A-Za-z][\w]*):? (.+)$/s.exec(error.message ?? '');
  if (error instanceof ApiError && error.status < 500 && match) {
    const [, field, problem] = match;
    if (showFieldError(form, field, sentence(problem))) {
      say(`Please correct the highlighted field.`, 'error');
      return;
    }
  }
  say(error.message, 'error');
}

/** Any failure outside a form: a refused token asks for it again; the rest is said. */
export function report(error) {
  if (error instanceof TokenRefused) return askForToken(error.message);
  say(error.message ?? String(error), 'error');
}

let started;

/** Shows the sign-in form; the page's content stays hidden until a token is accepted. */
function askForToken(problem) {
  localStorage.removeItem(TOKEN);
  $('#content').hidden = true;
  $('#signout').hidden = true;
  say('');
  const input = el('input', {
    id: 'admin-token',
    name: 'token',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const form = el(
    'form',
    { class: 'key', 'aria-label': 'Sign in' },
    el('div', { class: 'field' }, el('label', { for: 'admin-token', text: 'Admin token' }), input),
    el('button', { type: 'submit', text: 'Sign in' }),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const token = input.value.trim();
    if (!token) {
      showFieldError(form, 'token', 'Enter the admin token (PLATFORM_ADMIN_TOKEN).');
      return;
    }
    try {
      // Checked before it is kept: a wrong token gets a plain answer, not a page of errors.
      const { valid } = await fetch('/v1/admin/token-check', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      }).then((res) => res.json());
      if (!valid) {
        showFieldError(
          form,
          'token',
          'This is not the admin token (PLATFORM_ADMIN_TOKEN). Check it and try again.',
        );
        return;
      }
      localStorage.setItem(TOKEN, token);
      $('#signin').replaceChildren();
      await run();
    } catch (error) {
      say(error.message ?? String(error), 'error');
    }
  });
  $('#signin').replaceChildren(form);
  if (problem) showFieldError(form, 'token', `${problem} Enter the current admin token.`);
  input.focus();
}

/** Shows the page (its parts that need data stay hidden until they have it) and loads it. */
async function run() {
  const content = $('#content');
  $('#signout').hidden = false;
  content.hidden = false;
  content.setAttribute('aria-busy', 'true');
  try {
    await started();
  } catch (error) {
    report(error);
  } finally {
    content.removeAttribute('aria-busy');
  }
}

/** Runs the page once a token is known (asks for it first when none is kept). */
export function signedIn(start) {
  started = start;
  $('#signout').addEventListener('click', () => {
    localStorage.removeItem(TOKEN);
    askForToken();
  });
  if (localStorage.getItem(TOKEN)) void run();
  else askForToken();
}

/**
 * Runs `action` for a button, disabled while it runs; failures are reported. `action` may return
 * whether the button stays usable afterwards (false: e.g. nobody is left to sign out).
 */
export async function busy(button, action) {
  button.disabled = true;
  let usable = true;
  try {
    usable = (await action()) !== false;
  } catch (error) {
    report(error);
  } finally {
    button.disabled = !usable;
  }
}
