import { envFields, z } from '@suite/config';

/**
 * How untrusted code is isolated. `bubblewrap` (the default) is the OS sandbox; `process` is a plain
 * Node child process with Node's permission flags only, which is NO security boundary: it exists for
 * a developer's own code (`platform dev`) and for machines without bubblewrap, and must be chosen
 * explicitly.
 */
export const SANDBOX_MODES = ['bubblewrap', 'process'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** Env fields of the sandbox; apps that run project code spread them into their own schema. */
export const sandboxEnv = {
  PROJECT_CODE_SANDBOX: z
    .enum(SANDBOX_MODES, {
      error: 'must be bubblewrap (the OS sandbox) or process (a plain process: unsafe for untrusted code)',
    })
    .default('bubblewrap'),
  /** Memory one sandbox may map beyond what Node itself needs to start (heap, ArrayBuffers, code). */
  SANDBOX_MEMORY_MB: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(64, 'must be between 64 and 4096')
    .max(4096, 'must be between 64 and 4096')
    .default(256),
  /** Size of a sandbox's private /tmp (memory-backed). */
  SANDBOX_TMP_MB: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 1024')
    .max(1024, 'must be between 1 and 1024')
    .default(16),
  /** CPU time one call may use (all threads of the sandbox together); more ends the sandbox. */
  SANDBOX_CPU_MS_PER_CALL: envFields.positiveInt(5_000),
  /**
   * CPU time a sandbox may use between calls, in ms (whole-life accounting: a sandbox is stopped
   * between calls, so it needs none; more ends it, with a log line).
   */
  SANDBOX_IDLE_CPU_MS: envFields.positiveInt(250),
  /** Sandboxes alive at once in one host process; the least recently used idle one ends first. */
  SANDBOX_MAX_LIVE: envFields.positiveInt(32),
  /** How long a call waits for a sandbox when all of them are busy, before it fails. */
  SANDBOX_WAIT_MS: envFields.positiveInt(5_000),
  /**
   * First of the user ids given to sandboxes when the host runs as root (each project gets one of
   * SANDBOX_UID_COUNT ids, outside the range of the machine's real users).
   */
  SANDBOX_UID_BASE: envFields.positiveInt(2_000_000),
  SANDBOX_UID_COUNT: envFields.positiveInt(1_000_000),
  /** Where bundles are written for the sandboxes to read (a folder of this host's own). */
  SANDBOX_DIR: z.string().min(1).optional(),
  /** The bubblewrap executable. */
  BWRAP_PATH: z.string().min(1).default('bwrap'),
};

export interface SandboxSettings {
  mode: SandboxMode;
  memoryMb: number;
  tmpMb: number;
  cpuMsPerCall: number;
  idleCpuMs: number;
  maxLive: number;
  waitMs: number;
  uidBase: number;
  uidCount: number;
  dir?: string | undefined;
  bwrapPath: string;
}

type SandboxEnv = z.infer<z.ZodObject<typeof sandboxEnv>>;

/** The typed settings from a config that spread `sandboxEnv`. */
export function sandboxSettings(env: SandboxEnv): SandboxSettings {
  return {
    mode: env.PROJECT_CODE_SANDBOX,
    memoryMb: env.SANDBOX_MEMORY_MB,
    tmpMb: env.SANDBOX_TMP_MB,
    cpuMsPerCall: env.SANDBOX_CPU_MS_PER_CALL,
    idleCpuMs: env.SANDBOX_IDLE_CPU_MS,
    maxLive: env.SANDBOX_MAX_LIVE,
    waitMs: env.SANDBOX_WAIT_MS,
    uidBase: env.SANDBOX_UID_BASE,
    uidCount: env.SANDBOX_UID_COUNT,
    dir: env.SANDBOX_DIR,
    bwrapPath: env.BWRAP_PATH,
  };
}
