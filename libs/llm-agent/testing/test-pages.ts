import { type LocalSite, serveLocalSite } from '../../browser-agent/testing/local-site.js';

/** A minimal HTML document, without styles (what the model sees stays small). */
export function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/**
 * Sign-in with ada@example.com / the given password leads to /welcome; anything else shows an error.
 * The button's label (and then its id) can be changed, to break a recorded click.
 */
export function loginPage(password: string, button?: string): string {
  const id = button ? ` id="${button.toLowerCase().replace(/\W+/g, '-')}"` : '';
  return page(
    'Login',
    `<h1>Sign in</h1>
    <form id="f">
      <label for="email">Email</label><input id="email" type="email">
      <label for="password">Password</label><input id="password" type="password">
      <button${id} type="submit">${button ?? 'Sign in'}</button>
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

export type TestSite = LocalSite;

export async function serveTestSite(password: string): Promise<TestSite> {
  return serveLocalSite({
    '/login': loginPage(password),
    '/welcome': page('Welcome', '<h1>Welcome back, Ada</h1><p>You have 3 new messages.</p>'),
    '/code': CODE_PAGE,
  });
}
