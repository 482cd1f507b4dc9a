import type { FastifyReply } from 'fastify';

/**
 * CORS of the MCP endpoints (`/mcp`, the metadata documents, registration, the token endpoint):
 * browser-based MCP clients (the MCP Inspector) call them from their own origin. Any origin may:
 * they take Bearer tokens, client ids and codes in the request, never cookies, so a foreign page
 * gains nothing it could not do from a server. The consent page is not among them.
 */
export function allowCrossOrigin(reply: FastifyReply): FastifyReply {
  return reply.headers({
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version',
  });
}

/** The answer to a preflight of those endpoints. */
export function preflight(reply: FastifyReply): void {
  void allowCrossOrigin(reply)
    .headers({
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers':
        'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
      'access-control-max-age': '600',
    })
    .status(204)
    .send();
}
