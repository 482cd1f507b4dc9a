import { afterEach, describe, expect, it } from '@jest/globals';
import { getPriority } from 'node:os';
import type { Browser } from 'puppeteer-core';
import { launchLocalBrowser } from './browser-launcher.js';
import { childrenByScan, COMPOSITOR_NICE, descendants, linuxProc } from './compositor-priority.js';

/** Every process of the browser: its pid, its Chromium process type and each thread's niceness. */
function browserProcesses(browser: Browser): { pid: number; type: string; nice: number[] }[] {
  const root = browser.process()?.pid;
  if (root === undefined) throw new Error('the browser has no local process');
  return [root, ...descendants(root)].map((pid) => ({
    pid,
    type: /--type=([\w-]+)/.exec(linuxProc.cmdline(pid))?.[1] ?? 'browser',
    nice: linuxProc.threads(pid).flatMap((tid) => {
      try {
        return [getPriority(tid)];
      } catch {
        return [];
      }
    }),
  }));
}

async function until<T>(read: () => T, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('the compositor priority of a local Chromium', () => {
  let browser: Browser | undefined;

  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });

  it('runs every thread of the GPU process at nice 10 and leaves the pages and the browser process above it', async () => {
    browser = await launchLocalBrowser();
    const page = await browser.newPage();
    await page.goto('data:text/html,<input id="field"><p>ready</p>');
    // Threads the compositor starts once there is something to draw are lowered too.
    await page.type('#field', 'hello');
    const gpuOf = (all: ReturnType<typeof browserProcesses>) => all.filter((p) => p.type === 'gpu-process');
    const all = await until(
      () => browserProcesses(browser!),
      (now) => gpuOf(now).length === 1 && gpuOf(now)[0]!.nice.every((n) => n === COMPOSITOR_NICE),
    );
    const gpu = gpuOf(all);
    expect(gpu).toHaveLength(1);
    expect(gpu[0]!.nice.length).toBeGreaterThan(3);
    expect(new Set(gpu[0]!.nice)).toEqual(new Set([COMPOSITOR_NICE]));
    // Only the compositor: the browser process and the page's renderer keep their priorities.
    const browserProcess = all.find((p) => p.type === 'browser')!;
    expect(Math.max(...browserProcess.nice)).toBeLessThan(COMPOSITOR_NICE);
    const renderers = all.filter((p) => p.type === 'renderer');
    expect(renderers.length).toBeGreaterThan(0);
    for (const renderer of renderers) expect(Math.min(...renderer.nice)).toBeLessThan(COMPOSITOR_NICE);
    expect(await page.$eval('p', (p) => p.textContent)).toBe('ready');
  });

  it('finds the same child processes by scanning /proc as from the kernel’s children files (kernels without them)', async () => {
    browser = await launchLocalBrowser();
    await (await browser.newPage()).goto('data:text/html,<p>ready</p>');
    const root = browser.process()!.pid!;
    const sorted = (pids: number[]) => [...pids].sort((a, b) => a - b);
    // Chromium may start or end a helper between the two reads: read again until they agree.
    const { fromFiles, byScan } = await until(
      () => ({ fromFiles: sorted(linuxProc.children(root)), byScan: sorted(childrenByScan(root)) }),
      (now) => now.fromFiles.join() === now.byScan.join(),
      5_000,
    );
    expect(fromFiles.length).toBeGreaterThan(1);
    expect(byScan).toEqual(fromFiles);
  });

  it('leaves Chromium its own priorities with compositorNice: false', async () => {
    browser = await launchLocalBrowser({ compositorNice: false });
    const page = await browser.newPage();
    await page.goto('data:text/html,<p>ready</p>');
    const all = await until(
      () => browserProcesses(browser!),
      (now) => now.some((p) => p.type === 'gpu-process'),
    );
    // Give a watcher, were there one, the time it needs to act.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const gpu = browserProcesses(browser).filter((p) => p.type === 'gpu-process');
    expect(all.some((p) => p.type === 'gpu-process')).toBe(true);
    expect(gpu[0]!.nice.some((n) => n === COMPOSITOR_NICE)).toBe(false);
  });
});
