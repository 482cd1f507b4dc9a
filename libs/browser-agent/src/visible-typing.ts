import type { Page } from 'puppeteer-core';

/** About one video frame (12 a second): the characters typed within it appear together anyway. */
const GROUP_MS = 80;

/**
 * Types `text` at `delayMs` per character on average, so that typing shows in the video as a
 * person would see it. The characters go in small groups, one group per video frame: typed 25 ms
 * apart they would show up three to a frame all the same, but each would make the page repaint and
 * the screencast capture and encode a frame of its own. Every key is still its own keydown, input
 * and keyup. With no delay the text is typed at once.
 */
export async function typeVisibly(page: Page, text: string, delayMs: number): Promise<void> {
  if (delayMs <= 0) return page.keyboard.type(text);
  const perGroup = Math.max(1, Math.round(GROUP_MS / delayMs));
  const characters = [...text];
  for (let i = 0; i < characters.length; i += perGroup) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, perGroup * delayMs));
    await page.keyboard.type(characters.slice(i, i + perGroup).join(''));
  }
}
