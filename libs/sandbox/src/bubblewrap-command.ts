import { existsSync } from 'node:fs';
import type { NodeRuntime } from './node-runtime.js';

/** Where things are inside a sandbox. */
export const INSIDE = {
  node: '/usr/bin/node',
  /** The sandbox's own folder: the runner and the bundles it may import, read-only. */
  app: '/app',
  tmp: '/tmp',
} as const;

/** File descriptors of the sandbox process (0-2 stdio, 3 the message channel with the host). */
export const SANDBOX_FDS = { channel: 3, status: 4, seccomp: 5 } as const;

/** Node needs about this much address space just to start (its code, V8's reservations). */
export const NODE_BASE_ADDRESS_SPACE_MB = 1_344;

export interface SandboxLaunch {
  /** Folder on the host with the runner and the bundles; mounted read-only at /app. */
  appDir: string;
  /** File name of the runner inside appDir. */
  runner: string;
  runtime: NodeRuntime;
  memoryMb: number;
  tmpMb: number;
  /** RLIMIT_NPROC (threads count too); undefined leaves the host's (when the sandbox shares its uid). */
  maxProcesses?: number | undefined;
  bwrapPath: string;
  /**
   * bubblewrap's --disable-userns (no user namespaces inside); it needs /proc/sys/user, which some
   * kernels (gVisor) lack. The seccomp filter refuses unshare/setns/clone of namespaces either way.
   */
  disableUserns?: boolean | undefined;
}

/** Whether this kernel lets bubblewrap's --disable-userns work. */
export const canDisableUserns = () => existsSync('/proc/sys/user/max_user_namespaces');

/** V8's heap: half the memory budget, at least 64 MB, at most 1 GB. */
export const heapMb = (memoryMb: number) => Math.max(64, Math.min(1_024, Math.floor(memoryMb / 2)));

/** Node's own flags: the permission model as a second layer (reads of /app and /tmp, writes to /tmp). */
export function nodeFlags(appDir: string, tmpDir: string | null, memoryMb: number): string[] {
  return [
    `--max-old-space-size=${heapMb(memoryMb)}`,
    '--permission',
    `--allow-fs-read=${appDir}`,
    ...(tmpDir ? [`--allow-fs-read=${tmpDir}`, `--allow-fs-write=${tmpDir}`] : []),
    '--disable-proto=delete',
  ];
}

/**
 * The command that starts one sandbox: `prlimit` sets the resource limits, then bubblewrap makes
 * the namespaces and the filesystem view and loads the seccomp filter, then Node runs the runner.
 * The caller starts it as the sandbox's own user (spawn's uid/gid) with fds 3 (the channel), 4 (a pipe for
 * bubblewrap's status) and 5 (the seccomp filter).
 */
export function bubblewrapCommand(launch: SandboxLaunch): { command: string; args: string[] } {
  const memoryBytes = (NODE_BASE_ADDRESS_SPACE_MB + launch.memoryMb) * 1024 * 1024;
  const tmpBytes = launch.tmpMb * 1024 * 1024;
  const limits = [
    `--as=${memoryBytes}`,
    '--nofile=256',
    '--core=0',
    `--fsize=${tmpBytes}`,
    '--memlock=0',
    ...(launch.maxProcesses ? [`--nproc=${launch.maxProcesses}`] : []),
  ];
  const mounts = [
    ['--ro-bind', launch.runtime.executable, INSIDE.node],
    ...launch.runtime.libraries.map(([host, inside]) => ['--ro-bind', host, inside]),
    ['--ro-bind', launch.appDir, INSIDE.app],
  ].flat();
  const bwrap = [
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(launch.disableUserns === false ? [] : ['--disable-userns']),
    '--die-with-parent',
    '--new-session',
    '--as-pid-1',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--json-status-fd',
    String(SANDBOX_FDS.status),
    '--seccomp',
    String(SANDBOX_FDS.seccomp),
    ...mounts,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(tmpBytes),
    '--tmpfs',
    INSIDE.tmp,
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    INSIDE.app,
    '--',
    INSIDE.node,
    ...nodeFlags(INSIDE.app, INSIDE.tmp, launch.memoryMb),
    `${INSIDE.app}/${launch.runner}`,
  ];
  return { command: 'prlimit', args: [...limits, '--', launch.bwrapPath, ...bwrap] };
}
