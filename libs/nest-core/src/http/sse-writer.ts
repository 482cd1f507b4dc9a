import type { ServerResponse } from 'node:http';

const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events on a raw Node response, for every stream of the suite (`/v1/jobs/{id}/events`,
 * A2A streaming over JSON-RPC and HTTP+JSON, a project user's push stream): the headers proxies need to pass events through
 * unbuffered, a comment line as heartbeat so idle connections stay open, and nothing written after
 * the client left.
 */
export class SseWriter {
  private open = true;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly raw: ServerResponse) {
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.on('close', () => this.stop());
    this.heartbeat = setInterval(() => this.ping(), HEARTBEAT_MS);
  }

  get isOpen(): boolean {
    return this.open && !this.raw.writableEnded;
  }

  /** Sends the headers now, before the first event (a client may wait for them). */
  flushHeaders(): void {
    this.raw.flushHeaders();
  }

  /** One event: `data` as JSON, under `event` when the stream names its events. */
  send(data: unknown, event?: string): void {
    if (this.isOpen) this.raw.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  ping(): void {
    if (this.isOpen) this.raw.write(': keep-alive\n\n');
  }

  end(): void {
    const wasOpen = this.isOpen;
    this.stop();
    if (wasOpen) this.raw.end();
  }

  private stop(): void {
    this.open = false;
    clearInterval(this.heartbeat);
  }
}
