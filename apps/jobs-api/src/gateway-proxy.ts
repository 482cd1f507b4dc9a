import proxy from '@fastify/http-proxy';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Paths the agent gateway serves; the runner is one origin, so jobs-api forwards them. */
export const GATEWAY_PREFIXES = ['/a2a', '/mcp', '/.well-known/agent-card.json'] as const;

/**
 * Streams requests for the gateway's paths to `upstream` (SSE included: bodies are piped, not
 * buffered). In Kubernetes an ingress does the same routing and GATEWAY_URL stays unset.
 */
export async function registerGatewayProxy(app: NestFastifyApplication, upstream: string): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  for (const prefix of GATEWAY_PREFIXES) {
    await fastify.register(proxy, {
      upstream,
      prefix,
      rewritePrefix: prefix,
      http: { requestOptions: { timeout: 0 } },
      replyOptions: {
        // The proxy sends the upstream's own Host; the gateway checks the caller's (MCP's DNS
        // rebinding protection), so pass it on, replacing whatever the client claimed.
        rewriteRequestHeaders: (request, headers) => ({
          ...headers,
          'x-forwarded-host': request.headers.host ?? '',
        }),
        onError: (reply, { error }) => {
          void reply.code(502).send({
            detail: `the agent gateway is unreachable (${(error as Error).message})`,
            code: 'bad_gateway',
          });
        },
      },
    });
  }
}
