import { createServer, type Server } from 'node:http';
import { HostClient } from '../support/host-client.js';
import { strongPassword, uniqueEmail, type TestProject, type TokenPair } from '../support/user-client.js';
import type { Host } from './user-auth-harness.js';

// Shared by the project-code and hooks specs: deploy project code through the control plane and
// collect what hooks report over HTTP (project code has no other way out of its sandbox).

export const ADMIN_TOKEN = 'user-auth-admin-token-0123456789';

export function controlPlane(host: Host): HostClient {
  return new HostClient(host.port, `localhost:${host.port}`, ADMIN_TOKEN);
}

export function deploy(host: Host, projectId: string, files: Record<string, string>) {
  return controlPlane(host).post(`/v1/projects/${projectId}/deployments`, { files });
}

export async function signUp(project: TestProject): Promise<TokenPair & { email: string; password: string }> {
  const email = uniqueEmail('code');
  const password = strongPassword();
  const res = await project.client.request<TokenPair>('POST', '/api/user/auth/register', {
    json: { email, password, name: 'Ada' },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return { ...res.body, email, password };
}

export interface Collector {
  url: string;
  received: Record<string, unknown>[];
  waitFor(
    predicate: (body: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** An HTTP server that keeps every JSON body posted to it. */
export async function startCollector(): Promise<Collector> {
  const received: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      try {
        received.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        received.push({ raw: text });
      }
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`nothing matching within ${timeoutMs} ms: ${JSON.stringify(received)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
