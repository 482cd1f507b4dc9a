import { connect } from 'node:net';

/** What a CancelRequest needs: where the server is and the key the backend gave its session. */
export interface CancelTarget {
  host: string;
  port: number;
  processID: number | null;
  secretKey: number | null;
}

const CANCEL_REQUEST_CODE = 80_877_102;

/**
 * Asks Postgres to cancel whatever the session runs, the way libpq's PQcancel does: a
 * CancelRequest on a connection of its own, no login needed (the session's secret key is the
 * proof). Best effort: resolves once sent, or on any failure.
 */
export function cancelBackend(target: CancelTarget): Promise<void> {
  const { processID, secretKey } = target;
  if (processID === null || secretKey === null) return Promise.resolve();
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = target.host.startsWith('/')
      ? connect(`${target.host}/.s.PGSQL.${target.port}`)
      : connect(target.port, target.host);
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('connect', () => socket.end(message));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}
