import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What can change on the site between two runs of the same test. */
export interface SiteLook {
  /** The sign-in button's label (and id): renaming it breaks a recorded click. */
  button: string;
  /** The welcome page's heading: changing it breaks a recorded assertion. */
  welcome: string;
}

export interface ChangeableSite {
  url: string;
  look: SiteLook;
  close(): Promise<void>;
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/**
 * A sign-in form (ada@example.com / `password`) leading to a welcome page, whose button label and
 * welcome text a test can change while it runs, to see recorded runs break and heal.
 */
export async function serveChangeableSite(password: string): Promise<ChangeableSite> {
  const look: SiteLook = { button: 'Sign in', welcome: 'Welcome back, Ada' };
  const login = () =>
    page(
      'Login',
      `<h1>Sign in</h1>
      <form id="f">
        <label for="email">Email</label><input id="email" type="email">
        <label for="password">Password</label><input id="password" type="password">
        <button id="${look.button.toLowerCase().replace(/\W+/g, '-')}" type="submit">${look.button}</button>
      </form>
      <p id="error" role="alert"></p>
      <script>
        document.getElementById('f').addEventListener('submit', (e) => {
          e.preventDefault();
          const ok = document.getElementById('email').value === 'ada@example.com'
            && document.getElementById('password').value === ${JSON.stringify(password)};
          if (ok) location.href = '/welcome';
          else document.getElementById('error').textContent = 'Invalid email or password';
        });
      </script>`,
    );
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body =
      path === '/login'
        ? login()
        : path === '/welcome'
          ? page('Welcome', `<h1>${look.welcome}</h1><p>You have 3 new messages.</p>`)
          : undefined;
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    look,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
