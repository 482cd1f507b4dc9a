import { readdirSync, readFileSync } from 'node:fs';

/** Linux /proc readers: process trees, memory and CPU time. Every reader tolerates vanished processes. */

export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  pgid: number;
  /** User + system CPU time in clock ticks. */
  cpuTicks: number;
  /** CPU time of the children it has reaped (cutime + cstime, their own reaped children included). */
  reapedChildTicks: number;
  /** Start time since boot, in clock ticks: tells a process apart from a later one with the same pid. */
  startTime: number;
}

/** Clock ticks per second (USER_HZ); 100 on every mainstream Linux build. */
export const CLOCK_TICKS = 100;

export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm may contain spaces and parentheses: it spans from the first "(" to the last ")".
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const field = (n: number): number => Number(rest[n - 3]);
  return {
    pid,
    comm: text.slice(open + 1, close),
    ppid: field(4),
    pgid: field(5),
    cpuTicks: field(14) + field(15),
    reapedChildTicks: field(16) + field(17),
    startTime: field(22),
  };
}

export function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** `root` and every process below it (children, grandchildren, …), as they are right now. */
export function processTree(root: number): ProcStat[] {
  const stats = allPids()
    .map(readStat)
    .filter((s): s is ProcStat => s !== undefined);
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const list = children.get(stat.ppid) ?? [];
    list.push(stat);
    children.set(stat.ppid, list);
  }
  const self = stats.find((s) => s.pid === root);
  if (!self) return [];
  const out: ProcStat[] = [self];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!.pid) ?? []));
  return out;
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

export interface MemoryReading {
  /** Resident set size in KiB. */
  rssKb: number;
  /** Proportional set size in KiB (shared pages divided among their users); 0 when unreadable. */
  pssKb: number;
}

export function memory(pid: number): MemoryReading | undefined {
  let rssKb: number | undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return undefined;
  }
  let pssKb = 0;
  try {
    pssKb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    // smaps_rollup needs a recent kernel and permission; RSS alone is still useful.
  }
  return { rssKb, pssKb };
}

/** Total and busy CPU ticks of the whole machine (all cores), from /proc/stat. */
export function machineCpu(): { total: number; busy: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return { total, busy: total - idle };
}

/** Pids whose command name is one of `names` (e.g. the machine's postgres and redis-server). */
export function pidsByComm(names: readonly string[]): number[] {
  return allPids().filter((pid) => {
    const stat = readStat(pid);
    return stat !== undefined && names.includes(stat.comm);
  });
}

/**
 * CPU used by groups of processes over an interval, as a share of one core (100 % = one core busy).
 * Call `start()` before the load and `stop()` after it.
 */
export class CpuMeter {
  private startTicks = new Map<string, number>();
  private startMachine = machineCpu();
  private startedAt = 0;
  private readonly groups: Record<string, () => number[]>;
  private readonly withReaped: ReadonlySet<string>;

  /**
   * `withReaped`: groups that also count the CPU of their short-lived processes (ffmpeg, Chromium
   * renderers, Postgres backends) once these exited, through the cutime/cstime of the group's live
   * process that reaped them; without it a process that exits during the interval takes its CPU
   * time along, and it lands in `everything else`. A process that was already running at `start()`
   * and exits before `stop()` is then counted whole (an overstatement bounded by its CPU before).
   */
  constructor(groups: Record<string, () => number[]>, options: { withReaped?: string[] } = {}) {
    this.groups = groups;
    this.withReaped = new Set(options.withReaped ?? []);
  }

  private ticks(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, pids] of Object.entries(this.groups)) {
      const reaped = this.withReaped.has(name);
      let sum = 0;
      for (const pid of pids()) {
        const stat = readStat(pid);
        sum += (stat?.cpuTicks ?? 0) + (reaped ? (stat?.reapedChildTicks ?? 0) : 0);
      }
      out.set(name, sum);
    }
    return out;
  }

  start(): void {
    this.startTicks = this.ticks();
    this.startMachine = machineCpu();
    this.startedAt = Date.now();
  }

  /**
   * Per group: percent of one core; `everything else`: the rest of the machine's busy time, in percent
   * of one core; `machine`: percent of all cores together.
   */
  stop(): Record<string, number> {
    const seconds = (Date.now() - this.startedAt) / 1000;
    const end = this.ticks();
    const out: Record<string, number> = {};
    for (const [name, ticks] of end) {
      const used = ticks - (this.startTicks.get(name) ?? 0);
      out[name] = Math.round((used / CLOCK_TICKS / seconds) * 1000) / 10;
    }
    const machine = machineCpu();
    const total = machine.total - this.startMachine.total;
    const busy = machine.busy - this.startMachine.busy;
    // Everything else on the machine (other users' processes included), in percent of one core.
    const ours = Object.values(out).reduce((a, b) => a + b, 0);
    out['everything else'] = Math.max(0, Math.round((busy / CLOCK_TICKS / seconds) * 1000) / 10 - ours);
    out['everything else'] = Math.round(out['everything else'] * 10) / 10;
    out.machine = total > 0 ? Math.round((busy / total) * 1000) / 10 : 0;
    return out;
  }
}

/** Percent of all cores busy over the next `ms` milliseconds. */
export async function machineBusyPercent(ms: number): Promise<number> {
  const before = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineCpu();
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.busy - before.busy) / total) * 1000) / 10 : 0;
}
