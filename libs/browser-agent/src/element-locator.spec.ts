import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { page as html, type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { launchLocalBrowser } from './browser-launcher.js';
import { ElementNotFoundError, findOnce, locate } from './element-locator.js';
import type { Target } from './step-types.js';

const FORM = html(
  'Locator playground',
  `
  <header><h1>Welcome back</h1><button aria-label="Close" title="Close the banner">✕</button></header>
  <nav><a href="/docs">Learn more</a> <a href="/pricing">Pricing</a> <a href="/docs/api">API</a></nav>
  <form>
    <label for="email">Email address</label> <input id="email" type="email">
    <label>Password <input id="password" type="password"></label>
    <span id="search-label">Search term</span> <input id="search" type="search" aria-labelledby="search-label">
    <input id="city" placeholder="Your city">
    <select id="color" aria-label="Color"><option>Red</option><option>Blue</option></select>
    <label><input type="checkbox" id="remember"> Remember me</label>
    <span class="fancy"><input type="checkbox" id="subscribe" style="opacity:0;position:absolute;width:1px;height:1px">
      <label for="subscribe">Subscribe to news</label></span>
    <button type="submit" id="go"><span>Sign in</span></button>
    <input type="submit" value="Register">
  </form>
  <img alt="Company logo" width="40" height="20" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <p>Questions? <span data-testid="support-line">Call support</span></p>
  <div id="status" class="status-message">Ready</div>
  <p>Delete</p><button>Delete</button><button>Delete</button>
  <div style="display:none"><button>Hidden action</button></div>
  <div id="late"></div>
  <script>
    if (location.hash === '#late') setTimeout(() => {
      document.getElementById('late').innerHTML = '<button>Appears later</button>';
    }, 500);
  </script>`,
);

describe('locate', () => {
  let site: LocalSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    site = await serveLocalSite({ '/': FORM });
    browser = await launchLocalBrowser();
    context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.goto(`${site.url}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function idOf(target: Target): Promise<{ id: string; tag: string; strategy: string; count: number }> {
    const found = await locate(page, target, { timeoutMs: 1000 });
    const { id, tag } = await found.handle.evaluate((el) => ({
      id: (el as unknown as { id: string }).id,
      tag: (el as unknown as { tagName: string }).tagName.toLowerCase(),
    }));
    await found.handle.dispose();
    return { id, tag, strategy: found.strategy, count: found.count };
  }

  it('finds a button by role and accessible name, ignoring case and inner markup', async () => {
    expect(await idOf({ name: 'sign in', role: 'button' })).toMatchObject({
      id: 'go',
      strategy: 'role+name',
    });
  });

  it('finds an input by its label[for] text, then by a wrapping label, then by aria-labelledby', async () => {
    expect(await idOf({ name: 'Email address' })).toMatchObject({ id: 'email', strategy: 'label' });
    expect(await idOf({ name: 'Password' })).toMatchObject({ id: 'password', strategy: 'label' });
    expect(await idOf({ name: 'Search term' })).toMatchObject({ id: 'search', strategy: 'label' });
    expect(await idOf({ name: 'Search term', role: 'textbox' })).toMatchObject({
      id: 'search',
      strategy: 'role+name',
    });
  });

  it('finds a field by part of its label ("email" for "Email address")', async () => {
    expect(await idOf({ name: 'email', role: 'textbox' })).toMatchObject({
      id: 'email',
      strategy: 'role+name (partial)',
    });
  });

  it('finds a placeholder-only input', async () => {
    expect(await idOf({ name: 'Your city' })).toMatchObject({ id: 'city', strategy: 'placeholder' });
  });

  it('finds an icon button by aria-label and an image by alt text', async () => {
    expect(await idOf({ name: 'Close', role: 'button' })).toMatchObject({
      tag: 'button',
      strategy: 'role+name',
    });
    expect(await idOf({ name: 'close' })).toMatchObject({ tag: 'button', strategy: 'aria-label' });
    expect(await idOf({ name: 'Company logo', role: 'img' })).toMatchObject({
      tag: 'img',
      strategy: 'role+name',
    });
    expect(await idOf({ name: 'Company logo' })).toMatchObject({ tag: 'img', strategy: 'alt' });
    expect(await idOf({ name: 'logo' })).toMatchObject({ tag: 'img', strategy: 'alt (partial)' });
  });

  it('finds elements by title, by visible text and by test id', async () => {
    expect(await idOf({ name: 'Close the banner' })).toMatchObject({ tag: 'button', strategy: 'title' });
    expect(await idOf({ name: 'Call support' })).toMatchObject({ tag: 'span', strategy: 'text' });
    expect(await idOf({ name: 'Sign in' })).toMatchObject({ id: 'go', strategy: 'text' });
    expect(await idOf({ name: 'Questions' })).toMatchObject({ tag: 'p', strategy: 'text (partial)' });
    expect(await idOf({ name: 'Ready' })).toMatchObject({ id: 'status', strategy: 'text' });
    expect(await idOf({ name: 'status message' })).toMatchObject({
      id: 'status',
      strategy: 'id/name/test id',
    });
    expect(await idOf({ name: 'support line' })).toMatchObject({ tag: 'span', strategy: 'id/name/test id' });
  });

  it('finds a link by role, a select by aria-label and an input button by its value', async () => {
    expect(await idOf({ name: 'Learn more', role: 'link' })).toMatchObject({
      tag: 'a',
      strategy: 'role+name',
      count: 1,
    });
    expect(await idOf({ name: 'Color', role: 'combobox' })).toMatchObject({ id: 'color' });
    expect(await idOf({ name: 'Register', role: 'button' })).toMatchObject({ tag: 'input' });
  });

  it('maps label text to its checkbox, also when the checkbox itself is visually hidden', async () => {
    expect(await idOf({ name: 'Remember me', role: 'checkbox' })).toMatchObject({ id: 'remember' });
    const found = await locate(page, { name: 'Subscribe to news', role: 'checkbox' }, { timeoutMs: 500 });
    expect(found.visible).toBe(true);
    await found.handle.dispose();
  });

  it('uses the target as a CSS selector when nothing else matches', async () => {
    expect(await idOf({ name: 'form #city' })).toMatchObject({ id: 'city', strategy: 'css' });
  });

  it('reports ambiguity and picks the first visible match, or the one asked for by position', async () => {
    const first = await locate(page, { name: 'Delete', role: 'button' }, { timeoutMs: 500 });
    expect(first).toMatchObject({ count: 2, ambiguous: true });
    await first.handle.dispose();
    const links = await findOnce(page, { name: '', role: 'link' });
    expect(links.match).toMatchObject({ strategy: 'role', count: 3, visibleCount: 3 });
    await links.match?.handle.dispose();
    const last = await locate(page, { name: '', role: 'link', nth: -1 }, { timeoutMs: 500 });
    expect(await last.handle.evaluate((el) => (el as unknown as { textContent: string }).textContent)).toBe(
      'API',
    );
    await last.handle.dispose();
  });

  it('waits for an element that appears after 500 ms', async () => {
    await page.goto(`${site.url}/#late`);
    await page.reload();
    const started = Date.now();
    const found = await locate(page, { name: 'Appears later', role: 'button' }, { timeoutMs: 3000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // Found by its role and name: in the page's own pass, or by the accessibility-tree pass when the
    // element appeared between the two (timing on a loaded machine decides which).
    expect(['role+name', 'accessibility tree']).toContain(found.strategy);
    await found.handle.dispose();
  });

  it('fails clearly, naming the target, the limit and the strategies tried', async () => {
    const error = await locate(
      page,
      { name: 'Launch rocket', role: 'button' },
      { timeoutMs: 300, limit: 'the action timeout of 300 ms' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElementNotFoundError);
    // Then the closest controls on the page, as a person would name them (buttons first: the same role).
    expect((error as Error).message).toContain(
      'no element matches the button "Launch rocket" within the action timeout of 300 ms (tried: role+name, label, placeholder, aria-label, title, alt, text, role+name (partial), label (partial), placeholder (partial), aria-label (partial), title (partial), alt (partial), text (partial), icon or synonym, icon words, caption, id/name/test id, css, accessibility tree); closest on the page: button "Close", button "Sign in", button "Register", button "Delete"',
    );
  });

  it('says when the only matches are hidden', async () => {
    const error = await locate(page, { name: 'Hidden action' }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /"Hidden action" matched 1 element by .+, but none became visible within 300 ms/,
    );
  });
});
