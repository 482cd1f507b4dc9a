import { page, type Route } from './local-site.js';

/**
 * Pages written the way real apps are: a to-do list whose checkboxes are not tied to their labels
 * and whose delete buttons show only while the row is hovered, a table of users with per-row
 * actions and icon buttons, product cards, the same to-do list as Web Components (open shadow
 * roots), and a form inside a same-origin iframe.
 */
const TODO_STYLE = `<style>
  .todo-list { list-style: none; padding: 0; width: 420px }
  .todo-list li { position: relative; padding: 8px 40px 8px 8px; border-bottom: 1px solid #ddd }
  .todo-list li .destroy { display: none; position: absolute; right: 8px; top: 6px; border: 0; background: none }
  .todo-list li:hover .destroy { display: block }
  .todo-list li.completed label { text-decoration: line-through }
  .todo-list li .edit { display: none }
  .todo-list li.editing .edit { display: block }
  .todo-list li.editing .view { display: none }
  .toggle-all { opacity: 0; position: absolute }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }
</style>`;

export const TODO_APP = page(
  'Todos',
  `${TODO_STYLE}
  <header><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>
  <section class="main">
    <input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label>
    <ul class="todo-list"></ul>
  </section>
  <footer><span class="todo-count"></span>
    <ul class="filters"><li><a href="#/">All</a></li><li><a href="#/active">Active</a></li><li><a href="#/completed">Completed</a></li></ul>
    <button class="clear-completed">Clear completed</button></footer>
  <script>
    const list = document.querySelector('.todo-list');
    const todos = [];
    function render() {
      list.innerHTML = '';
      const filter = location.hash.replace('#/', '');
      todos.forEach((todo, i) => {
        if ((filter === 'active' && todo.done) || (filter === 'completed' && !todo.done)) return;
        const li = document.createElement('li');
        if (todo.done) li.className = 'completed';
        li.innerHTML = '<div class="view"><input class="toggle" type="checkbox"><label></label>' +
          '<button class="destroy"></button></div><input class="edit">';
        li.querySelector('label').textContent = todo.title;
        li.querySelector('.toggle').checked = todo.done;
        li.querySelector('.toggle').addEventListener('change', (e) => { todo.done = e.target.checked; render(); });
        li.querySelector('.destroy').addEventListener('click', () => { todos.splice(i, 1); render(); });
        li.querySelector('label').addEventListener('dblclick', () => {
          li.classList.add('editing');
          const edit = li.querySelector('.edit');
          edit.value = todo.title;
          edit.focus();
        });
        li.querySelector('.edit').addEventListener('keydown', (e) => {
          if (e.key === 'Enter') { todo.title = e.target.value.trim(); render(); }
        });
        list.appendChild(li);
      });
      document.getElementById('toggle-all').checked = todos.length > 0 && todos.every((t) => t.done);
      const left = todos.filter((t) => !t.done).length;
      document.querySelector('.todo-count').textContent = left + (left === 1 ? ' item left' : ' items left');
    }
    document.querySelector('.new-todo').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target.value.trim()) { todos.push({ title: e.target.value.trim(), done: false }); e.target.value = ''; render(); }
    });
    document.getElementById('toggle-all').addEventListener('change', (e) => { todos.forEach((t) => { t.done = e.target.checked; }); render(); });
    document.querySelector('.clear-completed').addEventListener('click', () => {
      for (let i = todos.length - 1; i >= 0; i--) if (todos[i].done) todos.splice(i, 1);
      render();
    });
    window.addEventListener('hashchange', render);
    render();
  </script>`,
);

export const USERS_TABLE = page(
  'Users',
  `<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  td,th{padding:6px 12px;text-align:left}</style>
  <h1>Users</h1>
  <table><thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Actions</th></tr></thead>
  <tbody id="rows"></tbody></table>
  <p id="status">Nothing selected</p>
  <script>
    const people = [
      ['Ada Lovelace', 'ada@example.com', 'Engineer'],
      ['Alan Turing', 'alan@example.com', 'Admin'],
      ['Grace Hopper', 'grace@example.com', 'Engineer'],
    ];
    const rows = document.getElementById('rows');
    function render() {
      rows.innerHTML = '';
      for (const [name, email, role] of people) {
        const tr = document.createElement('tr');
        tr.innerHTML = '<td></td><td></td><td></td><td><button class="btn">Edit</button> ' +
          '<button class="icon-btn" title="Remove user"><svg width="14" height="14" aria-hidden="true"><rect width="14" height="14"/></svg></button> ' +
          '<label><input type="checkbox" class="pick"><span class="sr-only">Select row</span></label></td>';
        tr.children[0].textContent = name;
        tr.children[1].textContent = email;
        tr.children[2].textContent = role;
        tr.querySelector('.btn').addEventListener('click', () => { document.getElementById('status').textContent = 'Editing ' + name; });
        tr.querySelector('.icon-btn').addEventListener('click', () => {
          people.splice(people.findIndex((p) => p[0] === name), 1);
          document.getElementById('status').textContent = 'Removed ' + name;
          render();
        });
        rows.appendChild(tr);
      }
    }
    render();
  </script>`,
);

export const PRODUCT_CARDS = page(
  'Shop',
  `<style>.card{display:inline-block;border:1px solid #ccc;margin:8px;padding:8px;width:160px}</style>
  <h1>Shop</h1><p>Cart: <span id="cart">0</span> items</p>
  <div class="grid">
    <div class="card"><h3>Blue mug</h3><span class="price">€12</span><button aria-label="Add to cart">🛒</button></div>
    <div class="card"><h3>Red mug</h3><span class="price">€14</span><button aria-label="Add to cart">🛒</button></div>
    <div class="card"><h3>Green plate</h3><span class="price">€9</span><button aria-label="Add to cart">🛒</button></div>
  </div>
  <script>
    for (const button of document.querySelectorAll('.card button')) {
      button.addEventListener('click', () => {
        const cart = document.getElementById('cart');
        cart.textContent = String(Number(cart.textContent) + 1);
      });
    }
  </script>`,
);

/** The to-do list as Web Components: every control sits in an open shadow root. */
export const TODO_COMPONENTS = page(
  'Todos (components)',
  `<todo-app></todo-app>
  <script>
    customElements.define('todo-item', class extends HTMLElement {
      connectedCallback() {
        const root = this.attachShadow({ mode: 'open' });
        root.innerHTML = '<style>li{list-style:none;padding:6px}</style><li><input type="checkbox" class="toggle">' +
          '<label></label><button class="destroy" aria-label="Delete">×</button></li>';
        root.querySelector('label').textContent = this.getAttribute('text');
        root.querySelector('.destroy').addEventListener('click', () => this.remove());
      }
    });
    customElements.define('todo-app', class extends HTMLElement {
      connectedCallback() {
        const root = this.attachShadow({ mode: 'open' });
        root.innerHTML = '<h1>todos</h1><input class="new-todo" placeholder="What needs to be done?"><ul></ul>';
        root.querySelector('input').addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' || !e.target.value.trim()) return;
          const item = document.createElement('todo-item');
          item.setAttribute('text', e.target.value.trim());
          root.querySelector('ul').appendChild(item);
          e.target.value = '';
        });
      }
    });
  </script>`,
);

const FRAMED_FORM = page(
  'Newsletter',
  `<form id="f"><label for="mail">Your email</label> <input id="mail" type="email">
  <button type="submit">Subscribe</button></form><p id="done"></p>
  <script>document.getElementById('f').addEventListener('submit', (e) => {
    e.preventDefault();
    document.getElementById('done').textContent = 'Subscribed ' + document.getElementById('mail').value;
  });</script>`,
);

export const FRAMED_PAGE = page(
  'Framed',
  `<h1>Blog</h1><p>Some article text.</p>
  <iframe src="/framed-form" style="margin-top:40px;width:500px;height:160px;border:2px solid #999"></iframe>`,
);

/** A contact list whose row actions are rendered only while the row is hovered (React style). */
export const HOVER_ACTIONS = page(
  'Contacts',
  `<ul id="contacts" style="width:360px"><li>Ada Lovelace</li><li>Alan Turing</li></ul><p id="said">Nothing yet</p>
  <script>
    for (const li of document.querySelectorAll('#contacts li')) {
      const name = li.textContent;
      li.addEventListener('mouseenter', () => {
        const button = document.createElement('button');
        button.textContent = 'Call';
        button.addEventListener('click', () => { document.getElementById('said').textContent = 'Calling ' + name; });
        li.appendChild(button);
      });
      li.addEventListener('mouseleave', () => li.querySelector('button')?.remove());
    }
  </script>`,
);

/** Settings drawn by components: checkboxes whose host has the role and a native input inside. */
export const SETTINGS_COMPONENTS = page(
  'Settings',
  `<x-check>Email me</x-check> <x-check>Text me</x-check>
  <p><input type="checkbox" role="switch" id="dark"><label for="dark">Dark mode</label></p>
  <form><p>Weekly digest</p><label><input type="checkbox" id="terms"> Accept the terms</label></form>
  <script>
    customElements.define('x-check', class extends HTMLElement {
      connectedCallback() {
        this.setAttribute('role', 'checkbox');
        this.setAttribute('aria-checked', 'false');
        const root = this.attachShadow({ mode: 'open' });
        root.innerHTML = '<label><input type="checkbox"><slot></slot></label>';
        root.querySelector('input').addEventListener('change', (e) => this.setAttribute('aria-checked', String(e.target.checked)));
      }
    });
  </script>`,
);

export const REAL_APP_ROUTES: Record<string, Route> = {
  '/contacts': HOVER_ACTIONS,
  '/settings': SETTINGS_COMPONENTS,
  '/todos': TODO_APP,
  '/users': USERS_TABLE,
  '/shop': PRODUCT_CARDS,
  '/components': TODO_COMPONENTS,
  '/framed': FRAMED_PAGE,
  '/framed-form': FRAMED_FORM,
};
