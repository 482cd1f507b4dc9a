/* global document, window */
// The page of the example: a plain ES module, no build step. The browser client is served by
// `platform dev` from the suite's own build (no CDN) at /_platform/client.js.
import { createClient } from '/_platform/client.js';

const client = createClient({ url: window.location.origin });
const $ = (id) => document.getElementById(id);
const show = (value) => {
  $('output').textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
};

async function render() {
  const { user } = await client.auth.getUser();
  $('signed-out').hidden = Boolean(user);
  $('signed-in').hidden = !user;
  $('user-email').textContent = user ? user.email : '';
}

$('auth-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const email = String(form.get('email'));
  const password = String(form.get('password'));
  try {
    if (event.submitter?.value === 'sign-up') {
      await client.auth.signUp({ email, password, name: String(form.get('name') || '') || undefined });
      show('Signed up: check the platform dev terminal for the welcome mail and the hook output.');
    } else {
      await client.auth.signIn.email({ email, password });
      show('Signed in.');
    }
    await render();
  } catch (error) {
    show(`${error.code ?? 'error'}: ${error.message}`);
  }
});

$('load-boards').addEventListener('click', async () => {
  try {
    // GET /api/boards/list with the Bearer token (auth: 'required'); refreshes once on 401.
    show(await client.api.boards.list.get());
  } catch (error) {
    show(`${error.code ?? 'error'}: ${error.message}`);
  }
});

$('sign-out').addEventListener('click', async () => {
  await client.auth.signOut();
  show('Signed out.');
  await render();
});

client
  .get('/api/hello')
  .then((hello) => ($('hello').textContent = hello.message))
  .catch((error) => ($('hello').textContent = `API not deployed yet: ${error.message}`));
client.auth.consumeTokenFromUrl();
render().catch((error) => show(error.message));
