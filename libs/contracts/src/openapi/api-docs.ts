import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/**
 * Swagger UI's own inline styles rule out the pages' strict CSP; it is still never framed, not
 * sniffed and sends no Referer elsewhere.
 */
export const API_DOCS_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

export interface DocsRequest {
  url: string;
  headers: { host?: string };
}

export interface ApiDocsOptions {
  /** The docs page's title. */
  title: string;
  /** Only requests this accepts see the docs (e.g. only the control-plane host). */
  servedTo?: (request: DocsRequest) => boolean | Promise<boolean>;
  /** The answer to the others (the app's own 404). */
  refused?: () => { status: number; headers?: Record<string, string>; body: unknown };
}

interface HookReply {
  code(status: number): HookReply;
  headers(values: Record<string, string>): HookReply;
  send(body: unknown): HookReply;
}
interface HookHost {
  addHook(
    name: 'onRequest',
    hook: (request: DocsRequest, reply: HookReply) => Promise<HookReply | undefined>,
  ): unknown;
  addHook(
    name: 'onSend',
    hook: (
      request: DocsRequest,
      reply: HookReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) => void,
  ): unknown;
}

const pathOf = (url: string): string => url.split('?')[0]!;
const isDocsPage = (path: string): boolean => path === '/docs' || path.startsWith('/docs/');
const isDocsRoute = (path: string): boolean =>
  isDocsPage(path) || path === '/docs-yaml' || path === '/openapi.json';

/**
 * Swagger UI at /docs and the document at /openapi.json (also /docs-yaml), served by the app
 * itself (no CDN), with API_DOCS_HEADERS on the UI.
 */
export function serveApiDocs(app: INestApplication, document: OpenAPIObject, options: ApiDocsOptions): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    customSiteTitle: options.title,
  });
  const fastify = app.getHttpAdapter().getInstance() as HookHost;
  const { servedTo, refused } = options;
  if (servedTo && refused) {
    fastify.addHook('onRequest', async (request, reply) => {
      if (!isDocsRoute(pathOf(request.url)) || (await servedTo(request))) return undefined;
      const answer = refused();
      return reply
        .code(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
    });
  }
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (isDocsPage(pathOf(request.url))) reply.headers({ ...API_DOCS_HEADERS });
    done(null, payload);
  });
}
