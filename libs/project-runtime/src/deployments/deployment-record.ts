/** A deployment's files by path (`api/boards/list.ts`, `.env`), as uploaded. */
export type ProjectFiles = Record<string, string>;

/** How an API route is protected (the `auth` option of defineApi, as inspected at deploy). */
export type RouteAuth = 'false' | 'required' | 'optional' | 'custom';

export interface DeployedRoute {
  /** `/api/boards/list` */
  path: string;
  /** `api/boards/list.ts`: the key of its bundle. */
  entry: string;
  auth: RouteAuth;
  /** Upper-case methods answered; null: all. */
  methods: string[] | null;
  timeoutMs: number;
}

export interface DeployedHook {
  entry: string;
  blocking: boolean;
  timeoutMs: number;
  handlers: string[];
}

/** A job: `jobs/<name>.ts` with a defineJob default export, run by ctx.jobs.enqueue(name). */
export interface DeployedJob {
  /** `welcome` for jobs/welcome.ts, `mail/digest` for jobs/mail/digest.ts. */
  name: string;
  entry: string;
  timeoutMs: number;
}

/** How an MCP tool is protected (`auth` of defineMcpTool; 'required' when absent). */
export type McpToolAuth = 'false' | 'required' | 'optional';

/** An MCP tool: a file under `mcp/` with a defineMcpTool default export, served on `/mcp`. */
export interface DeployedMcpTool {
  name: string;
  entry: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  auth: McpToolAuth;
  timeoutMs: number;
}

/**
 * What `Deployment.files` holds: the sources as uploaded, and what the host runs (bundles compiled
 * once at deploy, so every replica runs the same code without compiling).
 */
export interface DeploymentContent {
  sources: ProjectFiles;
  bundles: Record<string, string>;
  routes: DeployedRoute[];
  hook: DeployedHook | null;
  /** Absent in deployments made before jobs existed. */
  jobs?: DeployedJob[];
  /** Absent in deployments made before MCP tools existed. */
  tools?: DeployedMcpTool[];
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_TIMEOUT_MS = 30_000;

/** timeoutMs of hooks, APIs and jobs: default 10 s, at most 30 s. */
export function clampTimeout(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return DEFAULT_TIMEOUT_MS;
  return Math.min(Math.round(value), MAX_TIMEOUT_MS);
}

/** True when `version` (semver) is at least `min`. */
export function versionAtLeast(version: string | null, min: string): boolean {
  if (!version) return false;
  const a = version.split(/[.-]/).map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (Number.isNaN(x)) return false;
    if (x !== y) return x > y;
  }
  return true;
}
