import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';

export interface HttpBootstrapOptions {
  service: string;
  host: string;
  port: number;
  /** Largest request body accepted, in bytes; larger ones get 413 before any handler runs. */
  bodyLimit?: number;
  /** false when `configure` registers its own content-type parsers (Nest would replace them). */
  bodyParser?: boolean;
  configure?: (app: NestFastifyApplication) => void | Promise<void>;
}

/** Creates a Fastify-backed Nest app with the suite's logger and graceful shutdown, and listens. */
export async function bootstrapHttpApp(
  module: Type<unknown> | DynamicModule,
  options: HttpBootstrapOptions,
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    new FastifyAdapter({ bodyLimit: options.bodyLimit ?? 1024 * 1024, trustProxy: true }),
    { bufferLogs: true, bodyParser: options.bodyParser ?? true },
  );
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
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
