import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The suite's shared stylesheet (base.css), beside this package's sources. */
const sharedAssets = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'assets');

/**
 * Serves an app's page assets under /assets together with the suite's shared ones (no CDN): the
 * app's own folder first, then the shared folder.
 */
export async function registerStaticAssets(app: NestFastifyApplication, appPublicDir: string): Promise<void> {
  await app
    .getHttpAdapter()
    .getInstance()
    .register(fastifyStatic, {
      root: [appPublicDir, sharedAssets],
      prefix: '/assets/',
      decorateReply: false,
      maxAge: '1h',
      // Scripts and stylesheets are only ever what their type says.
      setHeaders: (reply) => void reply.header('x-content-type-options', 'nosniff'),
    });
}
