import type { Server } from 'node:http';

// A strict, certified OpenID provider for the identity-provider specs (oidc-provider with its
// development login and consent pages), and a cookie-keeping client that clicks through them.

export interface StrictAccount {
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
}

export interface StrictProvider {
  issuer: string;
  accounts: Map<string, StrictAccount>;
  stop(): Promise<void>;
}

interface ProviderInstance {
  listen(port: number, host: string, callback: () => void): Server;
}
type ProviderClass = new (issuer: string, configuration: object) => ProviderInstance;

export async function startStrictProvider(options: {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<StrictProvider> {
  // oidc-provider ships no type declarations.
  const moduleName: string = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as { default: ProviderClass };
  const issuer = `http://127.0.0.1:${options.port}`;
  const accounts = new Map<string, StrictAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['idp-e2e-cookie-key-0123456789'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = provider.listen(options.port, '127.0.0.1', () => resolve(listening));
  });
  return {
    issuer,
    accounts,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows the provider's redirects from `authorizeUrl` like a browser with cookies, signing in as
 * `accountId` and consenting (or aborting at the first page), until it is sent to `callbackPrefix`.
 */
export async function clickThrough(
  authorizeUrl: URL,
  callbackPrefix: string,
  accountId: string,
  abort = false,
): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: URL, init: RequestInit = {}): Promise<Response> => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
    return res;
  };
  let url = authorizeUrl;
  for (let hop = 0; hop < 20; hop++) {
    if (url.href.startsWith(callbackPrefix)) return url;
    const interaction = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    if (interaction && abort) {
      url = next(url, await send(new URL(`${url.pathname}/abort`, url)));
      continue;
    }
    if (interaction) {
      const page = await (await send(url)).text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? 'consent';
      const form = new URLSearchParams({ prompt, login: accountId, password: 'any' });
      url = next(
        url,
        await send(url, {
          method: 'POST',
          body: form.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      continue;
    }
    url = next(url, await send(url));
  }
  throw new Error('the provider did not send the browser back');
}

function next(from: URL, res: Response): URL {
  const location = res.headers.get('location');
  if (!location || res.status < 300 || res.status >= 400) {
    throw new Error(`expected a redirect from ${from.href}, got ${res.status}`);
  }
  return new URL(location, from);
}
