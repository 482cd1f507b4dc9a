/**
 * Browser client of a project host: end-user auth (/api/user/*) and the project's APIs. No React,
 * no server code. Tokens live in localStorage under `platform:{url}:accessToken` and
 * `platform:{url}:refreshToken`; refreshes are serialised across tabs (Web Locks, else a
 * localStorage lock) because a refresh token rotates on use and the host answers a rotated token
 * presented again with 401 (and signs that session out): a tab that waited for another tab's
 * refresh reads the new pair from storage instead of sending its own.
 */

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
}

/** The subset of Web Storage the client needs. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  request<T>(
    name: string,
    options: { ifAvailable: boolean },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/** What the client needs of an EventSource (the browser's, or a polyfill's). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  onerror: ((event: unknown) => void) | null;
  close(): void;
}

export type EventSourceConstructor = new (url: string) => EventSourceLike;

/** One message of `ctx.push.send`, as the user's push stream delivers it. */
export interface PushMessage {
  title: string;
  body: string | null;
  data: unknown;
  /** When project code sent it (ISO 8601). */
  at: string;
}

export interface PushHandlers {
  onMessage(message: PushMessage): void;
  /**
   * The stream stopped for good: `signed-out` (the session ended), `too-many-streams` (the user
   * opened newer streams elsewhere), or `closed` (close() was called).
   */
  onEnd?(reason: string): void;
}

export interface PushSubscription {
  close(): void;
}

interface BrowserGlobals {
  EventSource?: EventSourceConstructor;
  localStorage?: TokenStorage;
  navigator?: { locks?: LockManagerLike };
  location?: { href: string; assign(url: string): void };
  history?: { replaceState(data: unknown, unused: string, url?: string): void; state: unknown };
}

const browser = globalThis as unknown as BrowserGlobals;

export interface ClientOptions {
  /** The project's public address, e.g. `https://shop.example.com`. */
  url: string;
  /** Defaults to `window.localStorage`. */
  storage?: TokenStorage;
  /** Defaults to the global fetch. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** Defaults to the global EventSource (push streams). */
  EventSource?: EventSourceConstructor;
  /** Wait before reopening a push stream that dropped (network), in ms; default 2000. */
  pushRetryMs?: number;
}

/** A non-2xx answer: `code` and `message` come from the host's error body. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** `api.boards.list.get()` → GET /api/boards/list. A path builder, not a typed SDK. */
export type PathBuilder = {
  readonly [segment: string]: PathBuilder;
} & {
  get<T = unknown>(query?: Record<string, string>): Promise<T>;
  post<T = unknown>(body?: unknown): Promise<T>;
  put<T = unknown>(body?: unknown): Promise<T>;
  patch<T = unknown>(body?: unknown): Promise<T>;
  delete<T = unknown>(body?: unknown): Promise<T>;
};

export interface PlatformClient {
  readonly url: string;
  auth: {
    signUp(input: { email: string; password: string; name?: string }): Promise<TokenPair>;
    signIn: {
      email(input: { email: string; password: string }): Promise<TokenPair>;
      /** Leaves the page for the identity provider; call consumeTokenFromUrl when it comes back. */
      idp(options?: { redirectUri?: string }): void;
    };
    /** Reads accessToken and refreshToken from the address, stores them and strips them from it. */
    consumeTokenFromUrl(): TokenPair | null;
    /** GET /api/user/me; `user` is null when signed out. */
    getUser(): Promise<{ user: User | null }>;
    refresh(): Promise<TokenPair>;
    signOut(): Promise<void>;
    /** The stored pair, if any. */
    tokens(): TokenPair | null;
  };
  /** GET a path and parse its JSON (refreshing once on 401). */
  get<T = unknown>(path: string): Promise<T>;
  /** fetch with the Bearer token; on 401 refreshes once and retries. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  api: PathBuilder;
  push: {
    /**
     * Listens to the signed-in user's push stream. Each connection gets a single-use ticket
     * (`POST /api/_platform/push/ticket` with the Bearer token, refreshed once on 401), so the
     * access token never appears in a URL. When the token expires the stream is reopened with a
     * fresh ticket; after a network drop, after pushRetryMs. It stops (onEnd) when the session
     * ends, when the user holds too many streams, or on close().
     */
    subscribe(handlers: PushHandlers): PushSubscription;
  };
}

const LOCK_TTL_MS = 10_000;

export function createClient(options: ClientOptions): PlatformClient {
  const url = options.url.replace(/\/+$/, '');
  const storage = options.storage ?? browser.localStorage;
  if (!storage) throw new Error('createClient needs localStorage (or options.storage)');
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const keys = {
    access: `platform:${url}:accessToken`,
    refresh: `platform:${url}:refreshToken`,
    lock: `platform:${url}:refreshLock`,
  };

  const tokens = (): TokenPair | null => {
    const accessToken = storage.getItem(keys.access);
    const refreshToken = storage.getItem(keys.refresh);
    return accessToken && refreshToken ? { accessToken, refreshToken } : null;
  };
  const store = (pair: TokenPair): TokenPair => {
    storage.setItem(keys.access, pair.accessToken);
    storage.setItem(keys.refresh, pair.refreshToken);
    return pair;
  };
  const clear = (): void => {
    storage.removeItem(keys.access);
    storage.removeItem(keys.refresh);
  };

  async function errorOf(response: Response): Promise<PlatformError> {
    let body: { code?: string; message?: string } = {};
    try {
      body = (await response.json()) as typeof body;
    } catch {
      // not JSON
    }
    return new PlatformError(response.status, body.code ?? 'http_error', body.message ?? response.statusText);
  }

  async function postJson<T>(path: string, body: unknown): Promise<T> {
    const response = await doFetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  // One refresh at a time: in this tab (a shared promise) and across tabs (a named lock). Inside the
  // lock a tab first looks whether another tab already rotated the token it started with.
  let inFlight: Promise<TokenPair> | null = null;
  async function refreshOnce(): Promise<TokenPair> {
    const seen = storage!.getItem(keys.refresh);
    return withLock(async (contended) => {
      // Another tab held the lock: its new pair may reach this tab's storage a moment after the
      // lock does, so give it that moment before spending the (then rotated) token again.
      if (contended && storage!.getItem(keys.refresh) === seen) await changeOf(keys.refresh, seen, 300);
      const current = tokens();
      if (current && current.refreshToken !== seen) return current;
      if (!current) throw new PlatformError(401, 'identity-not-found', 'Not signed in');
      try {
        return store(
          await postJson<TokenPair>('/api/user/auth/refresh', { refreshToken: current.refreshToken }),
        );
      } catch (error) {
        if (error instanceof PlatformError && error.status === 401) clear();
        throw error;
      }
    });
  }
  function refresh(): Promise<TokenPair> {
    inFlight ??= refreshOnce().finally(() => (inFlight = null));
    return inFlight;
  }

  async function changeOf(key: string, from: string | null, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (storage!.getItem(key) === from && Date.now() < deadline) await sleep(20);
  }

  async function withLock<T>(work: (contended: boolean) => Promise<T>): Promise<T> {
    const locks = browser.navigator?.locks;
    if (locks) {
      const free = await locks.request(keys.lock, { ifAvailable: true }, async (lock) =>
        lock ? { value: await work(false) } : null,
      );
      return free ? free.value : locks.request(keys.lock, () => work(true));
    }
    const id = Math.random().toString(36).slice(2);
    let contended = false;
    for (;;) {
      const [owner, until] = (storage!.getItem(keys.lock) ?? '').split('|');
      if (!owner || Number(until) < Date.now()) {
        storage!.setItem(keys.lock, `${id}|${Date.now() + LOCK_TTL_MS}`);
        await sleep(30);
        if (storage!.getItem(keys.lock)?.startsWith(`${id}|`)) break;
      }
      contended = true;
      await sleep(50);
    }
    try {
      return await work(contended);
    } finally {
      if (storage!.getItem(keys.lock)?.startsWith(`${id}|`)) storage!.removeItem(keys.lock);
    }
  }

  async function authedFetch(path: string, init: RequestInit = {}): Promise<Response> {
    const send = (token: string | undefined) => {
      const headers = new Headers(init.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      return doFetch(url + path, { ...init, headers });
    };
    const before = tokens();
    const response = await send(before?.accessToken);
    if (response.status !== 401 || !before) return response;
    try {
      const pair = await refresh();
      return await send(pair.accessToken);
    } catch {
      return response;
    }
  }

  async function json<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await authedFetch(path, init);
    if (!response.ok) throw await errorOf(response);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  function builder(segments: string[]): PathBuilder {
    const path = `/api/${segments.map(encodeURIComponent).join('/')}`;
    const call = (method: Method) => (arg?: unknown) => {
      if (method === 'get') {
        const query = arg ? `?${new URLSearchParams(arg as Record<string, string>).toString()}` : '';
        return json(path + query);
      }
      return json(path, {
        method: method.toUpperCase(),
        ...(arg === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(arg) }),
      });
    };
    return new Proxy({} as PathBuilder, {
      get(_target, property) {
        if (typeof property !== 'string' || property === 'then') return undefined;
        if (['get', 'post', 'put', 'patch', 'delete'].includes(property)) return call(property as Method);
        return builder([...segments, property]);
      },
    });
  }

  function subscribePush(handlers: PushHandlers): PushSubscription {
    const Source = options.EventSource ?? browser.EventSource;
    if (!Source) throw new Error('push.subscribe needs EventSource (or options.EventSource)');
    const retryMs = options.pushRetryMs ?? 2_000;
    let source: EventSourceLike | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = (reason: string): void => {
      if (stopped) return;
      stopped = true;
      clearTimeout(retry);
      source?.close();
      handlers.onEnd?.(reason);
    };
    const parse = (event: { data?: unknown }): unknown => {
      try {
        return JSON.parse(String(event.data));
      } catch {
        return null;
      }
    };
    const connect = async (): Promise<void> => {
      let ticket: string;
      try {
        const response = await authedFetch('/api/_platform/push/ticket', { method: 'POST' });
        if (!response.ok) throw await errorOf(response);
        ticket = ((await response.json()) as { ticket: string }).ticket;
      } catch (error) {
        if (error instanceof PlatformError && error.status === 401) return stop('signed-out');
        if (!stopped) retry = setTimeout(() => void connect(), retryMs);
        return;
      }
      if (stopped) return;
      const opened = new Source(`${url}/api/_platform/push?ticket=${encodeURIComponent(ticket)}`);
      source = opened;
      opened.addEventListener('push', (event) => handlers.onMessage(parse(event) as PushMessage));
      opened.addEventListener('expired', () => {
        opened.close();
        if (!stopped) void connect();
      });
      opened.addEventListener('ended', (event) => {
        const reason = (parse(event) as { reason?: string } | null)?.reason;
        stop(reason ?? 'signed-out');
      });
      // EventSource would retry with the same URL, whose ticket is spent: reopen with a new one.
      opened.onerror = () => {
        opened.close();
        if (!stopped && source === opened) retry = setTimeout(() => void connect(), retryMs);
      };
    };
    void connect();
    return { close: () => stop('closed') };
  }

  return {
    url,
    push: { subscribe: subscribePush },
    auth: {
      signUp: async (input) => store(await postJson<TokenPair>('/api/user/auth/register', input)),
      signIn: {
        email: async (input) => store(await postJson<TokenPair>('/api/user/auth/login', input)),
        idp: (idpOptions = {}) => {
          const location = browser.location;
          if (!location) throw new Error('signIn.idp needs a browser window');
          const redirectUri = idpOptions.redirectUri ?? location.href;
          location.assign(`${url}/api/user/auth/idp?redirect_uri=${encodeURIComponent(redirectUri)}`);
        },
      },
      consumeTokenFromUrl: () => {
        const location = browser.location;
        if (!location) return null;
        const address = new URL(location.href);
        const accessToken = address.searchParams.get('accessToken');
        const refreshToken = address.searchParams.get('refreshToken');
        if (!accessToken || !refreshToken) return null;
        address.searchParams.delete('accessToken');
        address.searchParams.delete('refreshToken');
        browser.history?.replaceState(browser.history.state, '', address.toString());
        return store({ accessToken, refreshToken });
      },
      getUser: async () => {
        if (!tokens()) return { user: null };
        try {
          return { user: await json<User>('/api/user/me') };
        } catch (error) {
          if (error instanceof PlatformError && error.status === 401) return { user: null };
          throw error;
        }
      },
      refresh,
      signOut: async () => {
        const current = tokens();
        clear();
        if (current) {
          await postJson('/api/user/auth/refresh', {
            refreshToken: current.refreshToken,
            revoke: true,
          }).catch(() => undefined);
        }
      },
      tokens,
    },
    get: (path) => json(path),
    fetch: authedFetch,
    api: builder([]),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
