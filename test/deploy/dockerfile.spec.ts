import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { WORKER_NODE_OPTIONS } from '../../tools/devstack/src/worker-node-options.js';
import {
  appServices,
  buildTarget,
  effective,
  effectiveEnv,
  exists,
  flags,
  inheritedInstructions,
  isIgnored,
  parseDockerfile,
  projectCodeServices,
  readCompose,
  readDockerignore,
  readRepoFile,
  serviceEnv,
  shellCommands,
  type Stage,
  workerServices,
} from './deploy-files.js';

const dockerfile = parseDockerfile();
const { leaves, text } = dockerfile;
const stage = (name: string): Stage => {
  const found = dockerfile.byName.get(name);
  if (!found) throw new Error(`deploy/Dockerfile has no stage ${name}`);
  return found;
};
const runs = (s: Stage): string[] =>
  s.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => text(i));
const allRuns = dockerfile.stages.flatMap(runs);
const jsonArgs = (content: string): unknown => JSON.parse(content.replace(/^(CMD|NONE)\s*/, '') || 'null');

describe('deploy/Dockerfile: one image per service', () => {
  it('has exactly one final target per app plus the migration, and compose builds each of them', () => {
    expect(leaves.map((s) => s.name).sort()).toEqual([...appServices, 'migrate'].sort());
    const services = readCompose().services;
    for (const s of leaves) expect(buildTarget(services[s.name]!).target).toBe(s.name);
  });

  it('every final image runs as a non-root user', () => {
    for (const s of leaves) {
      const user = effective(s, 'USER');
      const value = user ? text(user) : 'root';
      const [name] = value.split(':');
      expect({ target: s.name, user: value }).toEqual({
        target: s.name,
        user: expect.not.stringMatching(/^(root|0)?(:|$)/),
      });
      // Numeric, so Kubernetes' runAsNonRoot can verify it without the image's /etc/passwd.
      expect({ target: s.name, uid: Number(name) }).toEqual({ target: s.name, uid: expect.any(Number) });
      expect(Number(name)).toBeGreaterThan(0);
    }
  });

  it('every service image probes its own /health; only the one-shot migration opts out', () => {
    for (const s of leaves) {
      const healthcheck = effective(s, 'HEALTHCHECK');
      expect({ target: s.name, declared: Boolean(healthcheck) }).toEqual({ target: s.name, declared: true });
      const content = text(healthcheck!);
      if (s.name === 'migrate') {
        expect(content).toBe('NONE');
        continue;
      }
      const portVariable = (workerServices as readonly string[]).includes(s.name) ? 'HEALTH_PORT' : 'PORT';
      expect(jsonArgs(content.slice(content.indexOf('CMD')))).toEqual([
        'node',
        '/app/deploy/healthcheck.mjs',
        portVariable,
      ]);
      expect(effectiveEnv(s)[portVariable]).toMatch(/^[1-9]\d*$/);
      expect(flags(healthcheck!)).toMatchObject({
        interval: expect.stringMatching(/^\d+s$/),
        timeout: expect.stringMatching(/^\d+s$/),
      });
    }
    expect(exists('deploy/healthcheck.mjs')).toBe(true);
  });

  it('runs the built entry point under tini, with NODE_ENV=production and SIGTERM to stop', () => {
    for (const s of leaves) {
      expect(jsonArgs(text(effective(s, 'ENTRYPOINT')!))).toEqual(['/usr/bin/tini', '--']);
      expect(text(effective(s, 'STOPSIGNAL')!)).toBe('SIGTERM');
      expect(effectiveEnv(s).NODE_ENV).toBe('production');
      const installsTini = inheritedInstructions(s).some(
        (i) => i.getKeyword() === 'RUN' && /apt-get install[^&;]*\btini\b/.test(text(i)),
      );
      expect({ target: s.name, installsTini }).toEqual({ target: s.name, installsTini: true });

      const cmd = jsonArgs(text(effective(s, 'CMD')!)) as string[];
      expect(cmd[0]).toBe('node');
      if (s.name === 'migrate') {
        expect(cmd).toEqual(['node', 'tools/devstack/dist/migrate.js']);
        expect(exists('tools/devstack/src/migrate.ts')).toBe(true);
      } else {
        // The app's own build output, which `pnpm run build` writes from apps/<name>/src.
        expect(cmd).toEqual(['node', `apps/${s.name}/dist/main.js`]);
        expect(exists(`apps/${s.name}/src/main.ts`)).toBe(true);
      }
    }
  });

  it('each service image exposes and listens on the port compose gives it', () => {
    const services = readCompose().services;
    for (const name of appServices) {
      const portVariable = workerServices.includes(name) ? 'HEALTH_PORT' : 'PORT';
      const port = effectiveEnv(stage(name))[portVariable];
      expect({ name, port: serviceEnv(services[name]!)[portVariable] }).toEqual({ name, port });
      const exposed = inheritedInstructions(stage(name))
        .filter((i) => i.getKeyword() === 'EXPOSE')
        .map((i) => text(i));
      expect(exposed).toContain(port);
    }
  });
});

describe('deploy/Dockerfile: reproducible, lean builds', () => {
  it('pins every base image to an explicit tag, never `latest`', () => {
    const bases = dockerfile.stages.filter((s) => !s.parent).map((s) => s.base);
    expect(bases.length).toBeGreaterThan(0);
    for (const image of bases) {
      const tag = /:([^/:@]+)(@sha256:[a-f0-9]+)?$/.exec(image)?.[1];
      expect({ image, tag }).toEqual({ image, tag: expect.stringMatching(/^(?!latest$)[\w.-]+$/) });
    }
    expect(bases).toContain('node:24-bookworm-slim');
  });

  it('every apt-get install skips recommended packages and cleans the apt lists', () => {
    const withApt = allRuns.filter((run) => /apt-get install/.test(run));
    expect(withApt.length).toBeGreaterThan(0);
    for (const run of withApt) {
      for (const command of shellCommands(run).filter((c) => /apt-get install/.test(c))) {
        expect(command).toContain('--no-install-recommends');
        expect(command).toMatch(/\s-y\b/);
      }
      expect(run).toContain('rm -rf /var/lib/apt/lists/*');
    }
  });

  it('installs dependencies from the lockfile only, then keeps production dependencies', () => {
    const build = runs(stage('build'));
    const installs = build.flatMap(shellCommands).filter((c) => /^pnpm install\b/.test(c));
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const command of installs) expect(command).toContain('--frozen-lockfile');

    const commands = build.flatMap(shellCommands);
    const at = (pattern: RegExp) => commands.findIndex((c) => pattern.test(c));
    const fullInstall = at(/^pnpm install (?!.*--prod)/);
    const generate = at(/pnpm --filter @suite\/db run generate/);
    const compile = at(/^pnpm run build$/);
    const prodInstall = at(/^pnpm install .*--prod\b/);
    expect(fullInstall).toBeGreaterThanOrEqual(0);
    expect(generate).toBeGreaterThan(fullInstall);
    expect(compile).toBeGreaterThan(generate);
    expect(prodInstall).toBeGreaterThan(compile);
    // The prune starts from an empty node_modules: `pnpm install --prod` over a full one keeps the
    // devDependencies in node_modules/.pnpm.
    expect(commands[prodInstall - 1]).toMatch(/^rm -rf node_modules\b/);
  });

  it('runs the browser worker with the node options `make start` and the benchmarks use (a small young generation)', () => {
    expect(WORKER_NODE_OPTIONS).toContain('--max-semi-space-size=');
    expect(effectiveEnv(stage('browser-worker')).NODE_OPTIONS).toBe(WORKER_NODE_OPTIONS);
    // Only the worker: the other services keep node's defaults.
    expect(effectiveEnv(stage('jobs-api')).NODE_OPTIONS).toBeUndefined();
  });

  it('only the browser worker carries Chromium and ffmpeg, and points CHROMIUM_PATH at the binary', () => {
    const installsBrowser = (s: Stage) =>
      inheritedInstructions(s).some(
        (i) => i.getKeyword() === 'RUN' && /apt-get install.*\bchromium\b.*\bffmpeg\b/.test(text(i)),
      );
    expect(installsBrowser(stage('browser-worker'))).toBe(true);
    expect(effectiveEnv(stage('browser-worker')).CHROMIUM_PATH).toBe('/usr/lib/chromium/chromium');
    for (const name of [
      'jobs-api',
      'agent-gateway',
      'project-host',
      'project-worker',
      'push-worker',
      'migrate',
    ]) {
      expect({ name, chromium: installsBrowser(stage(name)) }).toEqual({ name, chromium: false });
    }
  });

  it('gives the browser worker Xvfb, which its video capture outside the browser (VIDEO_CAPTURE=x11grab) needs', () => {
    const installs = (s: Stage, pkg: string) =>
      inheritedInstructions(s).some(
        (i) => i.getKeyword() === 'RUN' && new RegExp(`apt-get install.*\\b${pkg}\\b`).test(text(i)),
      );
    expect(installs(stage('browser-worker'), 'xvfb')).toBe(true);
    expect(installs(stage('jobs-api'), 'xvfb')).toBe(false);
  });
});

describe('deploy/Dockerfile: sandboxed project code and public-only browsers', () => {
  const installs = (s: Stage, pkg: string) =>
    inheritedInstructions(s).some(
      (i) => i.getKeyword() === 'RUN' && new RegExp(`apt-get install[^&;]*\\b${pkg}\\b`).test(text(i)),
    );

  it('only project-host and project-worker, the apps that run project code, carry bubblewrap', () => {
    for (const name of projectCodeServices) expect(installs(stage(name), 'bubblewrap')).toBe(true);
    for (const name of ['jobs-api', 'agent-gateway', 'browser-worker', 'push-worker', 'migrate']) {
      expect({ name, bubblewrap: installs(stage(name), 'bubblewrap') }).toEqual({ name, bubblewrap: false });
    }
  });

  it('project-host and project-worker state the OS sandbox, and no image selects the unsandboxed process mode', () => {
    for (const name of projectCodeServices)
      expect(effectiveEnv(stage(name)).PROJECT_CODE_SANDBOX).toBe('bubblewrap');
    for (const s of leaves) {
      expect({ target: s.name, mode: effectiveEnv(s).PROJECT_CODE_SANDBOX }).not.toEqual({
        target: s.name,
        mode: 'process',
      });
    }
  });

  it('every image defaults job browsers to public addresses only', () => {
    for (const s of leaves) {
      expect({ target: s.name, policy: effectiveEnv(s).BROWSER_NETWORK_POLICY }).toEqual({
        target: s.name,
        policy: 'public-only',
      });
    }
  });
});

describe('.dockerignore keeps the build context small and free of local state', () => {
  it('excludes dependencies, build output, local data, the toolchain, git and secrets', () => {
    for (const path of [
      'node_modules/yaml/package.json',
      'apps/jobs-api/node_modules/fastify/package.json',
      'apps/jobs-api/dist/main.js',
      'libs/db/dist/index.js',
      'libs/db/src/generated/main/client.ts',
      '.data/artifacts/job.mp4',
      '.tools/bin/pnpm',
      '.git/HEAD',
      'coverage/lcov.info',
      'artifacts/video.mp4',
      '.env',
    ]) {
      expect({ path, ignored: isIgnored(path) }).toEqual({ path, ignored: true });
    }
    expect(readDockerignore()).toEqual(
      expect.arrayContaining([
        '**/node_modules',
        '**/dist',
        '.data',
        '.tools',
        '.git',
        'coverage',
        'artifacts',
      ]),
    );
  });

  it('keeps every input the build and the images need', () => {
    const migrations = readdirSync(new URL('../../prisma/migrations', import.meta.url)).filter(
      (name) => !name.endsWith('.toml'),
    );
    for (const path of [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'apps/jobs-api/package.json',
      'apps/jobs-api/src/main.ts',
      'libs/db/src/index.ts',
      'tools/devstack/src/migrate.ts',
      'prisma/schema.prisma',
      ...migrations.map((m) => `prisma/migrations/${m}/migration.sql`),
      'deploy/healthcheck.mjs',
    ]) {
      expect({ path, ignored: isIgnored(path) }).toEqual({ path, ignored: false });
    }
    // Whatever the Dockerfile copies from the context by name must be there.
    const copied = dockerfile.stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.getKeyword() === 'COPY' && !flags(i).from)
      .flatMap((i) => text(i).split(' ').slice(0, -1))
      .filter((source) => source !== '.');
    expect(copied.length).toBeGreaterThan(0);
    for (const source of copied) {
      expect({ source, present: exists(source) && !isIgnored(source) }).toEqual({ source, present: true });
    }
  });

  it('the ignore matcher follows Docker’s rules (a re-included path is kept)', () => {
    expect(isIgnored('a/b/c.log', ['**/*.log'])).toBe(true);
    expect(isIgnored('c.log', ['**/*.log'])).toBe(true);
    expect(isIgnored('keep.log', ['**/*.log', '!keep.log'])).toBe(false);
    expect(isIgnored('distribution/x', ['**/dist'])).toBe(false);
  });
});

// Keep the Dockerfile's documentation honest about how to build each target.
it('the Dockerfile header shows the build command of every target', () => {
  const header = readRepoFile('deploy/Dockerfile');
  for (const s of leaves) expect(header).toContain(`--target ${s.name}`);
});
