// The control plane's dashboard: projects; a project's Auth page (settings and users), a user's
// detail, its Email page and a mail's detail, and its SMTP and custom-domain settings.
import {
  $,
  api,
  ApiError,
  busy,
  clearFieldErrors,
  el,
  report,
  reportFormError,
  row,
  say,
  signedIn,
  when,
} from './dashboard-core.js';

const page = document.body.dataset.page;
const projectId = document.body.dataset.projectId;
const base = projectId ? `/v1/projects/${encodeURIComponent(projectId)}` : '';

/** The address of a host, with the scheme and port the project's public URL uses. */
function hostUrl(project, host) {
  const url = new URL(project.publicUrl);
  url.hostname = host;
  return url.origin;
}

/**
 * Submits a form: its body is checked first by the control plane (POST /v1/admin/validate, the
 * endpoint's own rules), so a mistake is shown next to its field without a refused request; then
 * `send` runs with the body. Anything the endpoint still refuses is reported the same way.
 */
function onSubmit(form, name, bodyOf, send) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    try {
      const body = bodyOf();
      const { problems } = await api('/v1/admin/validate', {
        method: 'POST',
        body: JSON.stringify({ form: name, values: body }),
      });
      if (problems.length) {
        const [{ field, problem }] = problems;
        reportFormError(form, new ApiError(400, { message: `${field} ${problem}` }));
        return;
      }
      await send(body);
    } catch (error) {
      reportFormError(form, error);
    } finally {
      if (button) button.disabled = false;
    }
  });
}

async function projectHeading() {
  const project = await api(base);
  $('#project-name').textContent = project.name;
  return project;
}

// --- projects ---------------------------------------------------------------------------------
async function projectsPage() {
  const render = async () => {
    const { items } = await api('/v1/projects?pageSize=100');
    $('#projects tbody').replaceChildren(
      ...items.map((p) =>
        row([
          ['Name', el('a', { href: `/projects/${p.id}/auth`, text: p.name })],
          ['Slug', el('code', { text: p.slug })],
          [
            'Pages',
            [
              el('a', { href: `/projects/${p.id}/auth`, text: 'Auth' }),
              ' · ',
              el('a', { href: `/projects/${p.id}/emails`, text: 'Email' }),
              ' · ',
              el('a', { href: `/projects/${p.id}/settings`, text: 'SMTP and domains' }),
            ],
          ],
          [
            'Hosts',
            p.hosts.flatMap((host, i) => [
              ...(i ? [el('br')] : []),
              el('a', { href: hostUrl(p, host), text: host, rel: 'noopener' }),
            ]),
          ],
        ]),
      ),
    );
    $('#projects').hidden = items.length === 0;
    $('#projects-empty').hidden = items.length > 0;
  };
  const form = $('#create-project');
  const bodyOf = () => ({
    slug: $('#new-slug').value.trim(),
    name: $('#new-name').value.trim() || undefined,
  });
  onSubmit(form, 'create-project', bodyOf, async (body) => {
    await api('/v1/projects', { method: 'POST', body: JSON.stringify(body) });
    say(`Project ${body.slug} created.`);
    form.reset();
    await render();
  });
  await render();
}

// --- MCP --------------------------------------------------------------------------------------
const MCP_PAGE_SIZE = 100;

/** The deployed MCP tools of the project (Auth page). */
async function loadMcpTools() {
  const { mcpEnabled, deploymentVersion, tools } = await api(`${base}/mcp/tools`);
  const schema = (label, value) =>
    value
      ? el(
          'details',
          {},
          el('summary', { text: label }),
          el('pre', { class: 'preview', text: JSON.stringify(value, null, 2) }),
        )
      : '';
  $('#mcp-tools tbody').replaceChildren(
    ...tools.map((t) =>
      row([
        ['Tool', [el('code', { text: t.name }), ...(t.title ? [el('br'), t.title] : [])]],
        ['Description', t.description],
        ['Sign-in', t.auth === 'required' ? 'required' : t.auth === 'optional' ? 'optional' : 'none'],
        ['Schemas', [schema('Input', t.inputSchema), schema('Output', t.outputSchema)]],
      ]),
    ),
  );
  $('#mcp-tools-state').textContent =
    deploymentVersion === null
      ? 'Nothing is deployed yet.'
      : `Deployment ${deploymentVersion} serves ${tools.length} ${tools.length === 1 ? 'tool' : 'tools'} at /mcp of the project’s hosts${mcpEnabled ? '' : ' once MCP is switched on above'}.`;
  $('#mcp-tools').hidden = tools.length === 0;
  $('#mcp-tools-empty').hidden = tools.length > 0;
}

/**
 * Connected MCP clients, every user's (Auth page) or one user's (`userId`), each with a Revoke
 * button: the control plane revokes that user's grant of the client as the user's own app can.
 */
async function loadMcpClients(userId) {
  const path = userId ? `${base}/users/${encodeURIComponent(userId)}/mcp/clients` : `${base}/mcp/clients`;
  const result = await api(`${path}?pageSize=${MCP_PAGE_SIZE}`);
  const nameOf = (c) => c.clientName ?? c.clientId;
  $('#mcp-clients tbody').replaceChildren(
    ...result.items.map((c) =>
      row([
        ['Client', [el('strong', { text: nameOf(c) }), el('br'), el('code', { text: c.clientId })]],
        ['Kind', c.kind === 'metadata-document' ? 'metadata document' : 'registered'],
        ...(userId
          ? []
          : [['User', el('a', { href: `/projects/${projectId}/users/${c.user.id}`, text: c.user.email })]]),
        ['Approved', when(c.grantedAt)],
        ['Last token', c.lastTokenAt ? when(c.lastTokenAt) : 'never'],
        ['Connections', String(c.liveConnections)],
        [
          '',
          el('button', {
            type: 'button',
            class: 'danger',
            'aria-label': `Revoke ${nameOf(c)} for ${c.user.email}`,
            text: 'Revoke',
            onclick: (event) =>
              busy(event.currentTarget, async () => {
                if (!confirm(`Revoke ${nameOf(c)} for ${c.user.email}? Its tokens stop working at once.`))
                  return;
                await api(
                  `${base}/users/${encodeURIComponent(c.user.id)}/mcp/clients/${encodeURIComponent(c.clientId)}`,
                  { method: 'DELETE' },
                );
                await loadMcpClients(userId);
                say(`Revoked ${nameOf(c)} for ${c.user.email}.`);
              }),
          }),
        ],
      ]),
    ),
  );
  $('#mcp-clients').hidden = result.items.length === 0;
  $('#mcp-clients-empty').hidden = result.items.length > 0;
  $('#mcp-clients-more').hidden = result.total <= result.items.length;
  $('#mcp-clients-more').textContent = `Showing the newest ${result.items.length} of ${result.total}.`;
}

// --- auth page --------------------------------------------------------------------------------
async function authPage() {
  const form = $('#auth-settings');
  const users = { page: 1, search: '' };
  let platformIdpConfigured = true;

  const showMode = () => {
    const mode = form.idpMode.value;
    $('#custom-client').hidden = mode !== 'custom';
    form.idpClientId.required = mode === 'custom';
    $('#platform-idp-missing').hidden = mode !== 'platform' || platformIdpConfigured;
  };

  const load = async () => {
    const [project, auth] = await Promise.all([projectHeading(), api(`${base}/auth`)]);
    const a = project.auth;
    platformIdpConfigured = auth.platformIdp.configured;
    form.enabled.checked = a.enabled;
    form.emailPassword.checked = a.emailPassword;
    form.allowSignups.checked = a.allowSignups;
    form.idpMode.value = a.idpMode;
    form.idpClientId.value = a.idpClientId ?? '';
    form.idpClientSecret.placeholder = a.hasClientSecret ? 'saved (leave empty to keep)' : '';
    form.redirectSchemes.value = (a.redirectSchemes ?? []).join(', ');
    form.mcpEnabled.checked = a.mcpEnabled;
    showMode();
    form.hidden = false;
  };

  const loadUsers = async () => {
    const q = new URLSearchParams({
      page: String(users.page),
      pageSize: '20',
      ...(users.search ? { search: users.search } : {}),
    });
    const result = await api(`${base}/users?${q}`);
    $('#users tbody').replaceChildren(
      ...result.items.map((u) =>
        row([
          ['Email', el('a', { href: `/projects/${projectId}/users/${u.id}`, text: u.email })],
          ['Name', u.name ?? ''],
          [
            'Sign-in',
            [u.hasPassword && 'password', u.hasIdentityProvider && 'identity provider']
              .filter(Boolean)
              .join(', ') || 'magic link',
          ],
          ['Created', when(u.createdAt)],
          [
            '',
            el('button', {
              type: 'button',
              class: 'danger',
              'aria-label': `Delete ${u.email}`,
              text: 'Delete',
              onclick: (event) =>
                busy(event.currentTarget, async () => {
                  if (!confirm(`Delete ${u.email}? This cannot be undone.`)) return;
                  await api(`${base}/users/${u.id}`, { method: 'DELETE' });
                  await loadUsers();
                  say(`Deleted ${u.email}.`);
                }),
            }),
          ],
        ]),
      ),
    );
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
    $('#users-page').textContent =
      `Page ${result.page} of ${pages} · ${result.total} ${result.total === 1 ? 'user' : 'users'}`;
    $('#users-prev').disabled = result.page <= 1;
    $('#users-next').disabled = result.page >= pages;
    $('#users').hidden = result.items.length === 0;
    $('#users-empty').hidden = result.items.length > 0;
  };

  form.addEventListener('change', showMode);
  const authBody = () => ({
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
    mcpEnabled: form.mcpEnabled.checked,
  });
  onSubmit(form, 'auth-settings', authBody, async (body) => {
    await api(`${base}/auth`, { method: 'PUT', body: JSON.stringify(body) });
    form.idpClientSecret.value = '';
    await load();
    say('Auth settings saved.');
  });
  $('#copy-redirect').addEventListener('click', async () => {
    await navigator.clipboard?.writeText($('#redirect-uri').textContent).catch(() => undefined);
    say('Redirect URI copied.');
  });
  $('#user-search').addEventListener('submit', (event) => {
    event.preventDefault();
    users.search = $('#search').value.trim();
    users.page = 1;
    loadUsers().catch(report);
  });
  $('#users-prev').addEventListener('click', () => {
    users.page -= 1;
    loadUsers().catch(report);
  });
  $('#users-next').addEventListener('click', () => {
    users.page += 1;
    loadUsers().catch(report);
  });
  await load();
  await Promise.all([loadMcpTools(), loadMcpClients(), loadUsers()]);
}

// --- a user -----------------------------------------------------------------------------------
async function userPage() {
  const userId = document.body.dataset.userId;
  const path = `${base}/users/${encodeURIComponent(userId)}`;
  const fact = (term, ...value) => [el('dt', { text: term }), el('dd', {}, ...value)];

  const load = async () => {
    const [, user] = await Promise.all([projectHeading(), api(path)]);
    $('#user-email').textContent = user.email;
    const providers = user.providers.map((p) =>
      p.kind === 'idp' ? `identity provider (${p.issuer}${p.email ? `, ${p.email}` : ''})` : p.kind,
    );
    $('#user-facts').replaceChildren(
      ...fact('Email', user.email, user.emailVerified ? ' (confirmed)' : ' (not confirmed)'),
      ...(user.pendingEmail ? fact('Changing email to', user.pendingEmail) : []),
      ...fact('Name', user.name ?? '—'),
      ...fact('Sign-in methods', providers.join('; ') || 'magic link only'),
      ...fact('Last sign-in', user.lastSignInAt ? when(user.lastSignInAt) : 'never'),
      ...fact('Active sessions', String(user.activeSessions)),
      ...fact('Created', when(user.createdAt)),
      ...fact('User id', el('code', { text: user.id })),
    );
    $('#sessions tbody').replaceChildren(
      ...user.sessions.map((s) =>
        row([
          ['Signed in', when(s.startedAt)],
          ['Last refreshed', when(s.lastRefreshedAt)],
          [
            'State',
            el('span', {
              class: `status status-${s.active ? 'succeeded' : 'cancelled'}`,
              text: s.active ? 'active' : s.revokedAt ? 'signed out' : 'expired',
            }),
          ],
          ['Address', s.ip ?? '—'],
          ['Browser', s.userAgent ?? '—'],
        ]),
      ),
    );
    $('#sessions').hidden = user.sessions.length === 0;
    $('#sessions-empty').hidden = user.sessions.length > 0;
    $('#sign-out-everywhere').disabled = user.activeSessions === 0;
    return user;
  };

  const user = await load();
  $('#sign-out-everywhere').addEventListener('click', (event) =>
    busy(event.currentTarget, async () => {
      const { revokedSessions } = await api(`${path}/sign-out`, { method: 'POST' });
      const now = await load();
      await loadMcpClients(userId);
      say(`Signed ${user.email} out everywhere (${revokedSessions} sessions ended).`);
      return now.activeSessions > 0;
    }),
  );
  $('#delete-user').addEventListener('click', (event) =>
    busy(event.currentTarget, async () => {
      if (!confirm(`Delete ${user.email}? This cannot be undone.`)) return;
      await api(path, { method: 'DELETE' });
      location.assign(`/projects/${projectId}/auth`);
    }),
  );
  // After the buttons above work: the page is usable as soon as the user is shown.
  await loadMcpClients(userId);
}

// --- email ------------------------------------------------------------------------------------
const statusClass = (status) =>
  `status status-${status === 'sent' ? 'succeeded' : status === 'failed' ? 'failed' : 'queued'}`;

async function emailsPage() {
  const project = await projectHeading();
  const { items } = await api(`${base}/emails?pageSize=100`);
  $('#emails tbody').replaceChildren(
    ...items.map((m) =>
      row([
        ['Time', when(m.createdAt)],
        ['Kind', m.kind],
        ['To', m.to],
        ['Subject', el('a', { href: `/projects/${projectId}/emails/${m.id}`, text: m.subject })],
        ['Status', el('span', { class: statusClass(m.status), text: m.status })],
        ['Error', m.error ?? ''],
      ]),
    ),
  );
  $('#emails').hidden = items.length === 0;
  $('#emails-empty').hidden = items.length > 0 || !project.smtp;
  $('#smtp-missing').hidden = Boolean(project.smtp);
}

async function emailPage() {
  const mailId = document.body.dataset.mailId;
  const path = `${base}/emails/${encodeURIComponent(mailId)}`;
  const load = async () => {
    const [, mail] = await Promise.all([projectHeading(), api(path)]);
    const header = (name, value) => [el('dt', { text: name }), el('dd', {}, value ?? '—')];
    $('#mail-headers').replaceChildren(
      ...mail.headers.flatMap(({ name, value }) => header(name, value)),
      ...header('Kind', mail.kind),
      el('dt', { text: 'Status' }),
      el('dd', {}, el('span', { class: statusClass(mail.status), text: mail.status })),
      ...(mail.error ? header('Error', mail.error) : []),
    );
    $('#mail-preview').textContent =
      mail.preview ?? 'No preview: this mail was queued before the platform kept previews.';
    $('#resend-help').textContent = mail.resend.possible
      ? mail.resend.description
      : `This mail cannot be re-sent: ${mail.resend.description}`;
    $('#resend').hidden = !mail.resend.possible;
  };
  await load();
  $('#resend').addEventListener('click', (event) =>
    busy(event.currentTarget, async () => {
      const result = await api(`${path}/resend`, { method: 'POST' });
      say(result.message);
      if (result.mailId) {
        $('#message').append(
          ' ',
          el('a', { href: `/projects/${projectId}/emails/${result.mailId}`, text: 'Open the new mail' }),
        );
      }
    }),
  );
}

// --- SMTP and domains -------------------------------------------------------------------------
async function settingsPage() {
  const smtpForm = $('#smtp-settings');
  const testForm = $('#smtp-test');

  const renderDomains = (project) => {
    $('#domains tbody').replaceChildren(
      ...project.domains.map((d) =>
        row([
          [
            'Domain',
            d.verified
              ? el('a', { href: hostUrl(project, d.domain), text: d.domain, rel: 'noopener' })
              : d.domain,
          ],
          [
            'State',
            el('span', {
              class: `status status-${d.verified ? 'succeeded' : 'queued'}`,
              text: d.verified ? `verified ${when(d.verifiedAt)}` : 'waiting for the DNS record',
            }),
          ],
          [
            'DNS record to add',
            [
              el('code', { text: `${d.dnsRecord.type} ${d.dnsRecord.name}` }),
              el('br'),
              el('code', { text: d.dnsRecord.value }),
            ],
          ],
          [
            '',
            d.verified
              ? ''
              : el('button', {
                  type: 'button',
                  text: 'Check DNS now',
                  'aria-label': `Check the DNS record of ${d.domain} now`,
                  onclick: (event) =>
                    busy(event.currentTarget, async () => {
                      const checked = await api(`${base}/domains/${encodeURIComponent(d.domain)}/verify`, {
                        method: 'POST',
                      });
                      say(
                        checked.verified
                          ? `${d.domain} is verified and serves the project.`
                          : `The TXT record ${checked.dnsRecord.name} was not found yet; DNS changes can take a while.`,
                        checked.verified ? 'notice' : 'error',
                      );
                      renderDomains(await projectHeading());
                    }),
                }),
          ],
        ]),
      ),
    );
    $('#domains').hidden = project.domains.length === 0;
    $('#domains-empty').hidden = project.domains.length > 0;
  };

  const load = async () => {
    const project = await projectHeading();
    const smtp = project.smtp;
    smtpForm.host.value = smtp?.host ?? '';
    smtpForm.port.value = smtp ? String(smtp.port) : '';
    smtpForm.secure.checked = smtp?.secure ?? false;
    smtpForm.user.value = smtp?.user ?? '';
    smtpForm.pass.value = '';
    smtpForm.pass.placeholder = smtp?.hasPassword ? 'saved (leave empty to keep)' : '';
    smtpForm.from.value = smtp?.from ?? '';
    $('#smtp-state').textContent = smtp
      ? `Saved ${when(smtp.updatedAt)}. Mail of this project is sent through this server.`
      : 'Not configured: the project cannot send mail until an SMTP server is saved.';
    testForm.querySelector('button').disabled = !smtp;
    renderDomains(project);
  };

  const smtpBody = () => {
    const port = smtpForm.port.value.trim();
    return {
      host: smtpForm.host.value.trim(),
      port: /^\d+$/.test(port) ? Number(port) : port,
      secure: smtpForm.secure.checked,
      user: smtpForm.user.value.trim() || null,
      ...(smtpForm.pass.value
        ? { pass: smtpForm.pass.value }
        : smtpForm.user.value.trim()
          ? {}
          : { pass: null }),
      from: smtpForm.from.value.trim(),
    };
  };
  onSubmit(smtpForm, 'smtp-settings', smtpBody, async (body) => {
    await api(`${base}/smtp`, { method: 'PUT', body: JSON.stringify(body) });
    // The test-mail button is enabled by load(): say "saved" only once the page shows the saved state.
    await load();
    say('SMTP settings saved.');
  });
  onSubmit(
    testForm,
    'test-mail',
    () => ({ to: testForm.to.value.trim() }),
    async (body) => {
      const out = $('#smtp-test-result');
      out.className = '';
      out.textContent = 'Sending…';
      try {
        const result = await api(`${base}/smtp/test`, {
          method: 'POST',
          body: JSON.stringify(body),
        });
        out.className = result.sent ? 'notice' : 'error';
        out.textContent = result.sent
          ? `Test mail accepted by the SMTP server for ${result.to}.`
          : `The SMTP server did not take the test mail: ${result.error}`;
      } catch (error) {
        out.textContent = '';
        throw error;
      }
    },
  );
  onSubmit(
    $('#add-domain'),
    'add-domain',
    () => ({ domain: $('#new-domain').value.trim() }),
    async (body) => {
      const domain = await api(`${base}/domains`, { method: 'POST', body: JSON.stringify(body) });
      $('#add-domain').reset();
      say(
        domain.verified
          ? `${domain.domain} is verified.`
          : `${domain.domain} added. Add the TXT record shown below, then check it.`,
      );
      await load();
    },
  );
  await load();
}

const pages = {
  projects: projectsPage,
  auth: authPage,
  user: userPage,
  emails: emailsPage,
  email: emailPage,
  settings: settingsPage,
};
signedIn(pages[page]);
