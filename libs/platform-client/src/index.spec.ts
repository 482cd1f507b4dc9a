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
