export { bubblewrapCommand, heapMb, INSIDE, NODE_BASE_ADDRESS_SPACE_MB } from './bubblewrap-command.js';
export {
  nodeRuntime,
  reachableByOthers,
  readableByOthers,
  sharedLibraries,
  type NodeRuntime,
} from './node-runtime.js';
export { deniedSyscalls, seccompArch, seccompFilter, type SeccompArch } from './seccomp-filter.js';
export {
  SandboxBusyError,
  SandboxCpuError,
  SandboxCrashedError,
  SandboxError,
  SandboxTimeoutError,
  SandboxUnavailableError,
} from './sandbox-errors.js';
export { SandboxPool, type SandboxPoolOptions } from './sandbox-pool.js';
export {
  SandboxProcess,
  type EffectRequest,
  type HostMessage,
  type SandboxLogger,
  type SandboxMessage,
} from './sandbox-process.js';
export {
  SANDBOX_MODES,
  sandboxEnv,
  sandboxSettings,
  type SandboxMode,
  type SandboxSettings,
} from './sandbox-settings.js';
