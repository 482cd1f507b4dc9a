// Readers for the deployment files, shared by the specs in test/deploy. They parse the files the
// way their consumers do (YAML with merge keys like Compose, Dockerfiles with dockerfile-ast) and
// answer the questions the specs ask: which stages a target inherits, what a service publishes.
import { DockerfileParser, ModifiableInstruction, type Instruction } from 'dockerfile-ast';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const repoPath = (...parts: string[]): string => join(repoRoot, ...parts);
export const readRepoFile = (path: string): string => readFileSync(repoPath(path), 'utf8');

/** YAML as Compose reads it: `<<` merge keys resolved. */
export function readYaml<T = unknown>(path: string): T {
  return parse(readRepoFile(path), { merge: true }) as T;
}

// ------------------------------------------------------------------------------------------------
// docker-compose.yml
// ------------------------------------------------------------------------------------------------

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; target?: string };
  depends_on?: string[] | Record<string, { condition: string }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target: number; published?: string | number; host_ip?: string })[];
  volumes?: (string | { type?: string; source?: string; target: string })[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
  command?: string | string[];
  deploy?: { replicas?: number };
  privileged?: boolean;
  cap_add?: string[];
  network_mode?: string;
  user?: string;
  shm_size?: string | number;
  container_name?: string;
  restart?: string;
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

export const composePath = 'docker-compose.yml';
export const readCompose = (): ComposeFile => readYaml<ComposeFile>(composePath);

/** The application services (their image is built from deploy/Dockerfile): three HTTP apps, three workers. */
export const appServices = [
  'jobs-api',
  'agent-gateway',
  'browser-worker',
  'project-host',
  'project-worker',
  'push-worker',
] as const;
export type AppService = (typeof appServices)[number];

/** The workers: application contexts without an HTTP app, health and metrics on HEALTH_PORT. */
export const workerServices: readonly AppService[] = ['browser-worker', 'project-worker', 'push-worker'];

/** The services that run project code (in bubblewrap): the host's APIs, the worker's hooks and jobs. */
export const projectCodeServices: readonly AppService[] = ['project-host', 'project-worker'];

export function serviceEnv(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/**
 * Compose interpolation for `${VAR}`, `${VAR:-default}`, `${VAR-default}` and `${VAR:?message}`
 * (the last throws the message when VAR is unset or empty, as Compose does).
 */
export function interpolate(value: string, env: Record<string, string | undefined> = {}): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (_match, name: string, colon: string, op: string | undefined, arg: string | undefined) => {
      const current = env[name];
      const missing = colon ? !current : current === undefined;
      if (op === '?' && missing) throw new Error(arg || `${name} is required`);
      if (op === '-' && missing) return arg ?? '';
      return current ?? '';
    },
  );
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition]));
}

export interface PublishedPort {
  hostIp: string;
  published: string;
  target: string;
}

/** Short (`[ip:]published:target`) and long port syntax, after interpolation with no env. */
export function publishedPorts(service: ComposeService): PublishedPort[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'object') {
      return {
        hostIp: port.host_ip ?? '',
        published: String(port.published ?? ''),
        target: String(port.target),
      };
    }
    const parts = interpolate(String(port))
      .replace(/\/(tcp|udp|sctp)$/, '')
      .split(':');
    const target = parts.pop() ?? '';
    const published = parts.pop() ?? '';
    return { hostIp: parts.join(':'), published, target };
  });
}

export function buildTarget(service: ComposeService): {
  context: string;
  dockerfile: string;
  target?: string;
} {
  const build = service.build;
  if (!build) throw new Error('service has no build');
  if (typeof build === 'string') return { context: build, dockerfile: 'Dockerfile' };
  return {
    context: build.context ?? '.',
    dockerfile: build.dockerfile ?? 'Dockerfile',
    ...(build.target ? { target: build.target } : {}),
  };
}

// ------------------------------------------------------------------------------------------------
// deploy/Dockerfile
// ------------------------------------------------------------------------------------------------

export const dockerfilePath = 'deploy/Dockerfile';

export interface Stage {
  name: string;
  /** The FROM image after ARG defaults are applied, or the parent stage's name. */
  base: string;
  /** The parent stage when `base` names one. */
  parent?: Stage;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  stages: Stage[];
  byName: Map<string, Stage>;
  /** Stages no other stage builds FROM: the images a `--target` is meant to produce. */
  leaves: Stage[];
  /** Every instruction argument, one line each, continuation lines joined. */
  text: (instruction: Instruction) => string;
}

export function parseDockerfile(content = readRepoFile(dockerfilePath)): ParsedDockerfile {
  const dockerfile = DockerfileParser.parse(content);
  const args = new Map<string, string>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property) args.set(property.getName(), property.getValue() ?? '');
  }
  const expand = (value: string): string =>
    value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => args.get(name) ?? '');

  const stages: Stage[] = [];
  const byName = new Map<string, Stage>();
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const words = (instruction.getArgumentsContent() ?? '').trim().split(/\s+/);
      const image = words.find((w) => !w.startsWith('--')) ?? '';
      const asAt = words.findIndex((w) => w.toUpperCase() === 'AS');
      const name = asAt >= 0 ? (words[asAt + 1] ?? '') : String(stages.length);
      const base = expand(image);
      const parent = byName.get(base);
      const stage: Stage = { name, base, instructions: [], ...(parent ? { parent } : {}) };
      stages.push(stage);
      byName.set(name, stage);
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push(instruction);
    }
  }
  // Stages used by others, as a base (FROM) or as a source (COPY --from), are not targets.
  const used = new Set(stages.map((s) => s.parent?.name).filter(Boolean));
  for (const stage of stages) {
    for (const instruction of stage.instructions) {
      const from = flags(instruction).from;
      if (instruction.getKeyword() === 'COPY' && from) used.add(from);
    }
  }
  const leaves = stages.filter((s) => !used.has(s.name));
  const text = (instruction: Instruction): string =>
    (instruction.getArgumentsContent() ?? '')
      .replace(/\\\r?\n/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return { stages, byName, leaves, text };
}

/** An instruction's `--name=value` flags (`HEALTHCHECK --interval`, `COPY --from`, `RUN --mount`). */
export function flags(instruction: Instruction): Record<string, string> {
  if (!(instruction instanceof ModifiableInstruction)) return {};
  return Object.fromEntries(instruction.getFlags().map((f) => [f.getName(), f.getValue() ?? '']));
}

/** A stage's instructions with those of the stages it is built FROM first, as the image has them. */
export function inheritedInstructions(stage: Stage): Instruction[] {
  return [...(stage.parent ? inheritedInstructions(stage.parent) : []), ...stage.instructions];
}

/** The last instruction of `keyword` that applies to the image a stage produces. */
export function effective(stage: Stage, keyword: string): Instruction | undefined {
  return inheritedInstructions(stage)
    .filter((i) => i.getKeyword() === keyword)
    .at(-1);
}

/** ENV values that apply to the stage's image (`ENV A=1 B=2` and the legacy `ENV A 1`). */
export function effectiveEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of inheritedInstructions(stage)) {
    if (instruction.getKeyword() !== 'ENV') continue;
    const content = (instruction.getArgumentsContent() ?? '').replace(/\\\r?\n/g, ' ').trim();
    if (!content.includes('=')) {
      const [name, ...rest] = content.split(/\s+/);
      if (name) env[name] = rest.join(' ');
      continue;
    }
    for (const pair of content.match(/[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)/g) ?? []) {
      const at = pair.indexOf('=');
      env[pair.slice(0, at)] = pair.slice(at + 1).replace(/^["']|["']$/g, '');
    }
  }
  return env;
}

/** Shell commands of a RUN, split on `&&`, `||` and `;`, for rules about single commands. */
export function shellCommands(run: string): string[] {
  return run
    .split(/&&|\|\||;/)
    .map((c) => c.trim())
    .filter(Boolean);
}

// ------------------------------------------------------------------------------------------------
// .dockerignore (Docker's rules: patterns relative to the context, `*` within one path segment,
// `**` across segments, a pattern that matches a directory excludes what is inside, `!` re-includes)
// ------------------------------------------------------------------------------------------------

export function readDockerignore(): string[] {
  return readRepoFile('.dockerignore')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

function globToRegExp(pattern: string): RegExp {
  const clean = pattern.replace(/^\/+|\/+$/g, '').replace(/^\.\//, '');
  let source = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i]!;
    if (c === '*' && clean[i + 1] === '*') {
      // `**/` matches zero or more directories; a trailing `**` anything.
      if (clean[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether `.dockerignore` keeps `path` (relative to the repository root) out of the build context. */
export function isIgnored(path: string, patterns = readDockerignore()): boolean {
  const segments = path.split('/');
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const re = globToRegExp(negate ? raw.slice(1) : raw);
    // The path itself or any directory above it.
    const hit = segments.some((_s, i) => re.test(segments.slice(0, i + 1).join('/')));
    if (hit) ignored = !negate;
  }
  return ignored;
}

export const exists = (path: string): boolean => existsSync(repoPath(path));
