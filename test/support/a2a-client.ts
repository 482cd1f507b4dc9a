import { Role } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';

type SdkSendParams = Parameters<Client['sendMessage']>[0];
type SdkMessage = NonNullable<SdkSendParams['message']>;
type SdkPart = SdkMessage['parts'][number];

/**
 * The official A2A client, found through the agent card, sending `key` as a Bearer token, over the
 * card's JSON-RPC interface or (binding `rest`) its HTTP+JSON one.
 */
export async function a2aClient(
  baseUrl: string,
  key: string,
  binding: 'jsonrpc' | 'rest' = 'jsonrpc',
): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      // Both, each with the key: the SDK's defaults (without it) are replaced, not left to be picked.
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      preferredTransports: [binding === 'rest' ? 'HTTP+JSON' : 'JSONRPC'],
    }),
  );
  return factory.createFromUrl(baseUrl);
}

export const textPart = (value: string): SdkPart => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: '',
});

export const dataPart = (value: unknown): SdkPart => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** A user message in the SDK's shape; `parts` are texts or ready parts. */
export function userMessage(parts: (string | SdkPart)[], extra: Partial<SdkMessage> = {}): SdkMessage {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: parts.map((p) => (typeof p === 'string' ? textPart(p) : p)),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

export function sendParams(
  message: SdkMessage,
  configuration: Partial<NonNullable<SdkSendParams['configuration']>> | undefined = undefined,
): SdkSendParams {
  return {
    tenant: '',
    message,
    configuration: configuration
      ? {
          acceptedOutputModes: [],
          taskPushNotificationConfig: undefined,
          returnImmediately: false,
          ...configuration,
        }
      : undefined,
    metadata: undefined,
  };
}

export interface RpcResult {
  status: number;
  headers: Headers;
  body: {
    jsonrpc: string;
    id: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data: { '@type': string; reason: string; domain: string }[] };
  };
}

/** One raw JSON-RPC call (for what the SDK would never send: bad envelopes, versions, keys). */
export async function rawRpc(
  url: string,
  body: unknown,
  options: {
    key?: string | null;
    version?: string | null;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<RpcResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.version !== null) headers['a2a-version'] = options.version ?? '1.0';
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: options.rawBody ?? JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as RpcResult['body'] };
}

/** Reads an SSE response to its end; each `data:` line parsed as JSON. */
export async function readSse(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}
