import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, page, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { captureFailureScreenshot } from './failure-screenshot.js';
import { interpretQuery, runInterpreter } from './interpreter-agent.js';

const SECRET = 'tr0ub4dor-and-3';

const ACCOUNT = page(
  'Account',
  `<label for="token">API token</label> <input id="token" style="width:300px;font-size:20px">
  <p id="echo" style="font-size:28px"></p>
  <script>document.getElementById('token').addEventListener('input', (e) => {
    document.getElementById('echo').textContent = 'Your token: ' + e.target.value;
  });</script>`,
);

const isJpeg = (image: Buffer | undefined) => image !== undefined && image[0] === 0xff && image[1] === 0xd8;

describe('failure screenshot (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  beforeAll(async () => {
    site = await serveLocalSite({ '/account': ACCOUNT });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('masks secrets in fields and text while it is taken, then leaves the page as it was', async () => {
    await tab.page.goto(`${site.url}/account`);
    await tab.page.type('#token', SECRET);
    const plain = await captureFailureScreenshot(tab.page, []);
    const masked = await captureFailureScreenshot(tab.page, [SECRET]);
    expect(isJpeg(plain)).toBe(true);
    expect(isJpeg(masked)).toBe(true);
    expect(masked?.equals(plain as Buffer)).toBe(false);
    const after = await tab.page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            getElementById(id: string): { value?: string; textContent: string; style: { filter: string } };
          };
        }
      ).document;
      const field = doc.getElementById('token');
      return { value: field.value, filter: field.style.filter, echo: doc.getElementById('echo').textContent };
    });
    expect(after).toEqual({ value: SECRET, filter: '', echo: `Your token: ${SECRET}` });
  });

  it('is taken when a step fails, and only then', async () => {
    const run = async (query: string) => {
      const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
      if (!interpreted.ok) throw new Error(interpreted.summary);
      const log = new AgentLog();
      return runInterpreter({
        page: tab.page,
        steps: interpreted.steps,
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
    expect(isJpeg(failed.screenshot)).toBe(true);
    expect(JSON.stringify(failed.steps)).not.toContain(SECRET);
    const passed = await run(`Open $SITE/account\nThe page shows "API token"`);
    expect(passed.verdict).toBe('succeeded');
    expect(passed.screenshot).toBeUndefined();
  });
});
