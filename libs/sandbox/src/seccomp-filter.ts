/**
 * The seccomp filter loaded into every sandbox (bubblewrap's `--seccomp FD`): a classic BPF
 * program, checked by the kernel on every system call of the sandboxed process and its threads.
 *
 * It is a deny-list in the spirit of Docker's and Flatpak's default profiles, narrowed to what a
 * Node process running project code never needs:
 * - new processes: `fork`/`vfork`, and `clone` without CLONE_THREAD (threads stay possible);
 *   `clone3` answers ENOSYS so that glibc falls back to `clone`, whose flags can be checked;
 * - namespaces, mounts and privileges: `unshare`, `setns`, `mount`, `pivot_root`, `chroot`...;
 * - other processes and the kernel: `ptrace`, `process_vm_*`, `kcmp`, `bpf`, `perf_event_open`,
 *   `userfaultfd`, keyrings, modules, `kexec`, `reboot`, clocks, swap, quotas, `io_uring_*`;
 * - sockets other than AF_UNIX (the network namespace is empty anyway: a second layer).
 * A call of another architecture (x32 on x86-64, or an ABI that is not the host's) kills the process.
 */

const ARCHES = {
  x64: {
    audit: 0xc000003e,
    /** x32 system calls are x86-64 numbers with this bit set. */
    x32Bit: 0x40000000,
    nr: {
      fork: 57,
      vfork: 58,
      clone: 56,
      clone3: 435,
      socket: 41,
      ptrace: 101,
      syslog: 103,
      uselib: 134,
      personality: 135,
      ustat: 136,
      sysfs: 139,
      vhangup: 153,
      pivot_root: 155,
      _sysctl: 156,
      adjtimex: 159,
      chroot: 161,
      acct: 163,
      settimeofday: 164,
      mount: 165,
      umount2: 166,
      swapon: 167,
      swapoff: 168,
      reboot: 169,
      iopl: 172,
      ioperm: 173,
      create_module: 174,
      init_module: 175,
      delete_module: 176,
      get_kernel_syms: 177,
      query_module: 178,
      quotactl: 179,
      nfsservctl: 180,
      lookup_dcookie: 212,
      clock_settime: 227,
      kexec_load: 246,
      add_key: 248,
      request_key: 249,
      keyctl: 250,
      unshare: 272,
      perf_event_open: 298,
      name_to_handle_at: 303,
      open_by_handle_at: 304,
      clock_adjtime: 305,
      setns: 308,
      process_vm_readv: 310,
      process_vm_writev: 311,
      kcmp: 312,
      finit_module: 313,
      kexec_file_load: 320,
      bpf: 321,
      userfaultfd: 323,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      pidfd_getfd: 438,
      mount_setattr: 442,
      quotactl_fd: 443,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    x32Bit: 0,
    // asm-generic numbering; arm64 has no fork/vfork system calls (glibc forks through clone).
    nr: {
      clone: 220,
      clone3: 435,
      socket: 198,
      lookup_dcookie: 18,
      umount2: 39,
      mount: 40,
      pivot_root: 41,
      chroot: 51,
      vhangup: 58,
      quotactl: 60,
      acct: 89,
      personality: 92,
      unshare: 97,
      kexec_load: 104,
      init_module: 105,
      delete_module: 106,
      clock_settime: 112,
      syslog: 116,
      ptrace: 117,
      reboot: 142,
      settimeofday: 170,
      adjtimex: 171,
      add_key: 217,
      request_key: 218,
      keyctl: 219,
      swapon: 224,
      swapoff: 225,
      perf_event_open: 241,
      name_to_handle_at: 264,
      open_by_handle_at: 265,
      clock_adjtime: 266,
      setns: 268,
      process_vm_readv: 270,
      process_vm_writev: 271,
      kcmp: 272,
      finit_module: 273,
      bpf: 280,
      userfaultfd: 282,
      kexec_file_load: 294,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      pidfd_getfd: 438,
      mount_setattr: 442,
      quotactl_fd: 443,
    },
  },
} as const;

export type SeccompArch = keyof typeof ARCHES;

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;
const CLONE_THREAD = 0x00010000;
const AF_UNIX = 1;
// Offsets in struct seccomp_data: nr, arch, instruction pointer, then six 64-bit arguments.
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** Whether this machine's architecture has a filter (elsewhere the sandbox refuses to start). */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

/** The filter for `arch`, as the bytes bubblewrap reads from `--seccomp FD`. */
export function seccompFilter(arch: SeccompArch): Buffer {
  const { audit, x32Bit, nr } = ARCHES[arch];
  const numbers = nr as Record<string, number>;
  const errno = (code: number): Instruction => [RET_K, 0, 0, RET_ERRNO | code];
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, OFFSET_ARCH],
    [JEQ_K, 1, 0, audit],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, OFFSET_NR],
  ];
  if (x32Bit) program.push([JGE_K, 0, 1, x32Bit], [RET_K, 0, 0, RET_KILL_PROCESS]);

  // clone: threads (CLONE_THREAD) pass, new processes are refused.
  program.push(
    [JEQ_K, 0, 4, numbers.clone!],
    [LD_W_ABS, 0, 0, OFFSET_ARG0_LOW],
    [JSET_K, 0, 1, CLONE_THREAD],
    [RET_K, 0, 0, RET_ALLOW],
    errno(EPERM),
  );
  // socket: AF_UNIX only.
  program.push(
    [JEQ_K, 0, 4, numbers.socket!],
    [LD_W_ABS, 0, 0, OFFSET_ARG0_LOW],
    [JEQ_K, 0, 1, AF_UNIX],
    [RET_K, 0, 0, RET_ALLOW],
    errno(EAFNOSUPPORT),
  );
  // clone3 (its flags sit behind a pointer) and io_uring answer "not implemented": callers fall back.
  for (const name of ['clone3', 'io_uring_setup', 'io_uring_enter', 'io_uring_register']) {
    program.push([JEQ_K, 0, 1, numbers[name]!], errno(ENOSYS));
  }
  const handled = new Set([
    'clone',
    'socket',
    'clone3',
    'io_uring_setup',
    'io_uring_enter',
    'io_uring_register',
  ]);
  for (const [name, number] of Object.entries(numbers)) {
    if (!handled.has(name)) program.push([JEQ_K, 0, 1, number], errno(EPERM));
  }
  program.push([RET_K, 0, 0, RET_ALLOW]);

  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}

/** Names of the system calls the filter refuses on `arch` (for documentation and tests). */
export function deniedSyscalls(arch: SeccompArch): string[] {
  return Object.keys(ARCHES[arch].nr).filter((name) => name !== 'clone' && name !== 'socket');
}
