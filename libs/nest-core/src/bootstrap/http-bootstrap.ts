import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { registerHttpObservability } from '../observability/http-observability.js';
import { drainRefusedBodies } from './refused-body-drain.js';

export interface HttpBootstrapOptions {
  service: string;
  host: string;
  port: number;
  /** Largest request body accepted, in bytes; larger ones get 413 before any handler runs. */
  bodyLimit?: number;
  /** Largest request head (request line and headers), in bytes; larger ones get 431. Node's default: 16 KB. */
  maxHeaderBytes?: number;
  /** false when `configure` registers its own content-type parsers (Nest would replace them). */
  bodyParser?: boolean;
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
  /**
   * The answer for errors Fastify's router raises before any Nest filter can see them (a path
   * that is not a valid URL component, an over-long path parameter), in the app's error contract.
   */
  routerError?: (error: FastifyError) => ErrorAnswer;
  /**
   * The answer for requests that arrive once SIGTERM/SIGINT started the graceful shutdown (in-flight
   * ones still finish), in the app's error contract instead of Fastify's own 503 body.
   */
  closingError?: () => ErrorAnswer;
}

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Creates a Fastify-backed Nest app with the suite's logger, request spans and metrics and graceful
 * shutdown, and listens.
 */
export async function bootstrapHttpApp(
  module: Type<unknown> | DynamicModule,
  options: HttpBootstrapOptions,
): Promise<NestFastifyApplication> {
  const { routerError } = options;
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    new FastifyAdapter({
      bodyLimit: options.bodyLimit ?? 1024 * 1024,
      trustProxy: true,
      ...(options.maxHeaderBytes !== undefined && { http: { maxHeaderSize: options.maxHeaderBytes } }),
      // Fastify's own closing answer has its own body; closingError answers in the app's contract.
      return503OnClosing: options.closingError === undefined,
      ...(routerError && {
        frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
          const answer = routerError(error);
          void reply.status(answer.status).headers(answer.headers).send(answer.body);
        },
      }),
    }),
    {
      bufferLogs: true,
      bodyParser: options.bodyParser ?? true,
      return503OnClosing: options.closingError === undefined,
    },
  );
  if (options.closingError) answerWhileClosing(app, options.closingError);
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  // Before any route or plugin is registered, so every request gets its span and timing.
  registerHttpObservability(app.getHttpAdapter().getInstance());
  // A client still uploading a refused body reads the 413 instead of a reset connection.
  drainRefusedBodies(app.getHttpAdapter().getInstance());
  await options.configure?.(app);
  await app.listen(options.port, options.host);
  app.get(Logger).log(`${options.service} listening on http://${options.host}:${options.port}`);
  return app;
}

/** Turns an unexpected boot failure into one readable line and exit 1 instead of a hang. */
export function exitOnBootFailure(service: string): (error: unknown) => never {
  return (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${service} failed to start: ${message}\n`);
    process.exit(1);
  };
}

export type { INestApplication };

/** From the first shutdown signal on, new requests get `answer` and `Connection: close`. */
function answerWhileClosing(app: NestFastifyApplication, answer: () => ErrorAnswer): void {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => (closing = true));
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      if (!closing) return done();
      const { status, headers, body } = answer();
      void reply.header('Connection', 'close').status(status).headers(headers).send(body);
    });
}
