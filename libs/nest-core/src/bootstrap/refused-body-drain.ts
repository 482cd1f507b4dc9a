import type { FastifyInstance } from 'fastify';

/** How much of a refused body is read and dropped so that the client can read the answer. */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
const REFUSED_BODY_DRAIN_MS = 15_000;
/** The refusals Fastify's body parsing answers with `Connection: close`. */
const BODY_REFUSALS = new Set([400, 413, 415]);

/**
 * A body refused before it was read in full (413 from Content-Length, or past the limit while
 * streaming) is read on and dropped, up to REFUSED_BODY_DRAIN_BYTES and REFUSED_BODY_DRAIN_MS,
 * instead of closing the connection under the upload. Fastify answers such a refusal with
 * `Connection: close` and Node then closes a socket whose peer is still sending: the next piece
 * the client sends meets a reset, and a client busy sending (curl, browsers, Node's own client)
 * sees EPIPE/ECONNRESET instead of the 413, often before it has read the answer. Like a web
 * server's lingering close: the answer goes out at once, the rest of the upload is read without
 * being kept, the connection stays usable, and a client that goes on past the cap is cut off.
 * Nothing is buffered, so memory stays as bounded as with the early refusal.
 */
export function drainRefusedBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (!BODY_REFUSALS.has(reply.statusCode) || raw.complete || raw.readableEnded) return;
    reply.removeHeader('connection');
    let drained = 0;
    const cut = (): void => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.socket?.destroy();
    };
    const onData = (chunk: Buffer): void => {
      drained += chunk.length;
      if (drained > REFUSED_BODY_DRAIN_BYTES) cut();
    };
    const timer = setTimeout(cut, REFUSED_BODY_DRAIN_MS);
    timer.unref();
    raw.on('data', onData);
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
    raw.resume();
  });
}
