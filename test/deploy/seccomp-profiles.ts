// The seccomp profiles in deploy/seccomp (Docker's JSON format), read for the specs in
// test/deploy: their rules, what they allow unconditionally, and the kernel surface every one of
// them must keep refusing.
import { readRepoFile } from './deploy-files.js';

export interface SyscallRule {
  names: string[];
  action: string;
  errnoRet?: number;
  comment?: string;
  args?: { index: number; value: number; op: string; valueTwo?: number }[];
}

export interface Profile {
  defaultAction: string;
  defaultErrnoRet?: number;
  architectures: string[];
  syscalls: SyscallRule[];
}

export const readProfile = (path: string): Profile => JSON.parse(readRepoFile(path)) as Profile;

/** The calls a profile allows whatever their arguments. */
export const allowedCalls = (profile: Profile): Set<string> =>
  new Set(profile.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && !r.args).flatMap((r) => r.names));

/** Every call a profile names, in any rule. */
export const namedCalls = (profile: Profile): Set<string> =>
  new Set(profile.syscalls.flatMap((r) => r.names));

/** Kernel surface a container never needs: no profile in deploy/seccomp names these. */
export const refusedEverywhere: readonly string[] = [
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'kcmp',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'keyctl',
  'add_key',
  'request_key',
  'setns',
  'open_by_handle_at',
  'name_to_handle_at',
  'io_uring_setup',
  'io_uring_enter',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'reboot',
  'swapon',
  'swapoff',
  'syslog',
  'acct',
  'quotactl',
  'settimeofday',
  'clock_settime',
  'adjtimex',
  'iopl',
  'ioperm',
  'fsopen',
  'fsmount',
  'move_mount',
  'open_tree',
  'mount_setattr',
  'fanotify_init',
  'lookup_dcookie',
];

/**
 * `profile` as a runtime's default would have it for a process without CAP_SYS_ADMIN (Docker's
 * default profile, Kubernetes' RuntimeDefault): no `clone` with namespace flags, `clone3` answered
 * with ENOSYS (so glibc falls back to `clone`), and none of `without`.
 */
export function withoutNamespaceCalls(profile: Profile, without: readonly string[]): Profile {
  const dropped = new Set(['clone', 'clone3', 'unshare', ...without]);
  return {
    ...profile,
    syscalls: [
      ...profile.syscalls.map((rule) => ({ ...rule, names: rule.names.filter((n) => !dropped.has(n)) })),
      {
        names: ['clone'],
        action: 'SCMP_ACT_ALLOW',
        comment: 'clone without CLONE_NEW* flags (threads and plain processes)',
        args: [{ index: 0, value: 0x7e020000, op: 'SCMP_CMP_MASKED_EQ', valueTwo: 0 }],
      },
      { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38, comment: 'ENOSYS, as Docker does' },
    ],
  };
}

/** What the specs check of every profile's shape: its default, architectures, actions and comments. */
export function allowListShape(profile: Profile) {
  const names = profile.syscalls.filter((r) => !r.args).flatMap((r) => r.names);
  return {
    defaultAction: profile.defaultAction,
    defaultErrnoRet: profile.defaultErrnoRet,
    architectures: [...profile.architectures].sort(),
    actions: [...new Set(profile.syscalls.map((r) => r.action))],
    namedTwice: names.filter((name, i) => names.indexOf(name) !== i),
    unexplained: profile.syscalls.filter((r) => (r.comment?.length ?? 0) <= 10).map((r) => r.names.join(' ')),
  };
}

/**
 * The shape of every profile in deploy/seccomp: an allow-list (every call not named is refused
 * with EPERM), for 64-bit x86 and ARM only, each call named once and each group explained.
 */
export const explainedAllowList: ReturnType<typeof allowListShape> = {
  defaultAction: 'SCMP_ACT_ERRNO',
  defaultErrnoRet: 1,
  architectures: ['SCMP_ARCH_AARCH64', 'SCMP_ARCH_X86_64'],
  actions: ['SCMP_ACT_ALLOW'],
  namedTwice: [],
  unexplained: [],
};
