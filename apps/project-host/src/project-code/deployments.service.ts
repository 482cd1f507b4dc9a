import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import {
  ActiveDeployments,
  clampTimeout,
  SandboxError,
  ProjectSandboxes,
  type InspectResult,
  versionAtLeast,
  type DeployedHook,
  type DeployedJob,
  type DeployedMcpTool,
  type DeployedRoute,
  type DeploymentContent,
  type RouteAuth,
} from '@suite/project-runtime';
import { DeploymentsRepository } from './deployments.repository.js';
import { ProjectCompiler } from './project-compiler.js';
import { deployedMcpTool } from '../mcp/mcp-tool-definition.js';
import { isMcpToolEntry, jobOf, routeOf, type ProjectFiles } from './project-files.js';

/** The `blocking` option needs this SDK version; older SDKs drop it (the hook stays fire-and-forget). */
const BLOCKING_SDK_VERSION = '0.19.0';
const INSPECT_TIMEOUT_MS = 5_000;
const HOOK_ENTRIES = ['hooks/auth.ts', 'hooks/auth.mts', 'hooks/auth.js', 'hooks/auth.mjs'];

export interface DeploymentView {
  id: string;
  version: number;
  status: string;
  routes: { path: string; auth: RouteAuth; methods: string[] | null }[];
  hook: Omit<DeployedHook, 'entry'> | null;
  jobs: Omit<DeployedJob, 'entry'>[];
  tools: { name: string; title: string | null; auth: DeployedMcpTool['auth']; entry: string }[];
  createdAt: string;
}

/** Validates, compiles and activates project code; the previous active deployment is superseded. */
@Injectable()
export class DeploymentsService {
  private readonly logger = new Logger('project-code');

  constructor(
    private readonly deployments: DeploymentsRepository,
    private readonly compiler: ProjectCompiler,
    private readonly sandboxes: ProjectSandboxes,
    private readonly active: ActiveDeployments,
  ) {}

  async deploy(projectId: string, files: ProjectFiles): Promise<DeploymentView> {
    if (!isUuid(projectId) || !(await this.deployments.projectExists(projectId))) {
      throw new AuthError(AuthErrorCode.ProjectNotFound, 'No such project.', { status: 404 });
    }
    const routeEntries = Object.keys(files)
      .map((entry) => ({ entry, path: routeOf(entry) }))
      .filter((r): r is { entry: string; path: string } => r.path !== undefined);
    const seen = new Map<string, string>();
    for (const { entry, path } of routeEntries) {
      const other = seen.get(path);
      if (other) throw invalid(`${entry} and ${other} both define ${path}.`);
      seen.set(path, entry);
    }
    const hookEntry = HOOK_ENTRIES.find((entry) => entry in files);
    const jobEntries = Object.keys(files)
      .map((entry) => ({ entry, name: jobOf(entry) }))
      .filter((j): j is { entry: string; name: string } => j.name !== undefined);
    const jobNames = new Map<string, string>();
    for (const { entry, name } of jobEntries) {
      const other = jobNames.get(name);
      if (other) throw invalid(`${entry} and ${other} both define the job ${name}.`);
      jobNames.set(name, entry);
    }
    const toolEntries = Object.keys(files).filter(isMcpToolEntry).sort();
    const entries = [
      ...routeEntries.map((r) => r.entry),
      ...(hookEntry ? [hookEntry] : []),
      ...jobEntries.map((j) => j.entry),
      ...toolEntries,
    ];
    const bundles = await this.compiler.compile(files, entries);

    // Importing project code runs it: that happens in a throwaway sandbox, never in the host.
    const inspectKey = `deploy:${projectId}`;
    const routes: DeployedRoute[] = [];
    let hook: DeployedHook | null = null;
    const jobs: DeployedJob[] = [];
    const tools: DeployedMcpTool[] = [];
    try {
      for (const { entry, path } of routeEntries) {
        const info = await this.inspect(inspectKey, entry, bundles[entry]!);
        if (!info.hasDefault) throw invalid(`${entry} must default-export defineApi({ handler }).`);
        if (info.platform !== 'api')
          throw invalid(`The default export of ${entry} is not the result of defineApi.`);
        if (info.auth === 'invalid' || info.auth === null) {
          throw invalid(`${entry}: auth must be false, 'required', 'optional' or a verifier function.`);
        }
        routes.push({
          path,
          entry,
          auth: info.auth as RouteAuth,
          methods: info.methods,
          timeoutMs: clampTimeout(info.timeoutMs),
        });
      }
      if (hookEntry) hook = await this.inspectHook(inspectKey, hookEntry, bundles[hookEntry]!);
      for (const { entry, name } of jobEntries) {
        const info = await this.inspect(inspectKey, entry, bundles[entry]!);
        if (!info.hasDefault || info.platform !== 'job') {
          throw invalid(`${entry} must default-export defineJob({ handler }).`);
        }
        jobs.push({ name, entry, timeoutMs: clampTimeout(info.timeoutMs) });
      }
      for (const entry of toolEntries) {
        const tool = deployedMcpTool(entry, await this.inspect(inspectKey, entry, bundles[entry]!));
        const other = tools.find((t) => t.name === tool.name);
        if (other) throw invalid(`${entry} and ${other.entry} both define the MCP tool ${tool.name}.`);
        tools.push(tool);
      }
    } finally {
      this.sandboxes.restart(inspectKey);
    }

    const content: DeploymentContent = { sources: files, bundles, routes, hook, jobs, tools };
    const row = await this.deployments.activate(projectId, content, hook);
    this.active.invalidate(projectId);
    await this.sandboxes.endEverywhere(projectId, 'deployed');
    this.logger.log(
      {
        projectId,
        version: row.version,
        routes: routes.length,
        hook: !!hook,
        jobs: jobs.length,
        tools: tools.length,
      },
      'deployed',
    );
    return {
      id: row.id,
      version: row.version,
      status: row.status,
      routes: routes.map(({ path, auth, methods }) => ({ path, auth, methods })),
      hook: hook && { blocking: hook.blocking, timeoutMs: hook.timeoutMs, handlers: hook.handlers },
      jobs: jobs.map(({ name, timeoutMs }) => ({ name, timeoutMs })),
      tools: tools.map(({ name, title, auth, entry }) => ({ name, title, auth, entry })),
      createdAt: row.createdAt.toISOString(),
    };
  }

  private async inspectHook(key: string, entry: string, code: string): Promise<DeployedHook> {
    const info = await this.inspect(key, entry, code, AuthErrorCode.InvalidAuthHook);
    if (!info.hasDefault) {
      throw new AuthError(
        AuthErrorCode.InvalidAuthHook,
        `${entry} must default-export defineAuthHook({ ... }).`,
      );
    }
    if (info.platform !== 'auth-hook') {
      throw new AuthError(
        AuthErrorCode.InvalidAuthHook,
        `The default export of ${entry} is not the result of defineAuthHook.`,
      );
    }
    if (info.blocking !== undefined && typeof info.blocking !== 'boolean') {
      throw new AuthError(AuthErrorCode.InvalidAuthHook, 'blocking must be true or false.');
    }
    // Older SDKs do not know `blocking`: their hooks stay fire-and-forget.
    const honoursBlocking = versionAtLeast(info.sdkVersion, BLOCKING_SDK_VERSION);
    return {
      entry,
      blocking: honoursBlocking && info.blocking === true,
      timeoutMs: clampTimeout(info.timeoutMs),
      handlers: info.handlers,
    };
  }

  private async inspect(
    key: string,
    entry: string,
    code: string,
    errorCode = AuthErrorCode.InvalidRequest,
  ): Promise<InspectResult> {
    try {
      return (await this.sandboxes.call(
        key,
        { op: 'inspect', key: entry, code },
        INSPECT_TIMEOUT_MS,
      )) as InspectResult;
    } catch (error) {
      // The host cannot run code now (no sandbox, all busy): not a fault of the code being deployed.
      if (error instanceof SandboxError && (error.reason === 'unavailable' || error.reason === 'busy')) {
        throw new AuthError(AuthErrorCode.ProjectCodeUnavailable, error.message);
      }
      throw new AuthError(errorCode, `${entry} failed when loaded: ${(error as Error).message}`);
    }
  }
}

const invalid = (message: string) => new AuthError(AuthErrorCode.InvalidRequest, message);
