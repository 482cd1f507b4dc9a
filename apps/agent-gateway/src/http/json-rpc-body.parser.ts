import type { FastifyInstance } from 'fastify';

/** A body that is not JSON: /a2a answers it with -32700 (Parse error) and its id null. */
export class InvalidJsonBody {
  constructor(readonly reason: string) {}
}

/**
 * Bodies are parsed here instead of by Fastify so malformed JSON reaches the JSON-RPC layer (which
 * owes the client a -32700 response, not an HTML 400). Any media type is read as text.
 */
export function registerJsonRpcBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_request, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(null, new InvalidJsonBody((error as Error).message));
    }
  });
}
