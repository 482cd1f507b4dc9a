import { page, type Route } from './local-site.js';

/**
 * Pages for sentences that hold several actions, plural and ordinal targets and values read from
 * the page (clause-grammar.ts). Each has a twin missing one piece, on which the same sentence must
 * fail at the step that needs it.
 */
const LOGIN = (withPassword: boolean) =>
  page(
    'Log in',
    `<form onsubmit="event.preventDefault(); out.textContent = u.value === 'ada' && (window.p ? p.value === 'x1' : false) ? 'Welcome ada' : 'Wrong login'">
      <label>Username <input id="u" type="text"></label>
      ${withPassword ? '<label>Password <input id="p" type="text"></label>' : ''}
      <button>Log in</button></form><p id="out"></p>`,
  );

const BUTTONS = (names: string[]) =>
  page(
    'Buttons',
    `${names.map((n) => `<button onclick="log.textContent += ' ${n}'">${n}</button>`).join(' ')}
    <p>clicked<span id="log"></span></p>`,
  );

const SPINNER = (kind: 'number' | 'text') =>
  page(
    'Spinner',
    `<label>Offset <input id="n" type="${kind}" value="0"></label>
    <button onclick="out.textContent = 'value ' + n.value">Submit</button><p id="out"></p>`,
  );

const CHOICES = page(
  'Choices',
  `<fieldset><legend>Size</legend><label><input type="radio" name="s" value="S"> Small</label>
  <label><input type="radio" name="s" value="L"> Large</label></fieldset>
  <label>First <input id="a"></label> <label>Second <input id="b"></label>
  <button onclick="out.textContent = (document.querySelector('[name=s]:checked') || {}).value + '/' + a.value + '/' + b.value">Show</button>
  <p id="out"></p>`,
);

const CONTACT = (withEmail: boolean) =>
  page(
    'Contact',
    `<form onsubmit="event.preventDefault(); out.textContent = 'Thanks ' + nm.value + (window.em ? ' <' + em.value + '>' : '')">
      <label>Name <input id="nm"></label>
      ${withEmail ? '<label>Email <input id="em" type="email"></label>' : ''}
      <button>Send</button></form><p id="out"></p>`,
  );

const FRUIT = (fruit: string[]) =>
  page(
    'Fruit',
    `${fruit.map((f) => `<label><input type="checkbox" value="${f}"> ${f}</label>`).join('<br>')}
    <button onclick="out.textContent = 'picked ' + [...document.querySelectorAll(':checked')].map((c) => c.value).join(',')">Submit</button>
    <p id="out"></p>`,
  );

export const SENTENCE_ROUTES: Record<string, Route> = {
  '/login': LOGIN(true),
  '/login-without-password': LOGIN(false),
  '/buttons': BUTTONS(['ONE', 'TWO']),
  '/buttons-without-two': BUTTONS(['ONE', 'THREE']),
  '/spinner': SPINNER('number'),
  '/no-spinner': SPINNER('text'),
  '/choices': CHOICES,
  '/contact': CONTACT(true),
  '/contact-without-email': CONTACT(false),
  '/fruit': FRUIT(['Apple', 'Kiwi', 'Plum', 'Pear']),
  '/fruit-without-kiwi': FRUIT(['Apple', 'Plum', 'Pear']),
};

const CHECKLIST = (count: number) =>
  page(
    'Checklist',
    `<ul>${Array.from({ length: count }, (_, i) => `<li><input type="checkbox" id="c${i}"> <span>Task ${i + 1}</span> <button onclick="this.parentElement.remove()">Delete</button></li>`).join('')}</ul>
    <a href="#one">First link</a> <a href="#two">Middle link</a> <a href="#three">Final link</a>
    <label>A <input id="fa"></label> <label>B <input id="fb"></label> <label>C <input id="fc"></label>
    <p id="out"></p>`,
  );

const PEOPLE = page(
  'People',
  `<table><thead><tr><th>Name</th><th>Action</th></tr></thead><tbody>
    ${['Ada', 'Grace', 'Linus', 'Barbara'].map((n) => `<tr onclick="out.textContent='row ${n}'"><td style="width:400px">${n}</td><td><button onclick="event.stopPropagation(); out.textContent='deleted ${n}'">Delete</button> <button onclick="event.stopPropagation(); out.textContent='second button ${n}'">Delete</button></td></tr>`).join('')}
    </tbody></table><p id="out"></p>`,
);

const POSTS = (authors: string[]) =>
  page(
    'Posts',
    `${authors.map((a, i) => `<article><header><strong>${a}</strong> wrote</header><p>Post number ${i + 1}</p><button onclick="this.textContent='Replied'; count.textContent = Number(count.textContent) + 1">Reply</button></article>`).join('')}
    <p>replies: <span id="count">0</span></p>`,
  );

const PASSWORDS = page(
  'Sign up',
  `<label>Email <input id="e"></label> <label>Password <input id="p1" type="password"></label>
  <label>Confirm password <input id="p2" type="password"></label>
  <button onclick="out.textContent = p1.value && p1.value === p2.value ? 'passwords match' : 'passwords differ'">Check</button><p id="out"></p>`,
);

Object.assign(SENTENCE_ROUTES, {
  '/checklist': CHECKLIST(4),
  '/empty-checklist': CHECKLIST(0),
  '/people': PEOPLE,
  '/posts': POSTS(['@ada', '@bob', '@ada']),
  '/posts-without-ada': POSTS(['@bob', '@cy']),
  '/passwords': PASSWORDS,
  '/one-password': page(
    'Log in',
    `<label>Email <input id="e"></label> <label>Password <input id="p1" type="password"></label>`,
  ),
});

const COLOR = (withColor: boolean) =>
  page(
    'Color',
    `<table><tr><th>Size</th><td>M</td></tr>${withColor ? '<tr><th>Color</th><td>Teal</td></tr>' : ''}</table>
    <label>Answer <input id="answer"></label>`,
  );

const COPY = page(
  'Copy',
  `<label>Notes <textarea id="notes">copy me, please</textarea></label> <label>Answer <input id="answer"></label>`,
);

const VALUES = page(
  'Values',
  `<table><thead><tr><th>Product</th><th>Price</th></tr></thead><tbody><tr><td>Mug</td><td>€12</td></tr></tbody></table>
  <p>Order number: <strong>A-1234</strong></p><p>Your booking code is B-77.</p><p>Total: $30.00</p>
  <label>Reference <input id="ref"></label> <label>Code <input id="code"></label>`,
);

Object.assign(SENTENCE_ROUTES, {
  '/color': COLOR(true),
  '/color-without-color': COLOR(false),
  '/copy': COPY,
  '/values': VALUES,
});

/** Orders drawn as cards marked "order-card", beside a list of tips that are no orders. */
const ORDERS = (customers: string[]) =>
  page(
    'Orders',
    `<h1>Orders</h1><ul class="tips"><li>Tip: orders ship daily</li><li>Tip: returns are free</li></ul>
    <div class="orders">${customers.map((c, i) => `<div class="order-card"><b>A-${i + 1}</b> ${c}</div>`).join('')}</div>`,
  );

/** A shopping list, with a navigation list that is not part of it. */
const SHOPPING = (items: string[]) =>
  page(
    'Shopping',
    `<nav><ul><li><a href="#">Home</a></li><li><a href="#">Lists</a></li></ul></nav>
    <ul id="list">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`,
  );

/** A form saved by its Save button; the twin's button says Store. */
const SETTINGS = (button: string) =>
  page(
    'Settings',
    `<label>Nickname <input id="n"></label> <button onclick="out.textContent = 'saved ' + n.value">${button}</button>
    <p id="out"></p>`,
  );

Object.assign(SENTENCE_ROUTES, {
  '/orders': ORDERS(['Ada Park', 'Dan Wu']),
  '/orders-three': ORDERS(['Ada Park', 'Dan Wu', 'Eve Lin']),
  '/shopping': SHOPPING(['Milk', 'Eggs']),
  '/shopping-three': SHOPPING(['Milk', 'Eggs', 'Bread']),
  '/settings': SETTINGS('Save'),
  '/settings-store': SETTINGS('Store'),
});

/** A shop: a cookie banner, products with their Add to cart buttons, and a Sign out button (or none). */
const SHOP = (withSignOut: boolean) =>
  page(
    'Shop',
    `<div id="cookies" role="region" aria-label="Cookies"><p>We use cookies.</p><button onclick="cookies.remove()">Accept all cookies</button> <button>Settings</button></div>
    ${['Mug', 'Lamp', 'Desk']
      .map((p) => `<article><h2>${p}</h2><button onclick="add('${p}')">Add to cart</button></article>`)
      .join('')}
    <p id="cart">Cart: empty</p>${withSignOut ? '<button onclick="out.textContent = \'Signed out\'">Sign out</button>' : ''}<p id="out"></p>
    <script>const items = []; function add(p) { items.push(p); cart.textContent = 'Cart: ' + items.join(', '); }</script>`,
  );

Object.assign(SENTENCE_ROUTES, {
  '/shop': SHOP(true),
  '/shop-without-sign-out': SHOP(false),
});

/** A page busy for a moment: its loading spinner goes away and the data shows (or it never does). */
const LOADING = (finishes: boolean) =>
  page(
    'Loading',
    `<div class="loading-spinner" aria-label="Loading"></div><p id="data"></p>
    <style>.loading-spinner{width:20px;height:20px;border:3px solid #999;border-radius:50%}</style>
    <script>${finishes ? "setTimeout(() => { document.querySelector('.loading-spinner').remove(); data.textContent = 'Loaded'; }, 700);" : ''}</script>`,
  );

Object.assign(SENTENCE_ROUTES, {
  '/loading': LOADING(true),
  '/loading-forever': LOADING(false),
});

/** A sign-up form that says what is missing. */
const REGISTER = page(
  'Register',
  `<form onsubmit="event.preventDefault(); const missing = !em.value; err.hidden = !missing; out.textContent = missing ? '' : 'Welcome ' + nm.value">
    <label>Name <input id="nm"></label> <label>Email <input id="em" type="email"></label>
    <label>Password <input id="pw" type="password"></label> <button>Register</button></form>
  <p class="error" id="err" hidden>Email is required</p><p id="out"></p>`,
);

/** People with Edit and Delete in each row; deleting asks for confirmation. */
const PEOPLE_ADMIN = page(
  'People',
  `<table><thead><tr><th>Name</th><th></th></tr></thead><tbody>${['Ada', 'Bob', 'Cy']
    .map(
      (n) =>
        `<tr><td>${n}</td><td><button onclick="out.textContent = 'Editing ${n}'">Edit</button> <button onclick="ask('${n}', this)">Delete</button></td></tr>`,
    )
    .join('')}</tbody></table><p id="out"></p>
  <dialog id="confirm"><p>Delete this person?</p><button id="yes">Confirm</button> <button onclick="confirm.close()">Cancel</button></dialog>
  <script>let row; function ask(n, b) { row = b.closest('tr'); document.getElementById('confirm').showModal(); }
  yes.onclick = () => { row.remove(); document.getElementById('confirm').close(); };</script>`,
);

Object.assign(SENTENCE_ROUTES, { '/register': REGISTER, '/people-admin': PEOPLE_ADMIN });

/** Search results as a list of entries, each a link (none, on the twin). */
const RESULTS = (found: string[]) =>
  page(
    'Search',
    `<label>Search <input id="q" type="search"></label>
    <ul id="results">${found.map((r, i) => `<li class="result"><a href="#r${i + 1}" onclick="out.textContent = 'Opened ${r}'">${r}</a><p>In stock</p></li>`).join('')}</ul>
    <p id="out"></p>`,
  );

Object.assign(SENTENCE_ROUTES, {
  '/results': RESULTS(['Wireless Mouse M1', 'Wireless Mouse M2']),
  '/no-results': RESULTS([]),
});
