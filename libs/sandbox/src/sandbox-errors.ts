/** Why a call into a sandbox did not return the code's own answer. */
export class SandboxError extends Error {
  constructor(
    message: string,
    /** What ended the call, for the transport's mapper (timeout → 504, busy/unavailable → 503). */
    readonly reason: 'timeout' | 'cpu' | 'crashed' | 'busy' | 'unavailable',
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export class SandboxTimeoutError extends SandboxError {
  constructor(ms: number) {
    super(`project code did not finish within ${ms} ms (its sandbox was restarted)`, 'timeout');
    this.name = 'SandboxTimeoutError';
  }
}

export class SandboxCpuError extends SandboxError {
  constructor(ms: number) {
    super(`project code used more than ${ms} ms of CPU time in one call (its sandbox was restarted)`, 'cpu');
    this.name = 'SandboxCpuError';
  }
}

export class SandboxCrashedError extends SandboxError {
  constructor(detail: string) {
    super(`the project's sandbox ended (${detail})`, 'crashed');
    this.name = 'SandboxCrashedError';
  }
}

export class SandboxBusyError extends SandboxError {
  constructor(live: number, waitedMs: number) {
    super(
      `all ${live} sandboxes of this host are busy (waited ${waitedMs} ms for one); try again shortly`,
      'busy',
    );
    this.name = 'SandboxBusyError';
  }
}

export class SandboxUnavailableError extends SandboxError {
  constructor(detail: string) {
    super(
      `project code cannot run on this host: ${detail}. Install bubblewrap (apt-get install bubblewrap) ` +
        'where unprivileged user namespaces are allowed, or set PROJECT_CODE_SANDBOX=process to run ' +
        'project code in a plain process (unsafe for untrusted code)',
      'unavailable',
    );
    this.name = 'SandboxUnavailableError';
  }
}
