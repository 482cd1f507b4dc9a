import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Route } from './local-site.js';

/**
 * TodoMVC as its framework versions render it, styled by the real `todomvc-app-css`: the toggle-all
 * checkbox is a 1-pixel transparent input whose label draws the arrow (its text at font size 0),
 * row checkboxes are transparent inputs over a drawn circle, the destroy button shows only while
 * its row is hovered, and double-clicking a label opens the row's edit field.
 *
 * - `vanilla`: the reference markup, label text "Mark all as complete";
 * - `vue`: the toggle-all label has no text at all;
 * - `react`: the input and label sit in a `.toggle-all-container`, the label says "Toggle All Input",
 *   and the input carries a test id.
 * `broken-edit` is the vanilla app whose Enter does not save an edit (for tests that must fail).
 */
export type TodoVariant = 'vanilla' | 'vue' | 'react' | 'broken-edit' | 'no-toggle-all';

const CSS = readFileSync(createRequire(import.meta.url).resolve('todomvc-app-css/index.css'), 'utf8');

function toggleAll(variant: TodoVariant): string {
  switch (variant) {
    case 'vue':
      return '<input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all"></label>';
    case 'react':
      return '<div class="toggle-all-container"><input class="toggle-all" type="checkbox" id="toggle-all" data-testid="toggle-all"><label class="toggle-all-label" for="toggle-all">Toggle All Input</label></div>';
    case 'no-toggle-all':
      return '';
    default:
      return '<input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label>';
  }
}

export function todoMvcPage(variant: TodoVariant): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TodoMVC (${variant})</title>
<style>${CSS}</style></head><body>
<section class="todoapp">
  <header class="header"><h1>todos</h1><input class="new-todo" placeholder="What needs to be done?" autofocus></header>
  <section class="main">${toggleAll(variant)}<ul class="todo-list"></ul></section>
  <footer class="footer"><span class="todo-count"></span>
    <ul class="filters"><li><a href="#/" class="selected">All</a></li><li><a href="#/active">Active</a></li><li><a href="#/completed">Completed</a></li></ul>
    <button class="clear-completed">Clear completed</button></footer>
</section>
<script>
  const saveOnEnter = ${variant !== 'broken-edit'};
  const todos = [];
  const list = document.querySelector('.todo-list');
  const all = document.querySelector('.toggle-all');
  function render() {
    const filter = location.hash.replace('#/', '');
    list.innerHTML = '';
    todos.forEach((todo, i) => {
      if ((filter === 'active' && todo.done) || (filter === 'completed' && !todo.done)) return;
      const li = document.createElement('li');
      if (todo.done) li.className = 'completed';
      li.innerHTML = '<div class="view"><input class="toggle" type="checkbox"><label></label><button class="destroy"></button></div><input class="edit">';
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
        if (e.key === 'Enter' && saveOnEnter) { todo.title = e.target.value.trim(); render(); }
        if (e.key === 'Escape') render();
      });
      list.appendChild(li);
    });
    const left = todos.filter((t) => !t.done).length;
    document.querySelector('.todo-count').innerHTML = '<strong>' + left + '</strong> ' + (left === 1 ? 'item' : 'items') + ' left';
    if (all) all.checked = todos.length > 0 && left === 0;
  }
  document.querySelector('.new-todo').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !e.target.value.trim()) return;
    todos.push({ title: e.target.value.trim(), done: false });
    e.target.value = '';
    render();
  });
  if (all) all.addEventListener('change', (e) => { todos.forEach((t) => { t.done = e.target.checked; }); render(); });
  document.querySelector('.clear-completed').addEventListener('click', () => {
    for (let i = todos.length - 1; i >= 0; i--) if (todos[i].done) todos.splice(i, 1);
    render();
  });
  window.addEventListener('hashchange', render);
  render();
</script></body></html>`;
}

export const TODOMVC_ROUTES: Record<string, Route> = {
  '/todomvc/vanilla': todoMvcPage('vanilla'),
  '/todomvc/vue': todoMvcPage('vue'),
  '/todomvc/react': todoMvcPage('react'),
  '/todomvc/broken-edit': todoMvcPage('broken-edit'),
  '/todomvc/no-toggle-all': todoMvcPage('no-toggle-all'),
};
