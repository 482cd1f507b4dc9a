import { randomUUID } from 'node:crypto';
import { ONE_OWNER_UNLIMITED, type BenchContext } from './context.ts';
import { freePort, startApp, waitForHttp, type AppProcess } from './processes.ts';

/** One agent-gateway process (no worker: tasks only queue) and a small A2A v1.0 JSON-RPC client. */

export const A2A_HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' } as const;

/** A test that would only ever talk to 127.0.0.1 (nothing runs it here). */
export const TASK_QUERY =
  'Open http://127.0.0.1:9/form\nType "Jane" into the Name field\nVerify the page contains "Thanks"';

/** SendMessage params for a new task; `returnImmediately` answers with the queued task. */
export const sendMessageParams = (messageId: string = randomUUID()) => ({
  message: { messageId, role: 'ROLE_USER', parts: [{ text: TASK_QUERY }] },
  configuration: { returnImmediately: true },
  metadata: { bench: 'gateway' },
});

export interface A2aTask {
  id: string;
  status: { state: string; timestamp?: string };
}

export interface StartedGateway {
  app: AppProcess;
  url: string;
  port: number;
  /** One JSON-RPC call; throws on an HTTP error or a JSON-RPC error. */
  rpc<T>(method: string, params: unknown): Promise<T>;
}

export async function startGateway(
  ctx: BenchContext,
  prefix: string,
  name: string,
  options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<StartedGateway> {
  const port = await freePort();
  const app = startApp(
    'agent-gateway',
    {
      DATABASE_URL: ctx.infra.databaseUrl,
      REDIS_URL: ctx.infra.redisUrl,
      REDIS_PREFIX: prefix,
      API_KEYS: ctx.apiKey,
      ARTIFACTS_DIR: ctx.artifactsDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_RUNNER_URL: `http://127.0.0.1:${port}`,
      ...ONE_OWNER_UNLIMITED,
      ...options.env,
    },
    { name, logDir: ctx.logDir, nodeArgs: options.nodeArgs },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/health`, app);
  } catch (error) {
    await app.stop(2_000);
    throw error;
  }
  let next = 1;
  return {
    app,
    url,
    port,
    rpc: async <T>(method: string, params: unknown): Promise<T> => {
      const res = await fetch(`${url}/a2a`, {
        method: 'POST',
        headers: { ...A2A_HEADERS, authorization: `Bearer ${ctx.apiKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
      if (!res.ok || body.error || body.result === undefined)
        throw new Error(`${method}: HTTP ${res.status} ${JSON.stringify(body.error ?? body)}`);
      return body.result;
    },
  };
}
