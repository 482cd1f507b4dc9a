import type { IncomingMessage, ServerResponse } from 'node:http';
import { page, type Route } from './local-site.js';

/** A login form that sends ada@example.com / correct-horse to the dashboard and anyone else back. */
export const LOGIN_PAGE = page(
  'Login',
  `<h1>Sign in</h1>
  <form id="login">
    <label for="email">Email address</label><br><input id="email" name="email" type="email"><br>
    <label for="password">Password</label><br><input id="password" name="password" type="password"><br>
    <label><input type="checkbox" id="remember"> Remember me</label><br>
    <button type="submit">Sign in</button>
  </form>
  <p id="error" role="alert"></p>
  <script>
    document.getElementById('login').addEventListener('submit', (event) => {
      event.preventDefault();
      const email = document.getElementById('email').value;
      const password = document.getElementById('password').value;
      if (email === 'ada@example.com' && password === 'correct-horse') {
        const remember = document.getElementById('remember').checked ? '1' : '0';
        setTimeout(() => { location.href = '/dashboard?remember=' + remember; }, 200);
      } else {
        document.getElementById('error').textContent = 'Invalid email or password';
      }
    });
  </script>`,
);

export const DASHBOARD_PAGE = page(
  'Dashboard',
  `<h1>Welcome back, Ada</h1><p>You have 3 new messages.</p><a href="/widgets">Widgets</a>`,
);

export const WIDGETS_PAGE = page(
  'Widgets',
  `<h1>Widgets</h1>
  <label for="color">Color</label>
  <select id="color"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
  <p id="chosen">No color chosen</p>
  <fieldset><legend>Shipping</legend>
    <label><input type="radio" name="ship" value="std" checked> Standard</label>
    <label><input type="radio" name="ship" value="exp"> Express</label>
  </fieldset>
  <label><input type="checkbox" id="news"> Send me news</label>
  <span><input type="checkbox" id="terms" style="opacity:0;position:absolute;width:1px;height:1px">
    <label for="terms" style="padding-left:22px">I accept the terms</label></span>
  <div><button id="size" role="combobox" aria-label="Size" aria-expanded="false">Size: M</button>
    <ul role="listbox" id="sizes" hidden><li role="option">Small</li><li role="option">Large</li></ul></div>
  <button id="delete">Delete account</button> <span id="deleted"></span>
  <div id="menu" style="display:inline-block;padding:8px;border:1px solid #999">Products
    <div id="card" style="display:none">Hover card: 12 products</div></div>
  <p><input id="search" placeholder="Search"> <span id="searched"></span></p>
  <ul id="todos"><li>Buy milk</li><li>Walk dog</li><li>Write tests</li></ul>
  <button id="later" disabled>Continue</button>
  <div style="height:2000px"></div>
  <footer id="footer">The end of the page</footer>
  <script>
    document.getElementById('color').addEventListener('change', (e) => {
      document.getElementById('chosen').textContent = 'You chose ' + e.target.selectedOptions[0].text;
    });
    const menu = document.getElementById('menu');
    menu.addEventListener('mouseenter', () => { document.getElementById('card').style.display = 'block'; });
    document.getElementById('search').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') document.getElementById('searched').textContent = 'Searched for ' + e.target.value;
      if (e.key === 'Escape') e.target.value = '';
    });
    setTimeout(() => { document.getElementById('later').disabled = false; }, 600);
    const size = document.getElementById('size');
    const sizes = document.getElementById('sizes');
    size.addEventListener('click', () => { sizes.hidden = !sizes.hidden; });
    for (const option of sizes.querySelectorAll('[role=option]')) {
      option.addEventListener('click', () => { size.textContent = 'Size: ' + option.textContent; sizes.hidden = true; });
    }
    document.getElementById('delete').addEventListener('click', () => {
      if (confirm('Really delete?')) document.getElementById('deleted').textContent = 'Account deleted';
    });
  </script>`,
);

/** Accepts the connection and never answers, to run a navigation into its timeout. */
export function neverAnswers(_request: IncomingMessage, _response: ServerResponse): void {
  // Left open on purpose; the test server closes all connections when it stops.
}

/** A page whose button freezes the renderer, so browser calls never return. */
export const FROZEN_PAGE = page(
  'Frozen',
  `<button id="freeze">Freeze</button>
  <script>document.getElementById('freeze').addEventListener('click', () => { for (;;) {} });</script>`,
);

export const DEMO_ROUTES: Record<string, Route> = {
  '/frozen': FROZEN_PAGE,
  '/login': LOGIN_PAGE,
  '/dashboard': DASHBOARD_PAGE,
  '/widgets': WIDGETS_PAGE,
  '/slow': neverAnswers,
};
