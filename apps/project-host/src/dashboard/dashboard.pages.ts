const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
${body}
</main>
</body>
</html>`;
}

export function projectsPage(): string {
  return layout(
    'Projects',
    `<h1>Projects</h1>
<form id="create-project" class="row" aria-label="New project">
  <label for="new-slug">Slug <input id="new-slug" name="slug" required pattern="[a-z0-9][a-z0-9-]{1,61}[a-z0-9]"></label>
  <label for="new-name">Name <input id="new-name" name="name"></label>
  <button type="submit">Create project</button>
</form>
<table id="projects" hidden>
  <caption class="visually-hidden">Projects</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Mail</th><th scope="col">Hosts</th></tr></thead>
  <tbody></tbody>
</table>`,
    { page: 'projects' },
  );
}

export function authPage(projectId: string, redirectUri: string): string {
  return layout(
    'Auth',
    `<h1>Auth · <span id="project-name"></span></h1>
<p><a href="/projects/${esc(projectId)}/emails">Email log</a></p>
<form id="auth-settings" hidden aria-label="Auth settings">
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
    <div id="custom-client" class="row" hidden>
      <label for="idp-client-id">Client id <input id="idp-client-id" name="idpClientId" autocomplete="off"></label>
      <label for="idp-client-secret">Client secret <input id="idp-client-secret" name="idpClientSecret" type="password" autocomplete="off"></label>
    </div>
    <p class="copy">Authorized redirect URI: <code id="redirect-uri">${esc(redirectUri)}</code>
      <button id="copy-redirect" type="button">Copy</button></p>
  </fieldset>
  <fieldset>
    <legend>App redirects</legend>
    <label for="redirect-schemes">App schemes allowed for redirect_uri <input id="redirect-schemes" name="redirectSchemes" placeholder="any app scheme" autocomplete="off" aria-describedby="redirect-schemes-help"></label>
    <p id="redirect-schemes-help">Comma-separated, e.g. <code>com.shop.app, myapp</code>. Empty: any app scheme. Browser hand-off schemes (<code>x-safari-https</code>, <code>googlechrome</code>, <code>intent</code>…) are always refused.</p>
  </fieldset>
  <button type="submit">Save</button>
</form>
<section aria-labelledby="users-heading">
  <h2 id="users-heading">Users</h2>
  <form id="user-search" class="row" role="search">
    <label for="search">Email contains <input id="search" type="search"></label>
    <button type="submit">Search</button>
  </form>
  <table id="users" hidden>
    <caption class="visually-hidden">Signed-up users</caption>
    <thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Sign-in</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody></tbody>
  </table>
  <p class="row"><button id="users-prev" type="button">Previous</button><span id="users-page" aria-live="polite"></span><button id="users-next" type="button">Next</button></p>
</section>`,
    { page: 'auth', 'project-id': projectId },
  );
}

export function emailsPage(projectId: string): string {
  return layout(
    'Email',
    `<h1>Email · <span id="project-name"></span></h1>
<p><a href="/projects/${esc(projectId)}/auth">Auth settings and users</a></p>
<table id="emails" hidden>
  <caption class="visually-hidden">Mail sent for this project, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Error</th></tr></thead>
  <tbody></tbody>
</table>
<p id="emails-empty" hidden>No mail yet.</p>`,
    { page: 'emails', 'project-id': projectId },
  );
}
