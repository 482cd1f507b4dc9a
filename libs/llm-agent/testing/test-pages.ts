import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** Sign-in with ada@example.com / the given password leads to /welcome; anything else shows an error. */
function loginPage(password: string): string {
  return page(
    'Login',
    `<h1>Sign in</h1>
    <form id="f">
      <label for="email">Email</label><input id="email" type="email">
      <label for="password">Password</label><input id="password" type="password">
      <button type="submit">Sign in</button>
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
}

/** A plain text field whose value is echoed on the page: a secret typed here must not reach the model. */
const CODE_PAGE = page(
  'Access code',
  `<h1>Enter your access code</h1>
  <label for="code">Access code</label><input id="code" type="text">
  <button id="go" type="button">Submit</button>
  <p id="out"></p>
  <script>
    document.getElementById('go').addEventListener('click', () => {
      document.getElementById('out').textContent = 'Code accepted: ' + document.getElementById('code').value;
    });
  </script>`,
);

export interface TestSite {
  url: string;
  close(): Promise<void>;
}

export async function serveTestSite(password: string): Promise<TestSite> {
  const routes: Record<string, string> = {
    '/login': loginPage(password),
    '/welcome': page('Welcome', '<h1>Welcome back, Ada</h1><p>You have 3 new messages.</p>'),
    '/code': CODE_PAGE,
  };
  const server = createServer((request, response) => {
    const body = routes[new URL(request.url ?? '/', 'http://localhost').pathname];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
