import { describe, expect, it } from '@jest/globals';
import { createClient, PlatformError, type TokenStorage } from './index.js';

// Unit checks with an in-memory storage and a scripted fetch; the browser behaviour (Web Locks,
// replaceState, real tabs) is checked in Chromium by test/e2e/platform-client.spec.ts.

function memoryStorage(): TokenStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('platform client', () => {
  it('stores tokens under platform:{url}:… and refreshes once on 401 before retrying', async () => {
    const storage = memoryStorage();
    const calls: string[] = [];
    const client = createClient({
      url: 'https://shop.example.com/',
      storage,
      fetch: async (input, init) => {
        const auth = new Headers(init?.headers).get('authorization') ?? '';
        calls.push(`${init?.method ?? 'GET'} ${input} ${auth}`);
        if (input.endsWith('/api/user/auth/login'))
          return json(200, { accessToken: 'a1', refreshToken: 'r1' });
        if (input.endsWith('/api/user/auth/refresh'))
          return json(200, { accessToken: 'a2', refreshToken: 'r2' });
        return auth === 'Bearer a2'
          ? json(200, { boards: [] })
          : json(401, { code: 'unauthorized', message: 'no' });
      },
    });
    await client.auth.signIn.email({ email: 'a@example.com', password: 'x' });
    expect(storage.data.get('platform:https://shop.example.com:accessToken')).toBe('a1');
    const [one, two] = await Promise.all([client.api.boards!.list!.get(), client.get('/api/boards/list')]);
    expect(one).toEqual({ boards: [] });
    expect(two).toEqual({ boards: [] });
    expect(calls.filter((c) => c.includes('/refresh'))).toHaveLength(1);
    expect(storage.data.get('platform:https://shop.example.com:refreshToken')).toBe('r2');
  });

  it('reports errors with the host code and clears tokens when the refresh is rejected', async () => {
    const storage = memoryStorage();
    storage.setItem('platform:http://x:accessToken', 'a');
    storage.setItem('platform:http://x:refreshToken', 'r');
    const client = createClient({
      url: 'http://x',
      storage,
      fetch: async () => json(401, { code: 'identity-not-found', message: 'gone' }),
    });
    await expect(client.get('/api/thing')).rejects.toBeInstanceOf(PlatformError);
    expect(client.auth.tokens()).toBeNull();
    expect(await client.auth.getUser()).toEqual({ user: null });
  });
});

/** A scripted EventSource: the test plays the host's events. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  onerror: ((event: unknown) => void) | null = null;
  closed = false;

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  emit(type: string, data: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
  }

  close(): void {
    this.closed = true;
  }
}

describe('push.subscribe', () => {
  it('opens the stream with a single-use ticket (never the token in the URL), reopens when the token expires, stops when the session ends', async () => {
    FakeEventSource.opened = [];
    const storage = memoryStorage();
    storage.setItem('platform:https://shop.example.com:accessToken', 'a1');
    storage.setItem('platform:https://shop.example.com:refreshToken', 'r1');
    const tickets: string[] = [];
    const client = createClient({
      url: 'https://shop.example.com',
      storage,
      EventSource: FakeEventSource,
      fetch: async (input, init) => {
        expect(input).toBe('https://shop.example.com/api/_platform/push/ticket');
        expect(init?.method).toBe('POST');
        tickets.push(new Headers(init?.headers).get('authorization') ?? '');
        return json(200, { ticket: `t${tickets.length}`, expiresIn: 30 });
      },
    });
    const messages: unknown[] = [];
    const ends: string[] = [];
    client.push.subscribe({ onMessage: (m) => messages.push(m), onEnd: (r) => ends.push(r) });
    const opened = async (n: number) => {
      while (FakeEventSource.opened.length < n) await new Promise((resolve) => setTimeout(resolve, 1));
      return FakeEventSource.opened[n - 1]!;
    };
    const first = await opened(1);
    expect(first.url).toBe('https://shop.example.com/api/_platform/push?ticket=t1');
    first.emit('push', { title: 'Hello', body: null, data: null, at: 'now' });
    expect(messages).toEqual([{ title: 'Hello', body: null, data: null, at: 'now' }]);
    first.emit('expired', {});
    const second = await opened(2);
    expect(first.closed).toBe(true);
    expect(second.url).toBe('https://shop.example.com/api/_platform/push?ticket=t2');
    expect(tickets).toEqual(['Bearer a1', 'Bearer a1']);
    second.emit('ended', { reason: 'signed-out' });
    expect(second.closed).toBe(true);
    expect(ends).toEqual(['signed-out']);
  });
});
