import { ControlPlaneError, type ControlPlaneClient, type Deployment } from './control-plane.client.js';
import { collectProjectFiles } from './project-files.js';
import { say, warn } from './terminal.js';

/** The host's JSON body limit is 64 KB; deploys go as JSON (`{"files": {...}}`). */
const MAX_JSON_DEPLOY_BYTES = 64 * 1024;

/**
 * Deploys the directory to the local host, one deploy at a time: changes that arrive during a
 * deploy cause exactly one more. A refused deploy is printed and the active deployment keeps serving.
 */
export class ProjectDeployer {
  private running: Promise<void> | null = null;
  private again = false;
  /** Version of the deployment serving now (0: none yet). */
  version = 0;

  constructor(
    private readonly client: ControlPlaneClient,
    private readonly projectId: string,
    private readonly dir: string,
  ) {}

  /** Resolves when the deploy asked for (and any it had to queue) is done. */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.deployOnce().catch((error: Error) =>
          warn('deploy', `could not read the project: ${error.message}\n${this.keeps()}`),
        );
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async deployOnce(): Promise<void> {
    const files = collectProjectFiles(this.dir);
    const size = Buffer.byteLength(JSON.stringify({ files }));
    if (size > MAX_JSON_DEPLOY_BYTES) {
      warn(
        'deploy',
        `deploy skipped: api/, hooks/, jobs/, mcp/ and .env weigh ${Math.ceil(size / 1024)} KB, over the ${MAX_JSON_DEPLOY_BYTES / 1024} KB ` +
          `a JSON deploy may carry\n${this.keeps()}; move data files out of the code folders`,
      );
      return;
    }
    try {
      const deployment = await this.client.deploy(this.projectId, files);
      this.version = deployment.version;
      say('deploy', describe(deployment));
    } catch (error) {
      const reason =
        error instanceof ControlPlaneError
          ? `${error.status} ${error.code}: ${error.message}`
          : (error as Error).message;
      warn('deploy', `deploy failed (${reason})\n${this.keeps()}; fix the file and save to retry`);
    }
  }

  private keeps(): string {
    return this.version
      ? `deployment v${this.version} keeps serving`
      : 'nothing is deployed yet: /api/* answers 404 until a deploy succeeds';
  }
}

function describe(deployment: Deployment): string {
  const lines = [`deployed v${deployment.version}`];
  for (const route of deployment.routes) {
    const auth = route.auth === 'false' ? 'public' : `auth ${route.auth}`;
    lines.push(`  ${route.methods?.join(',') ?? 'ALL'} ${route.path} (${auth})`);
  }
  if (deployment.hook) {
    const handlers = deployment.hook.handlers.join(', ') || 'no handlers';
    lines.push(`  hooks/auth.ts: ${handlers}${deployment.hook.blocking ? ' (blocking)' : ''}`);
  }
  return lines.join('\n');
}
