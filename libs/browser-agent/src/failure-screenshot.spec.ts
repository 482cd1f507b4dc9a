import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, page, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { captureFailureScreenshot } from './failure-screenshot.js';
import { runInstructionTest } from './instruction-test-runner.js';

const SECRET = 'tr0ub4dor-and-3';
/** Another value of the same length: a masked picture must not tell the two apart. */
const OTHER = 'XXXXXXXXXXXXXXX';

// The token is typed into a field, echoed as page text, and echoed inside an open shadow root.
const ACCOUNT = page(
  'Account',
  `<label for="token">API token</label> <input id="token" style="width:300px;font-size:20px">
  <label for="pin">PIN</label> <input id="pin" type="password" value="1234">
  <p id="echo" style="font-size:28px"></p>
  <token-badge id="badge"></token-badge>
  <script>
  customElements.define('token-badge', class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<b style="font-size:24px"></b>'; }
    set token(value) { this.shadowRoot.querySelector('b').textContent = 'Badge ' + value; }
  });
  document.getElementById('token').addEventListener('input', (e) => {
    document.getElementById('echo').textContent = 'Your token: ' + e.target.value;
    document.getElementById('badge').token = e.target.value;
  });</script>`,
);

const isPng = (image: Buffer | undefined) =>
  image !== undefined && image.subarray(1, 4).toString('latin1') === 'PNG';

interface PageState {
  tokenValue: string;
  tokenSecurity: string;
  tokenFilter: string;
  tokenCaret: string;
  pinFilter: string;
  echo: string;
  badge: string;
}

/** What the page shows of the token, read in the page. */
const readState = (tab: Page): Promise<PageState> =>
  tab.evaluate(() => {
    type El = {
      value?: string;
      textContent: string;
      shadowRoot: { textContent: string } | null;
    };
    const w = globalThis as unknown as {
      document: { getElementById(id: string): El };
      getComputedStyle(el: El): Record<string, string>;
    };
    const token = w.document.getElementById('token');
    const style = w.getComputedStyle(token);
    return {
      tokenValue: token.value ?? '',
      tokenSecurity: style.webkitTextSecurity ?? '',
      tokenFilter: style.filter ?? '',
      tokenCaret: style.caretColor ?? '',
      pinFilter: w.getComputedStyle(w.document.getElementById('pin')).filter ?? '',
      echo: w.document.getElementById('echo').textContent,
      badge: w.document.getElementById('badge').shadowRoot?.textContent ?? '',
    };
  });

describe('failure screenshot (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  beforeAll(async () => {
    site = await serveLocalSite({ '/account': ACCOUNT });
  });
  afterAll(async () => {
    await site?.close();
  });

  const typeToken = async (value: string) => {
    await tab.page.goto(`${site.url}/account`);
    await tab.page.type('#token', value);
  };

  it('is taken while secret fields are drawn as blurred dots and secret text (shadow roots too) is dots', async () => {
    await typeToken(SECRET);
    let during: PageState | undefined;
    const image = await captureFailureScreenshot(tab.page, [SECRET], async (shot) => {
      during = await readState(shot);
      return shot.screenshot({ type: 'png' });
    });
    expect(isPng(image)).toBe(true);
    expect(during).toEqual({
      tokenValue: SECRET,
      tokenSecurity: 'disc',
      tokenFilter: 'blur(4px)',
      tokenCaret: 'rgba(0, 0, 0, 0)',
      pinFilter: 'blur(4px)',
      echo: 'Your token: ••••••',
      badge: 'Badge ••••••',
    });
    // Afterwards the page is exactly as the test left it.
    expect(await readState(tab.page)).toMatchObject({
      tokenValue: SECRET,
      tokenSecurity: 'none',
      tokenFilter: 'none',
      pinFilter: 'none',
      echo: `Your token: ${SECRET}`,
      badge: `Badge ${SECRET}`,
    });
  });

  it('shows nothing of what the secret is: two different secrets of one length give the same picture', async () => {
    // Without masking the pictures differ (so the comparison can see a difference)…
    await typeToken(SECRET);
    const plainSecret = await captureFailureScreenshot(tab.page, []);
    const maskedSecret = await captureFailureScreenshot(tab.page, [SECRET]);
    await typeToken(OTHER);
    const plainOther = await captureFailureScreenshot(tab.page, []);
    const maskedOther = await captureFailureScreenshot(tab.page, [OTHER]);
    expect(isPng(plainSecret) && isPng(plainOther)).toBe(true);
    expect(plainSecret?.equals(plainOther as Buffer)).toBe(false);
    // …masked, they are identical pixel for pixel: the image carries no trace of the characters.
    expect(isPng(maskedSecret)).toBe(true);
    expect(maskedSecret?.equals(maskedOther as Buffer)).toBe(true);
  });

  it('is taken when a step fails, and only then', async () => {
    const run = async (query: string) => {
      const log = new AgentLog();
      return runInstructionTest({
        page: tab.page,
        query: query.replaceAll('$SITE', site.url),
        log,
        limits: { actionTimeoutMs: 1500, assertionTimeoutMs: 800, navigationTimeoutMs: 5000 },
        failureScreenshot: true,
        secretValues: [SECRET],
      });
    };
    const failed = await run(
      `Open $SITE/account\nType "${SECRET}" into the API token field\nClick the Save button`,
    );
    expect(failed.verdict).toBe('failed');
    expect(isPng(failed.screenshot)).toBe(true);
    expect(JSON.stringify(failed.steps)).not.toContain(SECRET);
    const passed = await run(`Open $SITE/account\nThe page shows "API token"`);
    expect(passed.verdict).toBe('succeeded');
    expect(passed.screenshot).toBeUndefined();
  });
});
