import { describe, expect, it } from '@jest/globals';
import { exists, readCompose, readRepoFile, readYaml, serviceEnv } from './deploy-files.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  container?: string | { image: string };
  services?: Record<string, { image: string; env?: Record<string, string>; options?: string }>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: unknown;
  jobs: Record<string, Job>;
}

const ci = readYaml<Workflow>('.github/workflows/ci.yml');
const images = readYaml<Workflow>('.github/workflows/images.yml');

/** The shell lines of a workflow's `run` steps, comments and blank lines dropped. */
const runLines = (job: Job): string[] =>
  job.steps
    .flatMap((s) => (s.run ?? '').split('\n'))
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

/** `make <target>` commands of a shell script or a list of lines (a `make` install is not one). */
const makeCommands = (lines: string[]): string[] =>
  lines.map((l) => l.trim()).filter((l) => /^(exec\s+)?make\s+[a-z]/.test(l) && !/apt-get/.test(l));

describe('.github/workflows/ci.yml mirrors .ci/run', () => {
  const [jobName, job] = Object.entries(ci.jobs)[0]!;

  it('parses, and runs on pushes and pull requests', () => {
    expect(Object.keys(ci.jobs)).toEqual([jobName]);
    expect(ci.on).toMatchObject({ push: expect.anything(), pull_request: null });
  });

  it('runs `make test`, then `make test-faults`, with CI=true', () => {
    expect(makeCommands(runLines(job))).toEqual(['make test', 'make test-faults']);
    expect(String(job.env?.CI)).toBe('true');
  });

  const ciRunExists = exists('.ci/run');
  if (!ciRunExists) console.warn('NOTE: .ci/run is missing: the workflow cannot be compared with it.');
  (ciRunExists ? it : it.skip)('calls the same command as .ci/run, in the same CI mode', () => {
    const script = readRepoFile('.ci/run').split('\n');
    const scriptMakes = makeCommands(script);
    expect(scriptMakes.length).toBeGreaterThan(0);
    expect(makeCommands(runLines(job))).toEqual(scriptMakes);
    expect(script.some((l) => /^\s*export CI=true\b/.test(l))).toBe(true);
  });

  it('runs on Debian with Postgres and Redis services the suite is pointed at', () => {
    const container = typeof job.container === 'string' ? job.container : job.container?.image;
    expect(container).toMatch(/^node:24-bookworm/);
    expect(job.services?.postgres?.image).toMatch(/^postgres:\d+/);
    expect(job.services?.redis?.image).toMatch(/^redis:\d+/);
    for (const name of ['postgres', 'redis']) {
      expect(job.services?.[name]?.options).toMatch(/--health-cmd/);
    }
    // In a container job the services are reached by name.
    expect(new URL(job.env!.DATABASE_URL!).hostname).toBe('postgres');
    expect(new URL(job.env!.REDIS_URL!).hostname).toBe('redis');
  });

  it('installs Debian Chromium and ffmpeg before the tests', () => {
    const lines = runLines(job).join('\n');
    expect(lines).toMatch(/apt-get install[^\n]*(\\\n[^\n]*)*\bchromium\b/);
    expect(lines).toMatch(/\bffmpeg\b/);
    const install = job.steps.findIndex((s) => /apt-get install/.test(s.run ?? ''));
    const test = job.steps.findIndex((s) => /make test/.test(s.run ?? ''));
    expect(install).toBeGreaterThanOrEqual(0);
    expect(install).toBeLessThan(test);
  });

  it('checks out the code and caches the pnpm store keyed on the lockfile', () => {
    expect(job.steps[0]!.uses).toMatch(/^actions\/checkout@v\d+$/);
    const cache = job.steps.find((s) => s.uses?.startsWith('actions/cache@'));
    expect(cache?.with?.path).toMatch(/pnpm\/store/);
    expect(cache?.with?.key).toContain("hashFiles('pnpm-lock.yaml')");
  });
});

describe('.github/workflows/images.yml builds the images and boots the compose stack', () => {
  const job = Object.values(images.jobs)[0]!;
  const lines = runLines(job);

  it('validates, builds and starts the root docker-compose.yml, then tears it down', () => {
    for (const verb of ['config -q', 'build', 'up -d', 'down -v']) {
      expect(lines).toContainEqual(expect.stringContaining(`docker compose -f docker-compose.yml ${verb}`));
    }
  });

  it('generates every secret the compose file requires for each run, before compose reads them', () => {
    const required = [...readRepoFile('docker-compose.yml').matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?/g)].map(
      (m) => m[1]!,
    );
    expect(required.length).toBeGreaterThan(0);
    const generate = job.steps.findIndex((s) => /GITHUB_ENV/.test(s.run ?? ''));
    const compose = job.steps.findIndex((s) => /docker compose/.test(s.run ?? ''));
    expect(generate).toBeGreaterThanOrEqual(0);
    expect(generate).toBeLessThan(compose);
    const script = job.steps[generate]!.run!;
    for (const name of new Set(required)) {
      expect({ name, generated: new RegExp(`${name}=\\$\\(openssl rand `).test(script) }).toEqual({
        name,
        generated: true,
      });
    }
    // No fixed value anywhere in the workflow.
    for (const name of new Set(required)) expect(job.env?.[name]).toBeUndefined();
  });

  it('checks on a real engine that bubblewrap starts in project-host and that Redis requires its password', () => {
    expect(lines.join('\n')).toMatch(/exec -T project-host\s*\\?\s*bwrap /);
    expect(lines.join('\n')).toMatch(/redis-cli ping/);
  });

  it('checks on a real engine that Chromium starts with its sandbox in browser-worker (never --no-sandbox)', () => {
    const text = lines.join('\n');
    expect(text).toMatch(/exec -T browser-worker sh -c[\s\S]*chromium --headless/);
    expect(text).not.toContain('--no-sandbox');
    expect(text).not.toMatch(/CHROMIUM_SANDBOX/);
  });

  it('waits on the same published ports compose declares', () => {
    const services = readCompose().services;
    for (const name of ['jobs-api', 'project-host']) {
      const port = serviceEnv(services[name]!).PORT;
      expect(lines.join('\n')).toContain(`http://127.0.0.1:${port}/health`);
    }
  });
});
