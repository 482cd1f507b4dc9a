import type { MainClient } from '@suite/db';
import type {
  DeployedHook,
  DeployedJob,
  DeployedMcpTool,
  DeployedRoute,
  DeploymentContent,
} from './deployment-record.js';
import { parseEnv } from './env-file.js';

export interface ActiveDeployment {
  id: string;
  version: number;
  env: Record<string, string>;
  routes: Map<string, DeployedRoute>;
  hook: DeployedHook | null;
  jobs: Map<string, DeployedJob>;
  /** MCP tools by name, in deployment order. */
  tools: Map<string, DeployedMcpTool>;
  bundles: Record<string, string>;
}

/** Replicas read the same rows: a deploy elsewhere is seen here within this time. */
const CACHE_TTL_MS = 2_000;

/** The active deployment of a project, read from the main database and cached briefly. */
export class ActiveDeployments {
  private readonly cache = new Map<string, { value: Promise<ActiveDeployment | null>; until: number }>();

  constructor(private readonly db: MainClient) {}

  get(projectId: string): Promise<ActiveDeployment | null> {
    const cached = this.cache.get(projectId);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = this.load(projectId);
    this.cache.set(projectId, { value, until: Date.now() + CACHE_TTL_MS });
    value.catch(() => this.cache.delete(projectId));
    if (this.cache.size > 5_000) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }

  invalidate(projectId: string): void {
    this.cache.delete(projectId);
  }

  private async load(projectId: string): Promise<ActiveDeployment | null> {
    const row = await this.db.deployment.findFirst({
      where: { projectId, status: 'active' },
      orderBy: { version: 'desc' },
    });
    if (!row) return null;
    const content = row.files as unknown as DeploymentContent;
    return {
      id: row.id,
      version: row.version,
      env: parseEnv(content.sources?.['.env']),
      routes: new Map((content.routes ?? []).map((route) => [route.path, route])),
      hook: content.hook ?? null,
      jobs: new Map((content.jobs ?? []).map((job) => [job.name, job])),
      tools: new Map((content.tools ?? []).map((tool) => [tool.name, tool])),
      bundles: content.bundles ?? {},
    };
  }
}
