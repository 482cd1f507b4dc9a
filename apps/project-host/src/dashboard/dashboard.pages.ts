// The dashboard's pages: static HTML shells that /assets/dashboard.js fills from the control-plane
// API once the admin token is known. Everything that needs data starts hidden inside #content.

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The pages of one project, for its sub-navigation. */
type ProjectPage = 'auth' | 'emails' | 'settings';

const PROJECT_PAGES: { page: ProjectPage; label: string }[] = [
  { page: 'auth', label: 'Auth and users' },
  { page: 'emails', label: 'Email' },
  { page: 'settings', label: 'SMTP and domains' },
];

function subnav(projectId: string, current: ProjectPage | undefined): string {
  const items = PROJECT_PAGES.map(
    ({ page, label }) =>
      `<li><a href="/projects/${esc(projectId)}/${page}"${page === current ? ' aria-current="page"' : ''}>${label}</a></li>`,
  ).join('');
  return `<nav class="subnav" aria-label="Project"><ul>${items}</ul></nav>`;
}

function layout(title: string, body: string, data: Record<string, string>): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k}="${esc(v)}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Platform dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/base.css">
<link rel="stylesheet" href="/assets/dashboard.css">
<script type="module" src="/assets/dashboard.js"></script>
</head>
<body${attrs}>
<header>
  <nav aria-label="Dashboard"><ul><li><a href="/">Projects</a></li><li><button id="signout" type="button" hidden>Sign out</button></li></ul></nav>
</header>
<main>
<div id="signin"></div>
<p id="message" role="status" aria-live="polite"></p>
<div id="content" hidden>
${body}
</div>
</main>
</body>
</html>`;
}

function projectLayout(
  title: string,
  projectId: string,
  current: ProjectPage | undefined,
  body: string,
  data: Record<string, string>,
): string {
  return layout(
    title,
    `<h1>${esc(title)} · <span id="project-name"></span></h1>
${subnav(projectId, current)}
${body}`,
    { ...data, 'project-id': projectId },
  );
}

/** The slug rule of CreateProjectDto, written for the `v` flag Chromium compiles `pattern` with. */
const SLUG_PATTERN = '[a-z0-9][a-z0-9\\-]{1,61}[a-z0-9]';

export function projectsPage(): string {
  return layout(
    'Projects',
    `<h1>Projects</h1>
<form id="create-project" class="row" aria-label="New project">
  <div class="field">
    <label for="new-slug">Slug</label>
    <input id="new-slug" name="slug" required minlength="3" maxlength="63" pattern="${SLUG_PATTERN}" autocomplete="off" aria-describedby="new-slug-help">
    <p id="new-slug-help" class="help">3 to 63 lower-case letters, digits and hyphens</p>
  </div>
  <div class="field">
    <label for="new-name">Name</label>
    <input id="new-name" name="name" maxlength="100" autocomplete="off">
    <p class="help">Optional; the slug when left out</p>
  </div>
  <div class="field"><button type="submit">Create project</button><p class="help">&nbsp;</p></div>
</form>
<table id="projects" class="cards" hidden>
  <caption class="visually-hidden">Projects</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Pages</th><th scope="col">Hosts</th></tr></thead>
  <tbody></tbody>
</table>
<p id="projects-empty" class="empty" hidden>No projects yet. Create one above: it gets a host at its slug and its own user database.</p>`,
    { page: 'projects' },
  );
}

export function authPage(projectId: string, redirectUri: string): string {
  return projectLayout(
    'Auth',
    projectId,
    'auth',
    `<form id="auth-settings" hidden aria-label="Auth settings">
  <fieldset>
    <legend>Sign-in</legend>
    <label><input type="checkbox" name="enabled"> Authentication on</label>
    <label><input type="checkbox" name="emailPassword"> Email and password</label>
    <label><input type="checkbox" name="allowSignups"> Allow sign-ups</label>
  </fieldset>
  <fieldset>
    <legend>Identity provider</legend>
    <label><input type="radio" name="idpMode" value="platform"> Platform (default)</label>
    <label><input type="radio" name="idpMode" value="custom"> Custom (your own client)</label>
    <label><input type="radio" name="idpMode" value="off"> Off</label>
    <p id="platform-idp-missing" class="warning" hidden>The platform’s identity provider is not configured (IDP_CLIENT_ID and IDP_CLIENT_SECRET are not set), so identity-provider sign-in answers 503 idp_oauth_unconfigured in Platform mode. Set those keys on the platform, or choose Custom with your own client.</p>
    <div id="custom-client" class="row" hidden>
      <div class="field"><label for="idp-client-id">Client id</label><input id="idp-client-id" name="idpClientId" autocomplete="off"></div>
      <div class="field"><label for="idp-client-secret">Client secret</label><input id="idp-client-secret" name="idpClientSecret" type="password" autocomplete="off"></div>
    </div>
    <p class="copy">Authorized redirect URI: <code id="redirect-uri">${esc(redirectUri)}</code>
      <button id="copy-redirect" type="button">Copy</button></p>
  </fieldset>
  <fieldset>
    <legend>App redirects</legend>
    <div class="field">
      <label for="redirect-schemes">App schemes allowed for redirect_uri</label>
      <input id="redirect-schemes" name="redirectSchemes" placeholder="any app scheme" autocomplete="off" aria-describedby="redirect-schemes-help">
    </div>
    <p id="redirect-schemes-help" class="help">Comma-separated, e.g. <code>com.shop.app, myapp</code>. Empty: any app scheme. Browser hand-off schemes (<code>x-safari-https</code>, <code>googlechrome</code>, <code>intent</code>…) are always refused.</p>
  </fieldset>
  <fieldset>
    <legend>MCP</legend>
    <label><input type="checkbox" name="mcpEnabled" aria-describedby="mcp-enabled-help"> MCP server on</label>
    <p id="mcp-enabled-help" class="help">The project’s <code>/mcp</code> and the sign-in of MCP clients (consent page, tokens). Off: they answer 404 and connected clients stop working until it is on again.</p>
  </fieldset>
  <button type="submit">Save</button>
</form>
<section aria-labelledby="mcp-tools-heading">
  <h2 id="mcp-tools-heading">MCP tools</h2>
  <p id="mcp-tools-state" class="help"></p>
  <table id="mcp-tools" class="cards" hidden>
    <caption class="visually-hidden">Tools the active deployment serves at /mcp</caption>
    <thead><tr><th scope="col">Tool</th><th scope="col">Description</th><th scope="col">Sign-in</th><th scope="col">Schemas</th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="mcp-tools-empty" class="empty" hidden>No MCP tools deployed. Files under <code>mcp/</code> of a deployment define them with <code>defineMcpTool</code>.</p>
</section>
<section aria-labelledby="mcp-clients-heading">
  <h2 id="mcp-clients-heading">Connected MCP clients</h2>
  <p class="help">One row per user and client the user approved on the consent page. Revoking ends that client’s tokens for that user at once; the next connection asks the user again.</p>
  <table id="mcp-clients" class="cards" hidden>
    <caption class="visually-hidden">MCP clients connected by the project’s users</caption>
    <thead><tr><th scope="col">Client</th><th scope="col">Kind</th><th scope="col">User</th><th scope="col">Approved</th><th scope="col">Last token</th><th scope="col">Connections</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="mcp-clients-more" class="help" hidden></p>
  <p id="mcp-clients-empty" class="empty" hidden>No MCP clients connected. They appear here once a user approves one on the project’s consent page.</p>
</section>
<section aria-labelledby="users-heading">
  <h2 id="users-heading">Users</h2>
  <form id="user-search" class="row" role="search">
    <div class="field"><label for="search">Email contains</label><input id="search" type="search"></div>
    <button type="submit">Search</button>
  </form>
  <table id="users" class="cards" hidden>
    <caption class="visually-hidden">Signed-up users</caption>
    <thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Sign-in</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="users-empty" class="empty" hidden>No users match. Users appear here once they sign up on one of the project’s hosts.</p>
  <p class="row"><button id="users-prev" type="button">Previous</button><span id="users-page" aria-live="polite"></span><button id="users-next" type="button">Next</button></p>
</section>`,
    { page: 'auth', 'redirect-uri': redirectUri },
  );
}

export function userPage(projectId: string, userId: string): string {
  return projectLayout(
    'User',
    projectId,
    undefined,
    `<p><a href="/projects/${esc(projectId)}/auth">← All users</a></p>
<section aria-labelledby="user-heading">
  <h2 id="user-heading">User <span id="user-email"></span></h2>
  <dl id="user-facts" class="facts"></dl>
</section>
<section aria-labelledby="sessions-heading">
  <h2 id="sessions-heading">Sessions</h2>
  <p class="help">One row per sign-in (a refresh-token family); a session stays active until it is signed out, revoked or 30 days pass.</p>
  <table id="sessions" class="cards">
    <caption class="visually-hidden">Sign-in sessions of this user</caption>
    <thead><tr><th scope="col">Signed in</th><th scope="col">Last refreshed</th><th scope="col">State</th><th scope="col">Address</th><th scope="col">Browser</th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="sessions-empty" class="empty" hidden>No sessions: this user has not signed in yet.</p>
  <p class="row">
    <button id="sign-out-everywhere" type="button" class="danger">Sign out everywhere</button>
    <button id="delete-user" type="button" class="danger">Delete user</button>
  </p>
</section>
<section aria-labelledby="user-mcp-heading">
  <h2 id="user-mcp-heading">MCP clients</h2>
  <p class="help">Clients this user approved on the consent page. Revoking ends that client’s tokens at once; the next connection asks the user again.</p>
  <table id="mcp-clients" class="cards" hidden>
    <caption class="visually-hidden">MCP clients this user connected</caption>
    <thead><tr><th scope="col">Client</th><th scope="col">Kind</th><th scope="col">Approved</th><th scope="col">Last token</th><th scope="col">Connections</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <p id="mcp-clients-more" class="help" hidden></p>
  <p id="mcp-clients-empty" class="empty" hidden>This user has not connected any MCP client.</p>
</section>`,
    { page: 'user', 'user-id': userId },
  );
}

export function emailsPage(projectId: string): string {
  return projectLayout(
    'Email',
    projectId,
    'emails',
    `<div id="smtp-missing" class="empty" hidden>
  <p><strong>Mail cannot be delivered yet: this project has no SMTP server.</strong></p>
  <p>Set the SMTP host, port, user, password and From address on <a href="/projects/${esc(projectId)}/settings">SMTP and domains</a>, then send a test mail there. Welcome, sign-in link, password reset and email-change mails appear here once they are sent.</p>
</div>
<table id="emails" class="cards" hidden>
  <caption class="visually-hidden">Mail sent for this project, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Error</th></tr></thead>
  <tbody></tbody>
</table>
<p id="emails-empty" class="empty" hidden>No mail yet. Mail appears here when a user signs up, asks for a sign-in link or a password reset, or changes their email address, and when project code sends mail.</p>`,
    { page: 'emails' },
  );
}

export function emailPage(projectId: string, mailId: string): string {
  return projectLayout(
    'Mail',
    projectId,
    undefined,
    `<p><a href="/projects/${esc(projectId)}/emails">← All mail</a></p>
<section aria-labelledby="mail-heading">
  <h2 id="mail-heading">Headers</h2>
  <dl id="mail-headers" class="facts"></dl>
</section>
<section aria-labelledby="preview-heading">
  <h2 id="preview-heading">Body preview</h2>
  <p class="help">Sign-in codes, magic links and reset links are hidden: nobody can sign in as the user from this page.</p>
  <pre id="mail-preview" class="preview"></pre>
</section>
<section aria-labelledby="resend-heading">
  <h2 id="resend-heading">Resend</h2>
  <p id="resend-help" class="help"></p>
  <button id="resend" type="button">Resend</button>
</section>`,
    { page: 'email', 'mail-id': mailId },
  );
}

export function settingsPage(projectId: string): string {
  return projectLayout(
    'SMTP and domains',
    projectId,
    'settings',
    `<section aria-labelledby="smtp-heading">
<h2 id="smtp-heading">SMTP server</h2>
<p id="smtp-state" class="help"></p>
<form id="smtp-settings" aria-label="SMTP settings">
  <div class="row">
    <div class="field"><label for="smtp-host">Host</label><input id="smtp-host" name="host" required autocomplete="off" placeholder="smtp.example.com"></div>
    <div class="field"><label for="smtp-port">Port</label><input id="smtp-port" name="port" required inputmode="numeric" autocomplete="off" placeholder="587" size="6"></div>
  </div>
  <label><input type="checkbox" name="secure"> TLS from the start (port 465); otherwise STARTTLS when the server offers it</label>
  <div class="row">
    <div class="field"><label for="smtp-user">User</label><input id="smtp-user" name="user" autocomplete="off"></div>
    <div class="field"><label for="smtp-pass">Password</label><input id="smtp-pass" name="pass" type="password" autocomplete="new-password"></div>
  </div>
  <div class="field"><label for="smtp-from">From</label><input id="smtp-from" name="from" required autocomplete="off" placeholder="Acme &lt;no-reply@acme.com&gt;"></div>
  <p class="help">Leave the password empty to keep the saved one.</p>
  <button type="submit">Save SMTP settings</button>
</form>
<form id="smtp-test" class="row" aria-label="Send a test mail">
  <div class="field"><label for="test-to">Send a test mail to</label><input id="test-to" name="to" required autocomplete="email" placeholder="you@example.com"></div>
  <button type="submit">Send test mail</button>
</form>
<p id="smtp-test-result" role="status"></p>
</section>
<section aria-labelledby="domains-heading">
<h2 id="domains-heading">Custom domains</h2>
<p class="help">A custom domain serves the project once its DNS TXT record is found. Add the record at your DNS provider, then check it.</p>
<table id="domains" class="cards">
  <caption class="visually-hidden">Custom domains and their verification state</caption>
  <thead><tr><th scope="col">Domain</th><th scope="col">State</th><th scope="col">DNS record to add</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody></tbody>
</table>
<p id="domains-empty" class="empty" hidden>No custom domains. The project is served at its id and slug hosts.</p>
<form id="add-domain" class="row" aria-label="Add a custom domain">
  <div class="field"><label for="new-domain">Domain</label><input id="new-domain" name="domain" required autocomplete="off" placeholder="app.example.com"></div>
  <button type="submit">Add domain</button>
</form>
</section>`,
    { page: 'settings' },
  );
}
