import { describe, expect, it } from '@jest/globals';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../testing/browser-tab.js';
import { typeVisibly } from './visible-typing.js';

/** A page whose keyboard only records what it was asked to type, in which calls. */
function recordingPage(): { page: Page; calls: string[] } {
  const calls: string[] = [];
  const keyboard = {
    type: (text: string) => {
      calls.push(text);
      return Promise.resolve();
    },
  };
  return { page: { keyboard } as unknown as Page, calls };
}

describe('typeVisibly', () => {
  const tab = useBrowserTab();

  it('types in groups of one video frame (about 80 ms) at the given speed per character', async () => {
    const { page, calls } = recordingPage();
    await typeVisibly(page, 'Jane Doe', 25);
    expect(calls).toEqual(['Jan', 'e D', 'oe']);
    const slow = recordingPage();
    await typeVisibly(slow.page, 'abc', 100);
    expect(slow.calls).toEqual(['a', 'b', 'c']);
  });

  it('keeps characters outside the BMP whole', async () => {
    const { page, calls } = recordingPage();
    await typeVisibly(page, '😀😀😀😀', 25);
    expect(calls).toEqual(['😀😀😀', '😀']);
  });

  it('types everything at once without a delay', async () => {
    const { page, calls } = recordingPage();
    await typeVisibly(page, 'jane@example.com', 0);
    expect(calls).toEqual(['jane@example.com']);
  });

  it('sends every character as its own key press to the page', async () => {
    const { page } = tab;
    await page.setContent(`<input id="f"><script>
      window.keys = [];
      document.getElementById('f').addEventListener('keydown', (e) => window.keys.push(e.key));
    </script>`);
    await page.focus('#f');
    await typeVisibly(page, 'Jane Doe', 25);
    expect(await page.$eval('#f', (el) => (el as unknown as { value: string }).value)).toBe('Jane Doe');
    expect(await page.evaluate('window.keys')).toEqual([...'Jane Doe']);
  });
});
