import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's CSS and JS under /assets, served by the host itself (no CDN). */
export async function registerDashboardAssets(app: NestFastifyApplication): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
  await app
    .getHttpAdapter()
    .getInstance()
    .register(fastifyStatic, { root, prefix: '/assets/', maxAge: '1h' });
}
