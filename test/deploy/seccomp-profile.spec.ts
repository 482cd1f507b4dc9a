// deploy/seccomp/project-host.json: the seccomp profile of the project-host container in compose
// (and the profile a Kubernetes Localhost setup would install). It must let bubblewrap make its
// namespaces and keep refusing what a container never needs. Where runc, bubblewrap and root are
// available, the profile is also loaded for real: a container like compose's project-host (uid
// 1000, no capabilities, no-new-privileges, read-only root) starts a sandbox with the flags of
// libs/sandbox, and the same container under a profile without the namespace calls cannot.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readRepoFile } from './deploy-files.js';
import {
  allowListShape,
  allowedCalls,
  explainedAllowList,
  namedCalls,
  readProfile,
  refusedEverywhere,
  withoutNamespaceCalls,
  type Profile,
} from './seccomp-profiles.js';

const profilePath = 'deploy/seccomp/project-host.json';
const profile = readProfile(profilePath);
const allowed = allowedCalls(profile);

/** What bubblewrap calls to build a sandbox (user, mount, PID... namespaces, its root, hostname). */
const bubblewrapNeeds = ['clone', 'unshare', 'mount', 'umount2', 'pivot_root', 'sethostname'];

describe('deploy/seccomp/project-host.json', () => {
  it('is an allow-list (EPERM for every call not named) for 64-bit x86 and ARM, each call named once, each group explained', () => {
    expect(allowListShape(profile)).toEqual(explainedAllowList);
  });

  it('allows what bubblewrap needs to build a sandbox', () => {
    for (const name of bubblewrapNeeds)
      expect({ name, allowed: allowed.has(name) }).toEqual({ name, allowed: true });
  });

  it('keeps refusing the kernel surface a container never needs', () => {
    const everything = namedCalls(profile);
    for (const name of refusedEverywhere)
      expect({ name, listed: everything.has(name) }).toEqual({ name, listed: false });
  });

  it('allows sockets of every family but AF_VSOCK, and personality only for the default persona', () => {
    const socket = profile.syscalls.filter((r) => r.names.includes('socket'));
    expect(socket).toEqual([expect.objectContaining({ args: [{ index: 0, value: 40, op: 'SCMP_CMP_NE' }] })]);
    const personality = profile.syscalls.filter((r) => r.names.includes('personality'));
    expect(personality.map((r) => r.args?.[0]?.value).sort()).toEqual([0, 0xffffffff]);
    for (const rule of personality) expect(rule.args?.[0]?.op).toBe('SCMP_CMP_EQ');
  });
});

// ------------------------------------------------------------------------------------------------
// The profile loaded by runc, in a container shaped like compose's project-host
// ------------------------------------------------------------------------------------------------

const available = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const canRunContainers =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  ['x64', 'arm64'].includes(process.arch) &&
  available('runc', '--version') &&
  available('bwrap', '--version');
if (!canRunContainers) {
  console.warn('NOTE: runc, bwrap or root is missing: the seccomp profile is not loaded for real here.');
}
const itWithRunc = canRunContainers ? it : it.skip;

/** The sandbox's flags, as libs/sandbox passes them (its own seccomp filter aside). */
function sandboxCommand(node: string, libraries: string[]): string[] {
  return [
    'bwrap',
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--as-pid-1',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--ro-bind',
    node,
    '/usr/bin/node',
    ...libraries.flatMap((lib) => ['--ro-bind', lib, lib]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(16 * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--',
    '/usr/bin/node',
    '--permission',
    '-e',
    'const os = require("node:os"); console.log(JSON.stringify({ pid: process.pid, host: os.hostname(), net: Object.keys(os.networkInterfaces()) }))',
  ];
}

/** Runs the sandbox command in a runc container with `seccomp` and Docker's /proc masks or none. */
function runContainer(seccomp: Profile, masked: boolean): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'seccomp-runc-'));
  try {
    const rootfs = join(dir, 'rootfs');
    for (const sub of ['usr', 'etc', 'tmp', 'proc', 'dev', 'sys', 'node'])
      mkdirSync(join(rootfs, sub), { recursive: true });
    for (const link of ['bin', 'lib', 'lib64', 'sbin']) symlinkSync(`usr/${link}`, join(rootfs, link));
    const node = realpathSync(process.execPath);
    const ldd = spawnSync('ldd', [node], { encoding: 'utf8' }).stdout;
    const libraries = [...ldd.matchAll(/(\/\S+)\s+\(/g)]
      .map((m) => m[1]!)
      .filter((p) => p.startsWith('/usr/') || p.startsWith('/lib'));
    const insideNode = `/node/${node.split('/').pop()}`;
    // runc's default spec: its own PID, network, IPC, UTS and mount namespaces, Docker's /proc masks.
    expect(spawnSync('runc', ['spec'], { cwd: dir }).status).toBe(0);
    const spec = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      process: Record<string, unknown>;
      root: Record<string, unknown>;
      mounts: Record<string, unknown>[];
      linux: Record<string, unknown>;
      hostname?: string;
    };
    spec.process.terminal = false;
    spec.process.user = { uid: 1000, gid: 1000 };
    spec.process.args = sandboxCommand(insideNode, libraries);
    spec.process.noNewPrivileges = true;
    spec.process.capabilities = { bounding: [], effective: [], permitted: [], ambient: [] };
    spec.root = { path: 'rootfs', readonly: true };
    spec.hostname = 'project-host';
    for (const [source, destination] of [
      ['/usr', '/usr'],
      ['/etc', '/etc'],
      [dirname(node), '/node'],
    ]) {
      spec.mounts.push({ destination, type: 'bind', source, options: ['rbind', 'ro'] });
    }
    spec.mounts.push({
      destination: '/tmp',
      type: 'tmpfs',
      source: 'tmpfs',
      options: ['nosuid', 'nodev', 'mode=1777'],
    });
    if (!masked) {
      spec.linux.maskedPaths = [];
      spec.linux.readonlyPaths = [];
    }
    spec.linux.seccomp = {
      defaultAction: seccomp.defaultAction,
      defaultErrnoRet: seccomp.defaultErrnoRet,
      architectures: seccomp.architectures,
      syscalls: seccomp.syscalls.map(({ names, action, args }) => ({
        names,
        action,
        ...(args ? { args } : {}),
      })),
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(spec));
    const id = `seccomp-spec-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const run = spawnSync('runc', ['run', '--no-new-keyring', id], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    spawnSync('runc', ['delete', '--force', id], { stdio: 'ignore' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('deploy/seccomp/project-host.json under runc', () => {
  it('starts the sandbox with the flags libs/sandbox uses (its status and seccomp fds and working folder aside)', () => {
    const library = readRepoFile('libs/sandbox/src/bubblewrap-command.ts');
    const flags = new Set([...library.matchAll(/'(--[a-z-]+)'/g)].map((m) => m[1]!));
    for (const flag of ['--json-status-fd', '--seccomp', '--chdir']) flags.delete(flag);
    expect(flags.size).toBeGreaterThan(10);
    const ours = sandboxCommand('/node/node', []);
    for (const flag of flags) expect({ flag, used: ours.includes(flag) }).toEqual({ flag, used: true });
  });

  itWithRunc(
    'with an unmasked /proc (compose: systempaths=unconfined), bubblewrap starts a sandbox: PID 1, own hostname, loopback only',
    () => {
      const result = runContainer(profile, false);
      expect(result).toEqual({ status: 0, output: expect.stringContaining('"pid":1') });
      expect(JSON.parse(result.output.trim().split('\n').pop()!)).toEqual({
        pid: 1,
        host: 'sandbox',
        net: ['lo'],
      });
    },
  );

  itWithRunc(
    "with Docker's /proc masks, bubblewrap cannot mount the sandbox's /proc (why compose unmasks it)",
    () => {
      const result = runContainer(profile, true);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/proc/);
    },
  );

  itWithRunc(
    'without the namespace calls (a runtime-default profile), bubblewrap cannot start: the profile is what makes it work',
    () => {
      // Threads and plain processes still start (clone without namespace flags), as under Docker's profile.
      const withoutNamespaces = withoutNamespaceCalls(profile, ['mount', 'umount2', 'pivot_root']);
      const result = runContainer(withoutNamespaces, false);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/namespace/i);
    },
  );
});
