import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SUITE_VERSION } from '@suite/config';
import { serveApiDocs } from '@suite/contracts';

export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Browser Test Runner')
    .setDescription(
      'Submit natural-language browser tests, follow them, and fetch their agent log and video. ' +
        'A passed run can be exported as a runnable Playwright test or Puppeteer script (`GET /v1/jobs/{job_id}/script`); ' +
        'an LLM job whose test passed before replays the recorded steps without calling the model and only asks the model ' +
        'from a step that no longer works (opt out with `metadata.replay: false`). ' +
        'The same jobs are reachable over A2A (`POST /a2a`, agent card at `/.well-known/agent-card.json`) and MCP (`/mcp`).',
    )
    .setVersion(SUITE_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'API key as a bearer token' },
      'bearer',
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key header' }, 'api-key')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the document at /openapi.json, both served by the suite (no CDN). */
export function setupOpenApi(app: NestFastifyApplication): void {
  serveApiDocs(app, buildOpenApiDocument(app), { title: 'Browser Test Runner API' });
}
