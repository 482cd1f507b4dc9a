import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SUITE_VERSION } from '@suite/config';
import { JobEventsHub, JobService } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import { AGENT_GATEWAY_CONFIG } from '../app.tokens.js';
import { InvalidJsonBody } from '../http/json-rpc-body.parser.js';
import { GatewayAuth } from '../runner/gateway-auth.js';
import { registerRunnerResources } from './mcp-resources.js';
import { registerRunnerTools } from './mcp-tools.js';

/** A loopback name or literal, any port: a rebinding page can only reach us under its own DNS name. */
function isLoopbackHost(host: string): boolean {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A browser origin on this machine (http or https, any port), e.g. an MCP inspector on localhost. */
function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * MCP over Streamable HTTP, stateless: one server and transport per request, the key on every call.
 * What fails before the MCP server takes the request is thrown: the gateway's exception filter
 * answers it as a JSON-RPC error.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  private readonly allowedHosts: string[];
  private readonly allowedOrigins: string[];
  /** Listening on loopback only: pages served from this machine (localhost origins) may call. */
  private readonly localOrigins: boolean;

  constructor(
    private readonly auth: GatewayAuth,
    private readonly jobs: JobService,
    private readonly events: JobEventsHub,
    @Inject(AGENT_GATEWAY_CONFIG) private readonly config: AgentGatewayConfig,
  ) {
    const publicUrl = new URL(config.PUBLIC_RUNNER_URL);
    // DNS rebinding protection: only our own names, so a web page cannot reach /mcp through a
    // hostile DNS name pointing at a local gateway.
    this.allowedHosts = [
      publicUrl.host,
      `127.0.0.1:${config.PORT}`,
      `localhost:${config.PORT}`,
      `[::1]:${config.PORT}`,
      ...config.MCP_ALLOWED_HOSTS,
    ];
    this.allowedOrigins = [publicUrl.origin, ...config.MCP_ALLOWED_ORIGINS];
    this.localOrigins = LOOPBACK_NAMES.has(config.HOST.toLowerCase());
  }

  /**
   * Origins MCP's DNS-rebinding rule lets in: ours and the configured ones, and on a loopback
   * listener any localhost origin. Requests without Origin (not from a browser) pass.
   */
  private refusedOrigin(request: FastifyRequest): string | undefined {
    const header = request.headers.origin;
    if (header === undefined) return undefined;
    if (this.allowedOrigins.includes(header)) return undefined;
    if (this.localOrigins && isLoopbackOrigin(header)) return undefined;
    return header;
  }

  /**
   * Behind a proxy (jobs-api's forwarding, an ingress) the Host the transport checks is the proxy's
   * upstream name; the name the caller used arrives as X-Forwarded-Host, and every name in it must be
   * ours too. Returns the refused name, if any.
   */
  private refusedForwardedHost(request: FastifyRequest): string | undefined {
    const header = request.headers['x-forwarded-host'];
    if (header === undefined) return undefined;
    const names = (Array.isArray(header) ? header.join(',') : header).split(',').map((n) => n.trim());
    return names.find((name) => !this.allowedHosts.includes(name.toLowerCase()) && !isLoopbackHost(name));
  }

  @All()
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // A foreign page is refused before anything else (MCP: 403 for an invalid Origin).
    const origin = this.refusedOrigin(request);
    if (origin !== undefined) {
      void reply.status(403).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `Invalid Origin header: ${origin}` },
      });
      return;
    }
    const principal = await this.auth.authenticate(request);
    if (request.method !== 'POST') {
      // Stateless server: no standalone SSE stream (GET) and no session to end (DELETE).
      void reply
        .status(405)
        .header('allow', 'POST')
        .send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Method not allowed: use POST' },
        });
      return;
    }
    const forwardedHost = this.refusedForwardedHost(request);
    if (forwardedHost !== undefined) {
      void reply.status(403).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `Invalid Host header: ${forwardedHost}` },
      });
      return;
    }
    if (request.body instanceof InvalidJsonBody) {
      void reply.status(400).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: `Parse error: ${request.body.reason}` },
      });
      return;
    }
    const server = new McpServer(
      { name: 'browser-test-runner', title: 'Browser Test Runner', version: SUITE_VERSION },
      {
        instructions:
          'Run natural-language browser tests with run_browser_test, then follow them with get_job, get_job_log and list_jobs. Job logs and videos are resources too (resources/list shows your recent jobs).',
      },
    );
    registerRunnerTools(server, principal, {
      jobs: this.jobs,
      events: this.events,
      publicUrl: this.config.PUBLIC_RUNNER_URL,
    });
    registerRunnerResources(server, principal, {
      jobs: this.jobs,
      publicUrl: this.config.PUBLIC_RUNNER_URL,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableDnsRebindingProtection: true,
      allowedHosts: this.allowedHosts,
      // Origins are checked above (the transport knows no loopback rule).
    });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
