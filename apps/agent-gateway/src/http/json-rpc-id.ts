import type { JsonRpcId } from '@suite/errors';
import type { FastifyRequest } from 'fastify';

// The id a JSON-RPC error answers with is known to the handler (once it has read the envelope),
// but the error is shaped by the exception filter: the handler notes it on the request.
const ids = new WeakMap<FastifyRequest, JsonRpcId>();

export function noteJsonRpcId(request: FastifyRequest, id: JsonRpcId): void {
  ids.set(request, id);
}

/** The id noted for this request; null when none was (JSON-RPC's id for unreadable requests). */
export function jsonRpcIdOf(request: FastifyRequest): JsonRpcId {
  return ids.get(request) ?? null;
}
