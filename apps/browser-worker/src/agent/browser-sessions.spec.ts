import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { displayOf, findXvfb } from '@suite/browser-agent';
import { browserWorkerEnv, loadBrowserWorkerConfig } from '../browser-worker.config.js';
import { BrowserSessions } from './browser-sessions.js';

const base = {
  DATABASE_URL: 'postgres://u@127.0.0.1/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  BROWSER_NETWORK_POLICY: 'allow-private',
};

describe('the worker’s video capture (VIDEO_CAPTURE)', () => {
  let sessions: BrowserSessions | undefined;

  afterEach(async () => {
    jest.restoreAllMocks();
    await sessions?.onApplicationShutdown();
    sessions = undefined;
  });

  it('is the browser’s own recorder by default; x11grab is opt-in', () => {
    expect(browserWorkerEnv.parse(base).VIDEO_CAPTURE).toBe('browser');
    expect(browserWorkerEnv.safeParse({ ...base, VIDEO_CAPTURE: 'vnc' }).success).toBe(false);
  });

  it('falls back to recording in the browser, saying so in one log line, where there is no Xvfb', () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    sessions = new BrowserSessions(
      loadBrowserWorkerConfig({ ...base, VIDEO_CAPTURE: 'x11grab', XVFB_PATH: '/nonexistent/Xvfb' }),
    );
    expect(sessions.localCapture).toBe('browser');
    expect(sessions.videoSource('local_browser')).toBe('browser');
    const about = warnings.filter((line) => line.includes('Xvfb'));
    expect(about).toHaveLength(1);
    expect(about[0]).toContain('VIDEO_CAPTURE=x11grab but there is no Xvfb at /nonexistent/Xvfb');
  });

  it('records hosted browsers in the browser whatever VIDEO_CAPTURE says', () => {
    sessions = new BrowserSessions(loadBrowserWorkerConfig({ ...base, VIDEO_CAPTURE: 'screencast' }));
    expect(sessions.videoSource('local_browser')).toBe('screencast');
    expect(sessions.videoSource('hosted_browser')).toBe('browser');
  });

  it('with Xvfb, runs side-by-side jobs in headful browsers on displays of their own, one job per display', async () => {
    expect(findXvfb()).toBeDefined();
    sessions = new BrowserSessions(
      loadBrowserWorkerConfig({ ...base, VIDEO_CAPTURE: 'x11grab', WORKER_CONCURRENCY: '2' }),
    );
    expect(sessions.videoSource('local_browser')).toBe('x11grab');
    const first = await sessions.acquire('local_browser');
    const second = await sessions.acquire('local_browser');
    const [a, b] = [displayOf(first.browser), displayOf(second.browser)];
    expect(a?.alive).toBe(true);
    expect(b?.alive).toBe(true);
    expect(a?.name).not.toBe(b?.name);
    // Both slots busy: the next job waits for one to be free (its session closed), then gets it.
    let third: Awaited<ReturnType<BrowserSessions['acquire']>> | undefined;
    const waiting = sessions.acquire('local_browser').then((session) => (third = session));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(third).toBeUndefined();
    await first.close();
    await waiting;
    expect(displayOf(third!.browser)?.name).toBe(a?.name);
    await Promise.all([second.close(), third!.close()]);
  });
});
