import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestProject, dropTestProject, UserClient, type TestProject } from '../support/user-client.js';
import { GENEROUS_LIMITS, infra, startProjectHost, type Host } from './user-auth-harness.js';

// The project host's own OpenAPI document and Swagger UI: served on the control-plane host (the
// PUBLIC_URL host) only; a project's host answers those paths as any unknown path.

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>
  >;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
}

let host: Host;
let project: TestProject;
let controlPlane: UserClient;

beforeAll(async () => {
  host = await startProjectHost({ ...GENEROUS_LIMITS });
  controlPlane = new UserClient(host.port, `localhost:${host.port}`);
  project = await createTestProject({ databaseUrl: infra.DATABASE_URL, port: host.port, smtpPort: 9 });
});

afterAll(async () => {
  await host?.app.stop();
  if (project) await dropTestProject(infra.DATABASE_URL, project).catch(() => undefined);
});

describe('project host API documentation', () => {
  it('/openapi.json documents /api/user and the control plane, with the request DTOs', async () => {
    const res = await controlPlane.get<OpenApiDocument>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Project Host');
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/user/auth/register',
        '/api/user/auth/login',
        '/api/user/auth/refresh',
        '/api/user/auth/magic-link',
        '/api/user/me',
        '/v1/projects',
        '/v1/projects/{projectId}/auth',
      ]),
    );
    // Only the documented APIs: not the project's own routes, the dashboard or internal callbacks.
    expect(paths.filter((path) => !/^\/(api\/user|v1\/projects|v1\/admin)(\/|$)/.test(path))).toEqual([]);
    const register = doc.paths['/api/user/auth/register']!.post!.requestBody!.content['application/json']!;
    expect(register.schema.$ref).toBe('#/components/schemas/RegisterDto');
    expect(doc.components.schemas.RegisterDto).toMatchObject({ required: ['email', 'password'] });
    expect(Object.keys(doc.components.schemas.UpdateMeDto!.properties!)).toEqual([
      'name',
      'email',
      'currentPassword',
    ]);
  });

  it('/docs is Swagger UI with its own assets, never framed and never sniffed', async () => {
    const res = await controlPlane.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const assets = [...res.text.matchAll(/(?:src|href)="\.\/(docs\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const got = await controlPlane.get(`/${asset}`);
      expect([asset, got.status]).toEqual([asset, 200]);
    }
  });

  it.each(['/docs', '/docs/swagger-ui-init.js', '/openapi.json', '/docs-yaml'])(
    '%s on a project host is an unknown path (404 not_found)',
    async (path) => {
      for (const client of [project.client, project.idClient]) {
        const res = await client.get(path);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 404,
          body: { code: 'not_found', message: 'Not Found' },
        });
      }
    },
  );
});
