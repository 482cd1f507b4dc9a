// The control plane's dashboard: projects, a project's Auth page and its Email page.
// Organization members sign in with the platform admin token (kept in this browser); project-host
// users never can, and the admin token is never accepted by project hosts.
const TOKEN = 'dashboard:adminToken';

const $ = (selector) => document.querySelector(selector);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else if (value !== false && value != null) node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
};
const say = (message, kind = 'notice') => {
  const out = $('#message');
  out.className = kind;
  out.textContent = message;
};

async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: {
      authorization: `Bearer ${localStorage.getItem(TOKEN)}`,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.headers ?? {}),
    },
  });
  if (res.status === 401) {
    localStorage.removeItem(TOKEN);
    throw new Error('The admin token was refused; sign in again.');
  }
  const body = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(body?.message ?? `Error ${res.status}`);
  return body;
}

function signedIn(start) {
  if (localStorage.getItem(TOKEN)) return start().catch((e) => say(e.message, 'error'));
  const input = el('input', {
    id: 'admin-token',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const form = el(
    'form',
    {
      class: 'key',
      onsubmit: (e) => {
        e.preventDefault();
        localStorage.setItem(TOKEN, input.value.trim());
        form.remove();
        start().catch((err) => say(err.message, 'error'));
      },
    },
    el('label', { for: 'admin-token' }, 'Admin token', input),
    el('button', { type: 'submit', text: 'Sign in' }),
  );
  $('#signin').replaceChildren(form);
  input.focus();
}

// --- projects ---------------------------------------------------------------------------------
async function projectsPage() {
  const render = async () => {
    const { items } = await api('/v1/projects?pageSize=100');
    $('#projects tbody').replaceChildren(
      ...items.map((p) =>
        el(
          'tr',
          {},
          el('td', {}, el('a', { href: `/projects/${p.id}/auth`, text: p.name })),
          el('td', {}, el('code', { text: p.slug })),
          el('td', {}, el('a', { href: `/projects/${p.id}/emails`, text: 'Email' })),
          el('td', { text: p.hosts.join(', ') }),
        ),
      ),
    );
    $('#projects').hidden = false;
  };
  $('#create-project').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const slug = $('#new-slug').value.trim();
      await api('/v1/projects', {
        method: 'POST',
        body: JSON.stringify({ slug, name: $('#new-name').value.trim() || undefined }),
      });
      say(`Project ${slug} created.`);
      e.target.reset();
      await render();
    } catch (err) {
      say(err.message, 'error');
    }
  });
  await render();
}

// --- auth page --------------------------------------------------------------------------------
async function authPage(projectId) {
  const form = $('#auth-settings');
  const users = { page: 1, search: '' };

  const showMode = () => {
    const custom = form.idpMode.value === 'custom';
    $('#custom-client').hidden = !custom;
    form.idpClientId.required = custom;
  };

  const load = async () => {
    const project = await api(`/v1/projects/${projectId}`);
    $('#project-name').textContent = project.name;
    const a = project.auth;
    form.enabled.checked = a.enabled;
    form.emailPassword.checked = a.emailPassword;
    form.allowSignups.checked = a.allowSignups;
    form.idpMode.value = a.idpMode;
    form.idpClientId.value = a.idpClientId ?? '';
    form.idpClientSecret.placeholder = a.hasClientSecret ? 'saved (leave empty to keep)' : '';
    form.redirectSchemes.value = (a.redirectSchemes ?? []).join(', ');
    showMode();
    form.hidden = false;
  };

  const loadUsers = async () => {
    const q = new URLSearchParams({
      page: String(users.page),
      pageSize: '20',
      ...(users.search ? { search: users.search } : {}),
    });
    const result = await api(`/v1/projects/${projectId}/users?${q}`);
    $('#users tbody').replaceChildren(
      ...result.items.map((u) =>
        el(
          'tr',
          {},
          el('td', { text: u.email }),
          el('td', { text: u.name ?? '' }),
          el('td', {
            text:
              [u.hasPassword && 'password', u.hasIdentityProvider && 'identity provider']
                .filter(Boolean)
                .join(', ') || 'magic link',
          }),
          el('td', { text: new Date(u.createdAt).toLocaleString() }),
          el(
            'td',
            {},
            el('button', {
              type: 'button',
              'aria-label': `Delete ${u.email}`,
              text: 'Delete',
              onclick: async () => {
                if (!confirm(`Delete ${u.email}? This cannot be undone.`)) return;
                await api(`/v1/projects/${projectId}/users/${u.id}`, { method: 'DELETE' });
                say(`Deleted ${u.email}.`);
                await loadUsers();
              },
            }),
          ),
        ),
      ),
    );
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
    $('#users-page').textContent = `Page ${result.page} of ${pages} · ${result.total} users`;
    $('#users-prev').disabled = result.page <= 1;
    $('#users-next').disabled = result.page >= pages;
    $('#users').hidden = false;
  };

  form.idpMode.forEach?.((radio) => radio.addEventListener('change', showMode));
  form.addEventListener('change', showMode);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = {
      enabled: form.enabled.checked,
      emailPassword: form.emailPassword.checked,
      allowSignups: form.allowSignups.checked,
      idpMode: form.idpMode.value,
      ...(form.idpMode.value === 'custom' ? { idpClientId: form.idpClientId.value.trim() } : {}),
      ...(form.idpClientSecret.value ? { idpClientSecret: form.idpClientSecret.value } : {}),
      redirectSchemes: form.redirectSchemes.value.trim()
        ? form.redirectSchemes.value
            .split(',')
            .map((scheme) => scheme.trim())
            .filter(Boolean)
        : null,
    };
    try {
      await api(`/v1/projects/${projectId}/auth`, { method: 'PUT', body: JSON.stringify(body) });
      form.idpClientSecret.value = '';
      say('Auth settings saved.');
      await load();
    } catch (err) {
      say(err.message, 'error');
    }
  });
  $('#copy-redirect').addEventListener('click', async () => {
    await navigator.clipboard?.writeText($('#redirect-uri').textContent).catch(() => undefined);
    say('Redirect URI copied.');
  });
  $('#user-search').addEventListener('submit', async (e) => {
    e.preventDefault();
    users.search = $('#search').value.trim();
    users.page = 1;
    await loadUsers();
  });
  $('#users-prev').addEventListener('click', () => void ((users.page -= 1), loadUsers()));
  $('#users-next').addEventListener('click', () => void ((users.page += 1), loadUsers()));
  await load();
  await loadUsers();
}

// --- email page -------------------------------------------------------------------------------
async function emailsPage(projectId) {
  const project = await api(`/v1/projects/${projectId}`);
  $('#project-name').textContent = project.name;
  const { items } = await api(`/v1/projects/${projectId}/emails?pageSize=100`);
  $('#emails tbody').replaceChildren(
    ...items.map((m) =>
      el(
        'tr',
        {},
        el('td', { text: new Date(m.createdAt).toLocaleString() }),
        el('td', { text: m.kind }),
        el('td', { text: m.to }),
        el('td', { text: m.subject }),
        el(
          'td',
          {},
          el('span', {
            class: `status status-${m.status === 'sent' ? 'succeeded' : m.status === 'failed' ? 'failed' : 'queued'}`,
            text: m.status,
          }),
        ),
        el('td', { text: m.error ?? '' }),
      ),
    ),
  );
  $('#emails').hidden = false;
  $('#emails-empty').hidden = items.length > 0;
}

const page = document.body.dataset.page;
const projectId = document.body.dataset.projectId;
signedIn(async () => {
  $('#signout').hidden = false;
  if (page === 'projects') await projectsPage();
  if (page === 'auth') await authPage(projectId);
  if (page === 'emails') await emailsPage(projectId);
});
$('#signout').addEventListener('click', () => {
  localStorage.removeItem(TOKEN);
  location.reload();
});
