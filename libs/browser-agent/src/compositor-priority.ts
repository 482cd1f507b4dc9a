import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The niceness Chromium's GPU process (its display compositor) is given by default: below the
 * renderers, the browser process and the worker, which carry a test's steps.
 */
export const COMPOSITOR_NICE = 10;

/**
 * How often a running browser is checked for a new GPU process or new threads in it (reading a few
 * dozen /proc files: well under a millisecond). Chromium running as root sets some new threads back
 * to its own priority; an unprivileged Chromium cannot, and its new threads inherit the niceness.
 */
const RECHECK_MS = 2_000;
/** How long to look for the GPU process after launch (it starts with the browser, or soon after). */
const FIND_FOR_MS = 10_000;
const FIND_EVERY_MS = 100;

/** What is read from /proc. */
export interface ProcReader {
  children(pid: number): number[];
  cmdline(pid: number): string;
  threads(pid: number): number[];
}

/** Kernels built without CONFIG_PROC_CHILDREN have no `children` files: scan every process's parent. */
const hasChildrenFiles = (() => {
  try {
    readFileSync(`/proc/${process.pid}/task/${process.pid}/children`);
    return true;
  } catch {
    return false;
  }
})();

export const linuxProc: ProcReader = {
  children(pid) {
    if (!hasChildrenFiles) return childrenByScan(pid);
    // Every thread's children: Chromium launches its helpers from threads other than the main one.
    const out: number[] = [];
    for (const tid of linuxProc.threads(pid)) {
      try {
        const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        if (text) out.push(...text.split(/\s+/).map(Number));
      } catch {
        // The thread ended: nothing to add.
      }
    }
    return out;
  },
  cmdline(pid) {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return '';
    }
  },
  threads(pid) {
    try {
      return readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      return [];
    }
  },
};

/**
 * Keeps Chromium's GPU process at a low CPU priority (`nice`, every thread of it) for as long as
 * the browser runs; returns a function that stops watching.
 *
 * Why: while a page is recorded, Chromium's compositor draws every changed frame of it in full
 * (the captured page is no longer merged into the screen's frame, so a one-character change costs
 * a whole 1280x720 software draw, about 4 ms), which is most of what recording costs during a run.
 * That work is not on a test's path, but Chromium runs the compositor at a raised priority (-8 where
 * it may, e.g. as root), so on a busy machine it took the CPU from the page's main thread and the
 * worker: measured, recording slowed a 10-step run by about 110 ms at the default priority and
 * about 60 ms at nice 10, with the same video. Frames are still all drawn and captured.
 *
 * Linux only (elsewhere, or when /proc cannot be read, this does nothing). Threads Chromium starts
 * later inherit the niceness; a recheck every two seconds catches a restarted GPU process and any
 * thread Chromium raised again.
 */
export function watchCompositorPriority(
  browserPid: number | undefined,
  nice: number = COMPOSITOR_NICE,
  proc: ProcReader = linuxProc,
): () => void {
  if (browserPid === undefined || process.platform !== 'linux') return () => undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  const check = (): boolean => {
    const gpu = descendants(browserPid, proc).filter((pid) =>
      proc.cmdline(pid).includes('--type=gpu-process'),
    );
    for (const pid of gpu) for (const tid of proc.threads(pid)) lower(tid, nice);
    return gpu.length > 0;
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      const found = check();
      schedule(found || Date.now() - started > FIND_FOR_MS ? RECHECK_MS : FIND_EVERY_MS);
    }, ms);
    timer.unref();
  };
  schedule(check() ? RECHECK_MS : FIND_EVERY_MS);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** Every process below `root` (Chromium starts its GPU process from a zygote, not directly). */
export function descendants(root: number, proc: ProcReader = linuxProc): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < 1000) {
    for (const child of proc.children(queue.shift()!)) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The children of `parent` found by reading every process's parent (no `children` files needed). */
export function childrenByScan(parent: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => parentOf(pid) === parent);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields after it start past the last ")".
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function lower(tid: number, nice: number): void {
  try {
    if (getPriority(tid) !== nice) setPriority(tid, nice);
  } catch {
    // The thread ended, or this process may not change it: leave it as it is.
  }
}
