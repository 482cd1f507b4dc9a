import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pages' CSS and JS, served by the suite itself under /assets (no CDN). */
export async function registerStaticAssets(app: NestFastifyApplication): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
  await app.getHttpAdapter().getInstance().register(fastifyStatic, {
    root,
    prefix: '/assets/',
    decorateReply: false,
    maxAge: '1h',
  });
}
