import { createRedisConnection, queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

// What happened to a project that every process of the deployment (hosts, project workers) must act
// on at once, over Redis pub/sub:
// - `moved`: its tenant database moved to another server; each process forgets what it cached
//   about where it was. Should a message be lost (Redis restarting), stale state still ends soon:
//   the old copy is read-only, then dropped, and a failed connection makes ctx.db and the resolver
//   look the project's row up again.
// - `deleted`, `deployed`: its sandboxes end (code of a deleted project, or of a superseded
//   deployment, must not keep running). A lost message leaves them to the idle reaper.

const channel = (): string => `${queuePrefix()}:tenant-moves`;

export type ProjectChange = 'moved' | 'deleted' | 'deployed';
const CHANGES: readonly string[] = ['moved', 'deleted', 'deployed'] satisfies ProjectChange[];

/**
 * Tells every process what happened to the project; `from` names the announcing process, which
 * its own subscriber then knows has acted already.
 */
export async function announceProjectChange(
  redis: Redis,
  projectId: string,
  change: ProjectChange,
  from?: string,
): Promise<void> {
  await redis.publish(channel(), JSON.stringify({ p: projectId, c: change, ...(from ? { f: from } : {}) }));
}

/** Calls `changed` for every change announced from now on; `close` ends it. */
export function subscribeProjectChanges(
  redisUrl: string,
  connectionName: string,
  changed: (projectId: string, change: ProjectChange, from: string | undefined) => void,
): { close(): void } {
  const subscriber = createRedisConnection(redisUrl, { connectionName });
  subscriber.on('error', () => undefined);
  subscriber.on('ready', () => void subscriber.subscribe(channel()).catch(() => undefined));
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const { p, c = 'moved', f } = JSON.parse(text) as { p?: unknown; c?: unknown; f?: unknown };
      if (typeof p === 'string' && typeof c === 'string' && CHANGES.includes(c)) {
        changed(p, c as ProjectChange, typeof f === 'string' ? f : undefined);
      }
    } catch {
      // Not ours: ignored.
    }
  });
  return { close: () => subscriber.disconnect() };
}

/** Tells every process that the project's tenant database now lives elsewhere. */
export function announceTenantMove(redis: Redis, projectId: string): Promise<void> {
  return announceProjectChange(redis, projectId, 'moved');
}

/** Calls `moved` with the project id of every move announced from now on; `close` ends it. */
export function subscribeTenantMoves(
  redisUrl: string,
  connectionName: string,
  moved: (projectId: string) => void,
): { close(): void } {
  return subscribeProjectChanges(redisUrl, connectionName, (projectId, change) => {
    if (change === 'moved') moved(projectId);
  });
}

/**
 * announceProjectChange on the process's producer connection, for classes that should not hold a
 * connection themselves.
 */
export class ProjectChangeAnnouncer {
  constructor(private readonly redis: Redis) {}

  announce(projectId: string, change: ProjectChange, from?: string): Promise<void> {
    return announceProjectChange(this.redis, projectId, change, from);
  }
}
